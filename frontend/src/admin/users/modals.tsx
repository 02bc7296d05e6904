import type { UserResource } from '@branchify/shared';
import { useModals } from '../../shared/modals';
import { CreateUserModal } from './CreateUserModal';
import { DeleteUserModal } from './DeleteUserModal';
import { EditUserModal } from './EditUserModal';
import { SuspendUserModal } from './SuspendUserModal';

/** The users modals by name: create-user, edit-user, delete-user, suspend-user. */
export const useUserModals = () => {
  const modals = useModals();
  return {
    create: () => modals.open({ name: 'create-user', title: 'Create User', render: ({ close }) => <CreateUserModal close={close} /> }),
    edit: (user: UserResource) => modals.open({ name: 'edit-user', title: 'Edit User', render: ({ close }) => <EditUserModal user={user} close={close} /> }),
    remove: (user: UserResource, self: boolean) =>
      modals.open({
        name: 'delete-user',
        title: 'Delete User',
        maxWidth: 'xs',
        render: ({ close }) => <DeleteUserModal user={user} self={self} close={close} />,
      }),
    suspend: (user: UserResource) =>
      modals.open({
        name: 'suspend-user',
        title: user.status === 'active' ? 'Suspend User' : 'Reactivate User',
        render: ({ close }) => <SuspendUserModal user={user} close={close} />,
      }),
  };
};
