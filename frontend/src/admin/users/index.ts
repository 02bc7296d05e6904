import PeopleIcon from '@mui/icons-material/People';
import type { UserResource } from '@branchify/shared';
import { fullName } from './format';
import { lazyScreen } from '../lazy-screen';

// Each screen is its own chunk, loaded when first shown.
const UserList = lazyScreen(() => import('./UserList').then((m) => m.UserList));
const UserShow = lazyScreen(() => import('./UserShow').then((m) => m.UserShow));

/**
 * The users resource. The user page lives at /admin/users/{id}, react-admin's record route (its
 * `edit` slot); the profile itself is edited in the edit-user modal from that page.
 */
export default {
  list: UserList,
  edit: UserShow,
  icon: PeopleIcon,
  recordRepresentation: (r: UserResource) => fullName(r),
};
