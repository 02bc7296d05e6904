import { useState } from 'react';
import { MESSAGES, type WebhookEndpointResource } from '@branchify/shared';
import { Create, useRedirect } from 'react-admin';
import { useAlert } from '../../shared/alerts';
import { useCustomization } from '../../shared/customization';
import { usePageTitle } from '../../shared/usePageTitle';
import { SecretDialog } from './SecretDialog';
import { WebhookForm } from './WebhookForm';

/** Add an endpoint (/admin/webhooks/create); its signing secret is shown once, then the endpoint opens. */
export const WebhookCreate = () => {
  const { customization } = useCustomization();
  usePageTitle('Add webhook endpoint', customization.app_name);
  const alert = useAlert();
  const redirect = useRedirect();
  const [created, setCreated] = useState<WebhookEndpointResource | null>(null);
  return (
    <>
      <Create
        title="Add webhook endpoint"
        redirect={false}
        mutationOptions={{
          onSuccess: (data: WebhookEndpointResource) => {
            alert.success(MESSAGES.webhookCreated);
            setCreated(data);
          },
          onError: (error: unknown) => alert.error(error),
        }}
      >
        <WebhookForm />
      </Create>
      <SecretDialog
        secret={created?.secret ?? null}
        onClose={() => {
          const id = created?.id;
          setCreated(null);
          if (id) redirect('edit', 'webhooks', id);
        }}
      />
    </>
  );
};
