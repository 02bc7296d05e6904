import { BooleanField, Datagrid, DateField, EmailField, FunctionField, List, SearchInput, TextField } from 'react-admin';
import { StatusBadge } from '../../shared/inputs';

const filters = [<SearchInput key="q" source="q" alwaysOn />];

/** UsersList (/admin/users). */
export const UserList = () => (
  <List filters={filters} perPage={25} sort={{ field: 'id', order: 'DESC' }}>
    <Datagrid rowClick={false} bulkActionButtons={false}>
      <TextField source="id" />
      <TextField source="first_name" label="First name" />
      <TextField source="last_name" label="Last name" />
      <EmailField source="email" />
      <BooleanField source="is_admin" label="Admin" />
      <FunctionField
        label="Status"
        render={(r: { status: string }) => <StatusBadge status={r.status === 'active' ? 'active' : 'suspended'} label={r.status} />}
      />
      <DateField source="created_at" label="Created" />
    </Datagrid>
  </List>
);
