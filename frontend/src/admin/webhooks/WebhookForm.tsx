import type { ReactElement } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { WEBHOOK_EVENT_TYPES, webhookEndpointSchema } from '@branchify/shared';
import { BooleanInput, CheckboxGroupInput, SimpleForm, TextInput, useSaveContext } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { formErrorsFrom } from '../plans/serverErrors';
import { EVENT_LABELS } from './labels';

/** The browser checks with the schema the server parses with; where the URL points is checked by the server. */
const resolver = zodResolver(webhookEndpointSchema, undefined, { raw: true });

const WEBHOOK_DEFAULTS = { url: '', description: '', events: [] as string[], enabled: true };

const eventChoices = WEBHOOK_EVENT_TYPES.map((id) => ({ id, name: EVENT_LABELS[id] }));

/** Only the endpoint's own fields go back (the record also carries ids, the secret's hint, dates). */
const editable = (values: FieldValues) => {
  // The resolver has checked the values against the schema (raw: they are sent as typed).
  const { url, description, events, enabled } = values as z.input<typeof webhookEndpointSchema>;
  return { url, description, events, enabled };
};

/** The endpoint form, shared by create and edit; the server's refusals (a private address) land under the field. */
export const WebhookForm = ({ toolbar }: { toolbar?: ReactElement | false }) => {
  const { save } = useSaveContext();
  const onSubmit = async (values: FieldValues) => formErrorsFrom(await save?.(editable(values)));
  return (
    <SimpleForm
      resolver={resolver}
      onSubmit={onSubmit}
      toolbar={toolbar}
      defaultValues={WEBHOOK_DEFAULTS}
      disableInvalidFormNotification
      noValidate
      sx={{ maxWidth: 720 }}
    >
      <TextInput
        source="url"
        label="Endpoint URL"
        helperText="An https:// address reachable from the internet. Private and loopback addresses are refused."
        slotProps={{ htmlInput: { inputMode: 'url', spellCheck: false } }}
      />
      <TextInput source="description" label="Description" helperText="What receives these events (optional)." />
      <CheckboxGroupInput source="events" label="Events" choices={eventChoices} row={false} />
      <BooleanInput source="enabled" label="Enabled" helperText="A disabled endpoint receives nothing; its queued deliveries fail." />
    </SimpleForm>
  );
};
