import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useForm } from '../../shared/forms';
import { TextArea, TextInput, Toggle } from '../../shared/inputs';
import type { FunnelSummary } from '../../shared/types';

/**
 * create-funnel and update-funnel: title, description and the resume-play setting. Updating sends
 * no `videos`, so it can never replace the funnel's content (docs/decisions.md "Funnel saves").
 */
export const FunnelFormModal = ({ funnel, close, onSaved }: { funnel?: FunnelSummary; close: () => void; onSaved: (funnel: FunnelSummary) => void }) => {
  const alert = useAlert();
  const form = useForm({
    title: funnel?.title ?? '',
    description: funnel?.description ?? '',
    enable_resume_play: funnel?.settings?.enable_resume_play ?? false,
  });
  const onSubmit = form.submit(async (v) => {
    const body = { title: v.title, description: v.description, settings: { enable_resume_play: v.enable_resume_play } };
    const res = funnel ? await api.put<FunnelSummary>(`funnels/${funnel.id}`, body) : await api.post<FunnelSummary>('funnels', body);
    alert.success(res.message ?? '');
    close();
    onSaved(res.data);
  });
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <DialogContent sx={{ pt: 0 }}>
        <TextInput
          name="title"
          label="Title"
          value={form.values.title}
          onChange={(v) => form.set('title', v)}
          error={form.error('title')}
          requiredMark
          autoFocus
        />
        <TextArea
          name="description"
          label="Description"
          rows={4}
          value={form.values.description}
          onChange={(v) => form.set('description', v)}
          error={form.error('description')}
        />
        <Toggle
          name="enable_resume_play"
          label="Let viewers resume where they left off"
          checked={form.values.enable_resume_play}
          onChange={(v) => form.set('enable_resume_play', v)}
          error={form.error('settings.enable_resume_play')}
        />
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
