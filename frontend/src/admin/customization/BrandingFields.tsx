import { useState } from 'react';
import { useController, type UseFormReturn } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { AdminCustomizationResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { keys } from '../../shared/data/keys';
import { FormTextArea, FormTextInput } from '../../shared/form';
import { ImageUpload } from '../../shared/inputs';
import type { CustomizationForm } from './CustomizationPage';
import { customizationKeys } from './queries';

const IMAGES = [
  { field: 'app_logo', url: 'app_logo_url', label: 'Logo', hint: 'Shown in the sidebar and on the sign-in pages.' },
  { field: 'app_favicon', url: 'app_favicon_url', label: 'Favicon', hint: 'The icon of the browser tab; a square image works best.' },
] as const;

/**
 * A logo or favicon: checked in the browser with the upload rules (type and size), then stored
 * at once through POST admin/customizations/images; Remove clears it on the next save.
 */
const ImageField = ({ form, image }: { form: UseFormReturn<CustomizationForm>; image: (typeof IMAGES)[number] }) => {
  // A controlled field (not only watched), so resetField can make an upload its saved value.
  const { field } = useController({ control: form.control, name: image.url });
  const value = field.value as string | null | undefined;
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const client = useQueryClient();
  const upload = async (file: File) => {
    setBusy(true);
    try {
      const body = new FormData();
      body.append(image.field, file);
      const res = await api.post<AdminCustomizationResource>('admin/customizations/images', body);
      // Stored already: it becomes the field's saved value too, so "Discard changes" keeps it.
      form.resetField(image.url, { defaultValue: res.data[image.url] });
      client.setQueryData(customizationKeys.admin, res.data);
      alert.success(res.message ?? '');
      await client.invalidateQueries({ queryKey: keys.customization });
    } catch (error) {
      alert.error(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box data-testid={`image-${image.field}`} sx={{ mb: 2 }}>
      <ImageUpload label={image.label} preview={value} busy={busy} onFile={(file) => void upload(file)} />
      <Typography variant="caption" color="text.secondary" component="p">
        {image.hint} PNG, JPG, WEBP or SVG.
      </Typography>
      {value && (
        <Button size="small" color="error" sx={{ px: 0, minWidth: 0 }} onClick={() => field.onChange(null)}>
          Remove {image.label.toLowerCase()}
        </Button>
      )}
    </Box>
  );
};

export const BrandingFields = ({ form }: { form: UseFormReturn<CustomizationForm> }) => {
  const { control } = form;
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 6 }}>
        <FormTextInput control={control} name="app_name" label="App name" requiredMark />
        <FormTextArea control={control} name="app_description" label="Description" rows={3} />
        <FormTextInput
          control={control}
          name="app_support_url"
          label="Support URL"
          type="url"
          helperText="Where the Help link of the user sidebar goes: an http(s) page or a mailto: address."
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        {IMAGES.map((image) => (
          <ImageField key={image.field} form={form} image={image} />
        ))}
      </Grid>
    </Grid>
  );
};
