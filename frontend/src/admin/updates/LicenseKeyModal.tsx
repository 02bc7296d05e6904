import Box from '@mui/material/Box';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import { licenseKeySchema } from '@branchify/shared';
import { api } from '../../shared/api';
import { useApiMutation } from '../../shared/data/mutations';
import { FormTextInput, useApiForm } from '../../shared/form';
import { updateKeys } from './queries';
import { FormDialogActions } from '../../shared/FormDialogActions';

/** save-purchase-token: the license key the update server knows this installation by. */
export const LicenseKeyModal = ({ close }: { close: () => void }) => {
  const form = useApiForm(licenseKeySchema, { license_key: '' });
  const save = useApiMutation({
    mutationFn: (body: unknown) => api.post('admin/updates/save-license-key', body),
    invalidates: [updateKeys.info],
    onSuccess: close,
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void form.submit(async (values) => void (await save.mutateAsync(values)))(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <Typography variant="body2" color="text.secondary">
          The license key from your purchase. It is stored encrypted and only ever sent to the update server.
        </Typography>
        <FormTextInput control={form.control} name="license_key" label="License key" requiredMark autoFocus autoComplete="off" />
      </DialogContent>
      <FormDialogActions onCancel={close} label="Save" disabled={form.submitting} />
    </Box>
  );
};
