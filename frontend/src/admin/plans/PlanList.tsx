import { Datagrid, List, TextField } from 'react-admin';

/** Plans (/admin/plans). */
export const PlanList = () => (
  <List perPage={25} sort={{ field: 'id', order: 'ASC' }}>
    <Datagrid rowClick={false} bulkActionButtons={false}>
      <TextField source="name" />
      <TextField source="price_display" label="Price" />
    </Datagrid>
  </List>
);
