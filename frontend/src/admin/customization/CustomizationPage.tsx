import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useWatch, type Control, type DefaultValues } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { useWarnWhenUnsavedChanges } from 'react-admin';
import { AdminTitle } from '../layout/AdminTitle';
import { useStickyTop } from '../layout/stickyTop';
import type { z } from 'zod';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { customizationSchemaFor, type AdminCustomizationResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { useApiForm } from '../../shared/form';
import { Loaded } from '../../shared/Loader';
import { BrandingFields, type PendingImages } from './BrandingFields';
import { ColorSchemeFields } from './ColorSchemeFields';
import { EmailTemplateEditor } from './EmailTemplateEditor';
import { customizationKeys, useAdminCustomization } from './queries';
import { catalogueOf } from './templates';
import { ThemePreview } from './ThemePreview';
import { SETUP_STATUS_KEY } from '../setup/useSetupStatus';

/** The form holds the record as served (derived and read-only fields included): the API takes it back whole. */
export type CustomizationForm = z.input<ReturnType<typeof customizationSchemaFor>>;

/** What a multipart save sends besides the images (the rest of the record is read-only). */
const SENT_FIELDS = ['app_name', 'app_description', 'app_logo_url', 'app_favicon_url', 'app_support_url', 'app_color_scheme', 'app_email_templates'] as const;

const Section = ({ id, title, intro, children }: { id: string; title: string; intro: string; children: ReactNode }) => (
  <Paper component="section" aria-labelledby={id} variant="outlined" sx={{ p: { xs: 2, md: 3 }, mb: 3 }}>
    <Typography id={id} variant="h6" component="h2">
      {title}
    </Typography>
    <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
      {intro}
    </Typography>
    {children}
  </Paper>
);

/** The record as JSON, or with chosen images as multipart (objects as JSON text, null as empty). */
const bodyOf = (values: CustomizationForm, pending: PendingImages): unknown => {
  if (!Object.values(pending).some(Boolean)) return values;
  const body = new FormData();
  for (const key of SENT_FIELDS) {
    const value = values[key];
    if (value === undefined) continue;
    body.append(key, value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  for (const [field, file] of Object.entries(pending)) if (file) body.append(field, file);
  return body;
};

/** A chosen logo file as an object URL for the preview, released when it changes or the page closes. */
const usePendingLogo = (file: File | undefined): string | null => {
  const pendingLogo = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (pendingLogo ? URL.revokeObjectURL(pendingLogo) : undefined), [pendingLogo]);
  return pendingLogo;
};

/** The bar kept in sight above the sections: unsaved-changes note, Discard and Save. */
const SaveBar = ({ isDirty, submitting, discard }: { isDirty: boolean; submitting: boolean; discard: () => void }) => {
  const stickyTop = useStickyTop();
  return (
    <Box
      sx={{
        ...stickyTop,
        zIndex: 2,
        display: 'flex',
        justifyContent: 'flex-end',
        alignItems: 'center',
        gap: 1,
        py: 1,
        mb: 2,
        bgcolor: 'background.default',
        borderBottom: '1px solid',
        borderColor: 'divider',
      }}
    >
      {isDirty && (
        <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto' }} role="status">
          You have unsaved changes.
        </Typography>
      )}
      <Button onClick={discard} disabled={!isDirty || submitting}>
        Discard changes
      </Button>
      <Button type="submit" variant="contained" disabled={submitting}>
        Save
      </Button>
    </Box>
  );
};

const CustomizationEditor = ({ record }: { record: AdminCustomizationResource }) => {
  const schema = useMemo(() => customizationSchemaFor(catalogueOf(record.app_email_templates)), [record.app_email_templates]);
  const form = useApiForm(schema, record as DefaultValues<CustomizationForm>);
  const client = useQueryClient();
  const [pending, setPending] = useState<PendingImages>({});
  const hasPending = Object.values(pending).some(Boolean);
  useWarnWhenUnsavedChanges(true, '/admin/app-customization', form.control as unknown as Control);
  const save = useApiMutation({
    mutationFn: (body: unknown) => api.post<AdminCustomizationResource>('admin/customizations', body),
    // The app's branding (theme, favicon, name) and the setup checklist's "Brand the app" follow
    // at once, without a reload.
    invalidates: [keys.customization, SETUP_STATUS_KEY],
    onSuccess: (saved) => {
      client.setQueryData(customizationKeys.admin, saved);
      form.reset(saved);
      setPending({});
    },
  });
  const discard = () => {
    form.reset();
    setPending({});
  };
  const pendingLogo = usePendingLogo(pending.app_logo);
  const scheme = useWatch({ control: form.control, name: 'app_color_scheme' }) ?? {};
  const appName = useWatch({ control: form.control, name: 'app_name' }) ?? '';
  const logoUrl = useWatch({ control: form.control, name: 'app_logo_url' }) ?? null;
  const { submitCount } = form.formState;
  const isDirty = form.formState.isDirty || hasPending;

  // A refusal in a field out of sight (a closed section's error) still gets seen: go to the first error.
  useEffect(() => {
    if (!submitCount) return;
    const invalid = document.querySelector('[aria-invalid="true"]');
    invalid?.scrollIntoView({ block: 'center' });
  }, [submitCount]);

  return (
    <Box
      component="form"
      noValidate
      aria-label="App customization"
      // The whole record goes back, as react-admin would send it; the server ignores what it derives.
      onSubmit={(event) => void form.submit(async () => void (await save.mutateAsync(bodyOf(form.getValues(), pending))))(event)}
    >
      <SaveBar isDirty={isDirty} submitting={form.submitting} discard={discard} />
      <Section id="branding-title" title="Branding" intro="The name, description and images your users see.">
        <BrandingFields form={form} pending={pending} onPending={setPending} maxKb={record.image_upload_max_kb} />
      </Section>
      <Section id="colors-title" title="Colour scheme" intro="The app's colours. The preview shows them before you save.">
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, lg: 7 }}>
            <ColorSchemeFields control={form.control} />
          </Grid>
          <Grid size={{ xs: 12, lg: 5 }}>
            <ThemePreview scheme={scheme} appName={appName} logoUrl={pendingLogo ?? logoUrl} />
          </Grid>
        </Grid>
      </Section>
      <Section
        id="templates-title"
        title="Email templates"
        intro="The mails the app sends. Placeholders such as {{first_name}} are replaced for each recipient; values are escaped, so they show as text."
      >
        <EmailTemplateEditor form={form} templates={record.app_email_templates} />
      </Section>
    </Box>
  );
};

/** App Customizations (/admin/app-customization): branding, colours with a live preview, mail templates. */
export const CustomizationPage = () => {
  const query = useAdminCustomization();
  return (
    <Box sx={{ py: 2, maxWidth: 1280 }}>
      <AdminTitle title="App Customizations" />
      <Typography variant="h5" component="h1">
        App Customizations
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        How your app looks and what its mails say.
      </Typography>
      <Loaded query={query}>{(record) => <CustomizationEditor record={record} />}</Loaded>
    </Box>
  );
};
