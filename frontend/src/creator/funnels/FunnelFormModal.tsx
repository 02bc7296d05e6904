import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import { funnelCreateSchema, MESSAGES, type FunnelSummaryResource } from '@branchify/shared';
import { api } from '../../shared/api';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { FormTextArea, FormTextInput, useApiForm } from '../../shared/form';
import { FormToggle } from '../../shared/form-toggle';

/**
 * create-funnel and update-funnel: title, description and the settings (resume play, search-engine
 * indexing; the editor's details have the same switches). Updating sends
 * no `videos`, so it can never replace the funnel's content.
 */
export const FunnelFormModal = ({
  funnel,
  close,
  onSaved,
}: {
  funnel?: FunnelSummaryResource;
  close: () => void;
  onSaved?: (funnel: FunnelSummaryResource) => void;
}) => {
  const form = useApiForm(funnelCreateSchema, {
    title: funnel?.title ?? '',
    description: funnel?.description ?? '',
    settings: { enable_resume_play: funnel?.settings?.enable_resume_play ?? false, allow_indexing: funnel?.settings?.allow_indexing ?? false },
  });
  const save = useApiMutation({
    mutationFn: (body: typeof funnelCreateSchema._zod.output) =>
      funnel ? api.put<FunnelSummaryResource>(`funnels/${funnel.id}`, body) : api.post<FunnelSummaryResource>('funnels', body),
    invalidates: [keys.funnels.all],
    onSuccess: (saved) => {
      close();
      onSaved?.(saved);
    },
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void form.submit(async (body) => void (await save.mutateAsync(body)))(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <FormTextInput control={form.control} name="title" label="Title" requiredMark autoFocus />
        <FormTextArea control={form.control} name="description" label="Description" rows={4} />
        <FormToggle control={form.control} name="settings.enable_resume_play" label="Let viewers resume where they left off" />
        <FormToggle control={form.control} name="settings.allow_indexing" label={MESSAGES.allowIndexingLabel} helperText={MESSAGES.allowIndexingHelp} />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={form.submitting}>
          {funnel ? 'Update' : 'Create'}
        </Button>
      </DialogActions>
    </Box>
  );
};
