import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import { api } from '../../shared/api';
import { useAlert } from '../../shared/alerts';
import { useForm } from '../../shared/forms';
import { TextInput } from '../../shared/inputs';
import type { Video } from '../../shared/types';
import { VideoPreview } from './VideoPreview';

/** edit-video-title: only the title of a library video changes. */
export const EditVideoTitleModal = ({ video, close, onSaved }: { video: Video; close: () => void; onSaved: () => void }) => {
  const alert = useAlert();
  const form = useForm({ title: video.title });
  const onSubmit = form.submit(async (v) => {
    const res = await api.put(`videos/${video.id}`, { title: v.title });
    alert.success(res.message ?? '');
    close();
    onSaved();
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
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={form.submitting}>
          Save
        </Button>
      </DialogActions>
    </Box>
  );
};

/** preview-video: the library video in its player. */
export const PreviewVideoModal = ({ video, close }: { video: Video; close: () => void }) => (
  <>
    <DialogContent sx={{ pt: 0 }}>
      <VideoPreview
        provider={video.provider}
        embedUrl={video.embed_url}
        externalId={video.external_id}
        sourceUrl={video.source_url}
        title={video.title}
        thumbnail={video.thumbnail}
        autoPlay
      />
    </DialogContent>
    <DialogActions>
      <Button onClick={close}>Close</Button>
    </DialogActions>
  </>
);
