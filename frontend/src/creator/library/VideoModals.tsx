import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import { api } from '../../shared/api';
import { updateVideoSchema, type VideoResource } from '@branchify/shared';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { FormTextInput, useApiForm } from '../../shared/form';
import { VideoPreview } from './VideoPreview';
import { FormDialogActions } from '../../shared/FormDialogActions';
import { CaptionsSection, useCaptionTracks } from './CaptionsSection';

/** edit-video-title: only the title of a library video changes. */
export const EditVideoTitleModal = ({ video, close }: { video: VideoResource; close: () => void }) => {
  const form = useApiForm(updateVideoSchema, { title: video.title });
  const save = useApiMutation({
    mutationFn: (body: { title: string }) => api.put(`videos/${video.id}`, body),
    invalidates: [keys.videos.all],
    onSuccess: close,
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void form.submit(async (body) => void (await save.mutateAsync(body)))(event)}>
      <DialogContent sx={{ pt: 0 }}>
        <FormTextInput control={form.control} name="title" label="Title" requiredMark autoFocus />
      </DialogContent>
      <FormDialogActions onCancel={close} label="Save" disabled={form.submitting} />
    </Box>
  );
};

/** preview-video: the library video in its player. */
export const PreviewVideoModal = ({ video, close }: { video: VideoResource; close: () => void }) => (
  <>
    <DialogContent sx={{ pt: 0 }}>
      <VideoPreview
        provider={video.provider}
        embedUrl={video.embed_url}
        externalId={video.external_id}
        sourceUrl={video.source_url}
        title={video.title}
        thumbnail={video.thumbnail}
        captions={video.captions}
        autoPlay
      />
    </DialogContent>
    <DialogActions>
      <Button onClick={close}>Close</Button>
    </DialogActions>
  </>
);

/** video-captions: its Captions section (the upload form in view as it opens), then the video in its player with its captions. */
export const VideoCaptionsModal = ({ video, close }: { video: VideoResource; close: () => void }) => {
  const tracks = useCaptionTracks(video);
  return (
    <>
      <DialogContent sx={{ pt: 0 }}>
        <CaptionsSection video={video} />
        <Box sx={{ mt: 3 }}>
          <VideoPreview
            provider={video.provider}
            embedUrl={video.embed_url}
            externalId={video.external_id}
            sourceUrl={video.source_url}
            title={video.title}
            thumbnail={video.thumbnail}
            captions={tracks.data}
          />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Close</Button>
      </DialogActions>
    </>
  );
};
