import { useEffect, useMemo } from 'react';
import { useController, type UseFormReturn } from 'react-hook-form';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { FormTextArea, FormTextInput } from '../../shared/form';
import { ImageUpload } from '../../shared/inputs/ImageUpload';
import type { CustomizationForm } from './CustomizationPage';

/** Images chosen in the form, sent with the next Save (Discard drops them). */
export type PendingImages = Partial<Record<'app_logo' | 'app_favicon', File>>;

const IMAGES = [
  { field: 'app_logo', url: 'app_logo_url', label: 'Logo', hint: 'Shown in the sidebar and on the sign-in pages.' },
  { field: 'app_favicon', url: 'app_favicon_url', label: 'Favicon', hint: 'The icon of the browser tab; a square image works best.' },
] as const;

/**
 * A logo or favicon: checked in the browser with the upload rules (type and size) and shown at
 * once; it is stored with the form's Save (multipart) and dropped by "Discard changes". Remove
 * clears it on the next save.
 */
const ImageField = ({
  form,
  image,
  pending,
  onPending,
  maxKb,
}: {
  form: UseFormReturn<CustomizationForm>;
  image: (typeof IMAGES)[number];
  maxKb: number;
  pending: File | undefined;
  onPending: (file: File | undefined) => void;
}) => {
  const { field } = useController({ control: form.control, name: image.url });
  const value = field.value;
  // The chosen file's own preview, released when it is replaced, saved or discarded.
  const local = useMemo(() => (pending ? URL.createObjectURL(pending) : null), [pending]);
  useEffect(() => () => (local ? URL.revokeObjectURL(local) : undefined), [local]);
  const shown = local ?? value;
  return (
    <Box data-testid={`image-${image.field}`} sx={{ mb: 2 }}>
      <ImageUpload label={image.label} preview={shown} maxKb={maxKb} onFile={onPending} />
      <Typography variant="caption" color="text.secondary" component="p">
        {image.hint} PNG, JPG, WEBP or SVG.
      </Typography>
      {shown && (
        <Button
          size="small"
          color="error"
          sx={{ px: 0, minWidth: 0 }}
          onClick={() => {
            onPending(undefined);
            field.onChange(null);
          }}
        >
          Remove {image.label.toLowerCase()}
        </Button>
      )}
    </Box>
  );
};

export const BrandingFields = ({
  form,
  pending,
  onPending,
  maxKb,
}: {
  form: UseFormReturn<CustomizationForm>;
  /** The server's limit for a logo or favicon (IMAGE_UPLOAD_MAX_KB). */
  maxKb: number;
  pending: PendingImages;
  onPending: (images: PendingImages) => void;
}) => {
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
          helperText="Where users get help (the user sidebar's Help link; Choose a plan when no plan is offered): an http(s) page or a mailto: address."
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        {IMAGES.map((image) => (
          <ImageField
            key={image.field}
            form={form}
            image={image}
            pending={pending[image.field]}
            maxKb={maxKb}
            onPending={(file) => onPending({ ...pending, [image.field]: file })}
          />
        ))}
      </Grid>
    </Grid>
  );
};
