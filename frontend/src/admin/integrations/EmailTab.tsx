import { useState } from 'react';
import { Controller, type Control, type DefaultValues } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { mailerSchema } from '@branchify/shared';
import type { z } from 'zod';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { applyFieldErrors, FormPasswordInput, FormTextInput, useApiForm } from '../../shared/form';
import { formatDate } from '../../shared/format';
import { SelectInput } from '../../shared/inputs/SelectInput';
import { StatusBadge } from '../../shared/inputs/StatusBadge';
import { Loaded } from '../../shared/Loader';
import { SETUP_STATUS_KEY } from '../setup/useSetupStatus';
import { integrationKeys, useMailerSettings, type MailerSettings } from './queries';

const ENCRYPTIONS = [
  { label: 'None', value: 'none' },
  { label: 'SSL/TLS (usually port 465)', value: 'ssl' },
  { label: 'STARTTLS (usually port 587)', value: 'tls' },
];

type MailerForm = z.input<typeof mailerSchema>;

/** A masked password is replaced as a whole: focusing it selects it, so typing overwrites it. */
const selectMask = (has: boolean) => (event: React.FocusEvent<HTMLInputElement | HTMLTextAreaElement>) => {
  if (has) event.target.select();
};

/** The SMTP settings: server, login and sender. */
const MailerFields = ({ control, hasPassword }: { control: Control<MailerForm, unknown, z.output<typeof mailerSchema>>; hasPassword: boolean }) => (
  <Grid container columnSpacing={2}>
    <Grid size={{ xs: 12, sm: 8 }}>
      <FormTextInput control={control} name="host" label="SMTP host" requiredMark placeholder="smtp.example.com" autoComplete="off" />
    </Grid>
    <Grid size={{ xs: 12, sm: 4 }}>
      <FormTextInput control={control} name="port" label="Port" requiredMark type="number" slotProps={{ htmlInput: { min: 1, max: 65535 } }} />
    </Grid>
    <Grid size={{ xs: 12, sm: 6 }}>
      <Controller
        control={control}
        name="encryption"
        render={({ field, fieldState }) => (
          <SelectInput
            name="encryption"
            label="Encryption"
            value={(field.value as string | null | undefined) || 'none'}
            options={ENCRYPTIONS}
            onChange={field.onChange}
            error={fieldState.error?.message}
          />
        )}
      />
    </Grid>
    <Grid size={{ xs: 12, sm: 6 }} />
    <Grid size={{ xs: 12, sm: 6 }}>
      <FormTextInput control={control} name="username" label="Username" autoComplete="off" helperText="Leave empty when the server needs no login." />
    </Grid>
    <Grid size={{ xs: 12, sm: 6 }}>
      <FormPasswordInput
        control={control}
        name="password"
        label="Password"
        autoComplete="new-password"
        onFocus={selectMask(hasPassword)}
        helperText={hasPassword ? 'Saved. Leave the masked value to keep it, or type a new password.' : undefined}
      />
    </Grid>
    <Grid size={{ xs: 12, sm: 6 }}>
      <FormTextInput control={control} name="from_address" label="From address" requiredMark type="email" placeholder="no-reply@example.com" />
    </Grid>
    <Grid size={{ xs: 12, sm: 6 }}>
      <FormTextInput control={control} name="from_name" label="From name" />
    </Grid>
  </Grid>
);

const MailerPanel = ({ settings }: { settings: MailerSettings }) => {
  const client = useQueryClient();
  const alert = useAlert();
  const form = useApiForm(mailerSchema, settings as unknown as DefaultValues<MailerForm>);
  const [verifying, setVerifying] = useState(false);
  const save = useApiMutation({
    mutationFn: (body: unknown) => api.put<MailerSettings>('admin/mailer', body),
    // The mail banner reads the public customization's `mailer_configured`; the checklist has an email step.
    invalidates: [keys.customization, SETUP_STATUS_KEY],
    onSuccess: (saved) => {
      client.setQueryData(integrationKeys.mailer, saved);
      form.reset(saved as unknown as DefaultValues<MailerForm>);
    },
  });
  const verify = async () => {
    setVerifying(true);
    try {
      const res = await api.post<MailerSettings>('admin/mailer/verify');
      client.setQueryData(integrationKeys.mailer, res.data);
      alert.success(res.message ?? '');
      // The checklist's email step reads the mailer's state: read it again now, not on the next reload.
      await client.invalidateQueries({ queryKey: SETUP_STATUS_KEY });
    } catch (error) {
      applyFieldErrors(form, error);
      alert.error(error);
    } finally {
      setVerifying(false);
    }
  };
  const { control, formState } = form;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h6" component="h2">
        Transactional email
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        The SMTP server that sends verification links, password resets and account notices.
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 1 }} data-testid="mailer-status">
        <StatusBadge status={settings.configured ? 'active' : 'inactive'} label={settings.configured ? 'Configured' : 'Not configured'} />
        <StatusBadge
          status={settings.verified_at ? 'active' : 'inactive'}
          label={settings.verified_at ? `Verified ${formatDate(settings.verified_at)}` : 'Not verified'}
        />
      </Box>
      {/* The record goes back as served: the masked password means "keep the saved one". */}
      <Box
        component="form"
        noValidate
        aria-label="Transactional email"
        onSubmit={(event) => void form.submit(async () => void (await save.mutateAsync(form.getValues())))(event)}
      >
        <MailerFields control={control} hasPassword={settings.has_password} />
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mt: 2 }}>
          <Button type="submit" variant="contained" disabled={form.submitting}>
            Save
          </Button>
          <Button variant="outlined" onClick={() => void verify()} disabled={verifying || formState.isDirty || !settings.configured}>
            {verifying ? 'Verifying...' : 'Verify'}
          </Button>
          <Typography variant="body2" color="text.secondary" role="status">
            {formState.isDirty
              ? 'Save your changes, then verify them.'
              : settings.configured
                ? 'Verify connects to the server with the saved settings and logs in.'
                : ''}
          </Typography>
        </Box>
      </Box>
    </Paper>
  );
};

/** Integrations, tab 1: the transactional mailer (SMTP) and its verification. */
export const EmailTab = () => {
  const settings = useMailerSettings();
  return <Loaded query={settings}>{(data) => <MailerPanel settings={data} />}</Loaded>;
};
