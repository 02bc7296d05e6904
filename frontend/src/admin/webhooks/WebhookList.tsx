import type { WebhookEndpointResource } from '@branchify/shared';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import WebhookIcon from '@mui/icons-material/Webhook';
import { CreateButton, Datagrid, FunctionField, List, TextField, TopToolbar } from 'react-admin';
import { EmptyCreateButton } from '../layout/EmptyCreateButton';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { useCustomization } from '../../shared/customization';
import { usePageTitle } from '../../shared/usePageTitle';

const Actions = () => (
  <TopToolbar>
    <CreateButton label="Add endpoint" />
  </TopToolbar>
);

/** No endpoint yet: what webhooks are for, and the way to add the first. */
const Empty = () => (
  <Box sx={{ textAlign: 'center', py: 8, px: 2, mx: 'auto', maxWidth: 560 }} data-testid="webhooks-empty">
    <WebhookIcon sx={{ fontSize: 56, color: 'text.secondary' }} aria-hidden />
    <Typography component="h2" variant="h6" sx={{ mt: 1 }}>
      No webhook endpoints yet
    </Typography>
    <Typography variant="body2" color="text.secondary" sx={{ mt: 1, mb: 3 }}>
      Add an https endpoint to receive signed JSON events when a subscription changes, a funnel is viewed or completed, or a branch is clicked.
    </Typography>
    <EmptyCreateButton label="Add endpoint" />
  </Box>
);

/** Webhook endpoints (/admin/webhooks): where events go, which ones, and whether it is on. */
export const WebhookList = () => {
  const { customization } = useCustomization();
  usePageTitle('Webhooks', customization.app_name);
  return (
    <List title="Webhooks" perPage={25} actions={<Actions />} empty={<Empty />} queryOptions={{ staleTime: 0 }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="url" label="URL" sortable={false} />
        <TextField source="description" label="Description" sortable={false} />
        <FunctionField<WebhookEndpointResource> label="Events" sortable={false} render={(w) => w.events.join(', ')} />
        <FunctionField<WebhookEndpointResource> label="Secret" sortable={false} render={(w) => <code>{w.secret_hint}</code>} />
        <FunctionField<WebhookEndpointResource>
          label="Status"
          sortable={false}
          render={(w) => <StatusBadge status={w.enabled ? 'active' : 'inactive'} label={w.enabled ? 'Enabled' : 'Disabled'} />}
        />
      </Datagrid>
    </List>
  );
};
