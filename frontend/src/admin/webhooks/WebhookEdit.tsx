import { MESSAGES, type WebhookEndpointResource } from '@branchify/shared';
import Typography from '@mui/material/Typography';
import { DeleteButton, Edit, SaveButton, Toolbar, useRecordContext, useRedirect } from 'react-admin';
import { useAlert } from '../../shared/alerts';
import { useCustomization } from '../../shared/customization';
import { usePageTitle } from '../../shared/usePageTitle';
import { DeliveryLog } from './DeliveryLog';
import { WebhookForm } from './WebhookForm';

const Title = () => {
  const endpoint = useRecordContext<WebhookEndpointResource>();
  const { customization } = useCustomization();
  const title = endpoint ? `Webhook: ${endpoint.url}` : 'Webhook';
  usePageTitle(title, customization.app_name);
  return <span>{title}</span>;
};

const EditToolbar = () => {
  const endpoint = useRecordContext<WebhookEndpointResource>();
  const alert = useAlert();
  const redirect = useRedirect();
  return (
    <Toolbar sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
      <SaveButton label="Save" />
      {endpoint && (
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1, px: 2 }}>
          Signing secret: <code>{endpoint.secret_hint}</code>
        </Typography>
      )}
      <DeleteButton
        label="Delete"
        mutationMode="pessimistic"
        mutationOptions={{
          onSuccess: () => {
            alert.success(MESSAGES.webhookDeleted);
            redirect('list', 'webhooks');
          },
          onError: (error: unknown) => alert.error(error),
        }}
        confirmTitle="Delete this webhook endpoint?"
        confirmContent="The endpoint and its delivery log are removed for good."
      />
    </Toolbar>
  );
};

const Log = () => {
  const endpoint = useRecordContext<WebhookEndpointResource>();
  return endpoint ? <DeliveryLog endpointId={endpoint.id} /> : null;
};

/** Edit an endpoint (/admin/webhooks/{id}) and read its delivery log. */
export const WebhookEdit = () => {
  const alert = useAlert();
  return (
    <Edit
      title={<Title />}
      mutationMode="pessimistic"
      redirect={false}
      mutationOptions={{ onSuccess: () => alert.success(MESSAGES.webhookUpdated), onError: (error: unknown) => alert.error(error) }}
      queryOptions={{ staleTime: 0 }}
    >
      <WebhookForm toolbar={<EditToolbar />} />
      <Log />
    </Edit>
  );
};
