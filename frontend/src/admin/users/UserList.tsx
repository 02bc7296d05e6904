import { useAdminPageTitle } from '../layout/AdminTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { Link as RouterLink } from 'react-router-dom';
import { DataTable, List, SearchInput, TopToolbar, useGetIdentity } from 'react-admin';
import type { UserResource } from '@branchify/shared';
import { formatDate } from '../../shared/format';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { statusLabel, subscriptionBadge } from '../subscriptions/format';
import { userPath } from './format';
import { useUserModals } from './modals';

/** DataTable columns typed with the user resource. */
const Column = DataTable.Col<UserResource>;

const SEARCH_LABEL = 'Search by name or email';

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder={SEARCH_LABEL} slotProps={{ htmlInput: { 'aria-label': SEARCH_LABEL } }} />];

const ListActions = () => {
  const modals = useUserModals();
  return (
    <TopToolbar>
      <Button variant="contained" startIcon={<PersonAddIcon />} onClick={() => modals.create()}>
        Create User
      </Button>
    </TopToolbar>
  );
};

/** The name links to the user page, so the list works from the keyboard as well as by row click. */
const NameCell = ({ user, self }: { user: UserResource; self: boolean }) => (
  <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
    <Link component={RouterLink} to={userPath(user.id)} onClick={(e) => e.stopPropagation()} underline="hover" sx={{ fontWeight: 600 }}>
      {`${user.first_name} ${user.last_name}`.trim() || user.email}
    </Link>
    {user.is_admin && <Chip size="small" label="Admin" color="primary" variant="outlined" />}
    {self && <Chip size="small" label="You" variant="outlined" />}
  </Box>
);

const SubscriptionCell = ({ user }: { user: UserResource }) => {
  if (user.is_admin) return <Box sx={{ color: 'text.secondary' }}>—</Box>;
  const sub = user.subscription;
  if (!sub) return <Box sx={{ color: 'text.secondary' }}>No plan</Box>;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <span>{sub.plan?.name ?? `Plan ${sub.plan_id}`}</span>
      <StatusBadge status={subscriptionBadge(sub.status)} label={statusLabel(sub.status)} />
    </Box>
  );
};

/** UsersList (/admin/users): search, paging, sorting; a row opens the user page. */
export const UserList = () => {
  useAdminPageTitle('Users');
  const { identity } = useGetIdentity();
  return (
    <List filters={filters} actions={<ListActions />} perPage={25} sort={{ field: 'id', order: 'DESC' }} title="Users">
      <DataTable<UserResource> rowClick="edit" bulkActionButtons={false}>
        <Column source="first_name" label="Name" render={(u) => <NameCell user={u} self={String(identity?.id) === String(u.id)} />} />
        <Column source="email" label="Email" />
        <Column source="status" label="Status" render={(u) => <StatusBadge status={u.status === 'active' ? 'active' : 'suspended'} label={u.status} />} />
        <Column label="Subscription" disableSort render={(u) => <SubscriptionCell user={u} />} />
        <Column source="created_at" label="Created" render={(u) => formatDate(u.created_at)} />
      </DataTable>
    </List>
  );
};
