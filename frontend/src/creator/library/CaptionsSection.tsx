import { useId, useRef, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useQuery } from '@tanstack/react-query';
import {
  CAPTION_FILE_FIELD,
  CAPTION_LIMITS,
  MESSAGES,
  captionFormat,
  captionTrackSchema,
  messageTemplates,
  type CaptionTrackInput,
  type CaptionTrackResource,
  type VideoResource,
} from '@branchify/shared';
import { api, errorMessage, fieldErrorsOf } from '../../shared/api';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { useQuickNotice } from '../../shared/dialogs';
import { FormTextInput, useApiForm } from '../../shared/form';
import { IconAction } from '../../shared/IconAction';
import { Loader } from '../../shared/Loader';
import { VISUALLY_HIDDEN } from '../../shared/visually-hidden';

/** A video's caption tracks, read fresh (uploads and deletes invalidate every video query). */
export const useCaptionTracks = (video: VideoResource) =>
  useQuery({
    queryKey: [...keys.videos.all, 'captions', video.id],
    queryFn: async () => (await api.get<CaptionTrackResource[]>(`videos/${video.id}/captions`)).data,
    initialData: video.captions,
  });

/** The chosen file: its button (the input itself is hidden and out of the tab order), its name and its error. */
const CaptionFile = ({ file, error, busy, onChoose }: { file: File | null; error: string | null; busy: boolean; onChoose: (file: File | null) => void }) => {
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const nameId = useId();
  return (
    <Box sx={{ mt: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<UploadFileIcon />}
          disabled={busy}
          onClick={() => input.current?.click()}
          color={error ? 'error' : 'primary'}
          aria-describedby={`${nameId}${error ? ` ${errorId}` : ''}`}
        >
          {file ? 'Choose another caption file' : 'Choose caption file'}
        </Button>
        <input
          ref={input}
          type="file"
          accept=".vtt,.srt,text/vtt"
          style={VISUALLY_HIDDEN}
          tabIndex={-1}
          aria-hidden
          disabled={busy}
          onChange={(e: ChangeEvent<HTMLInputElement>) => {
            onChoose(e.currentTarget.files?.[0] ?? null);
            e.currentTarget.value = '';
          }}
        />
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }} id={nameId} data-testid="caption-file-name">
          {file ? file.name : `No file chosen (.vtt or .srt, up to ${CAPTION_LIMITS.maxFileKb} KB)`}
        </Typography>
      </Box>
      {error && (
        <FormHelperText error id={errorId} role="alert" data-testid="caption-file-error" sx={{ mx: 0 }}>
          {error}
        </FormHelperText>
      )}
    </Box>
  );
};

/** Checks what the browser can see before sending: the kind of file and its size. */
const fileProblem = (file: File | null): string | null => {
  if (!file) return MESSAGES.captionFileRequired;
  if (!captionFormat(file.name)) return MESSAGES.captionFileType;
  if (file.size > CAPTION_LIMITS.maxFileKb * 1024) return messageTemplates.captionFileTooLarge(CAPTION_LIMITS.maxFileKb);
  return null;
};

/** Upload: language code, label and a .vtt or .srt file; errors under their fields (a file's names its line). */
const UploadForm = ({ video, full }: { video: VideoResource; full: boolean }) => {
  const form = useApiForm(captionTrackSchema, { language: '', label: '' });
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const upload = useApiMutation({
    mutationFn: (input: CaptionTrackInput & { file: File }) => {
      const body = new FormData();
      body.append('language', input.language);
      body.append('label', input.label);
      body.append(CAPTION_FILE_FIELD, input.file);
      return api.post<CaptionTrackResource>(`videos/${video.id}/captions`, body);
    },
    invalidates: [keys.videos.all, keys.funnels.all],
  });
  const submit = form.submit(async (values) => {
    const problem = fileProblem(file);
    setFileError(problem);
    if (problem) return;
    try {
      await upload.mutateAsync({ ...values, file: file! });
    } catch (error) {
      setFileError(fieldErrorsOf(error)[CAPTION_FILE_FIELD]?.[0] ?? null);
      throw error;
    }
    form.reset({ language: '', label: '' });
    setFile(null);
  });
  const busy = form.submitting || upload.isPending;
  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="captions-upload-heading" data-testid="caption-upload">
      <Typography variant="subtitle2" component="h4" id="captions-upload-heading" sx={{ mt: 2 }}>
        Add a caption track
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 2fr' }, columnGap: 2 }}>
        <FormTextInput control={form.control} name="language" label="Language code" requiredMark helperText="For example en, fr or pt-BR" autoComplete="off" />
        <FormTextInput control={form.control} name="label" label="Label" requiredMark helperText="What viewers pick, for example English" autoComplete="off" />
      </Box>
      <CaptionFile
        file={file}
        error={fileError}
        busy={busy}
        onChoose={(chosen) => {
          setFile(chosen);
          setFileError(chosen ? fileProblem(chosen) : null);
        }}
      />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', mt: 2, flexWrap: 'wrap' }}>
        <Button type="submit" variant="contained" disabled={busy || full}>
          Upload captions
        </Button>
        {busy && <CircularProgress size={20} aria-label="Uploading captions" />}
        {full && (
          <Typography variant="body2" color="text.secondary">
            {messageTemplates.captionTracksFull(CAPTION_LIMITS.maxTracksPerVideo)}
          </Typography>
        )}
      </Box>
    </Box>
  );
};

/**
 * A library video's captions: the upload form, then its WebVTT tracks (language, label, cues), each
 * deletable. SRT files are converted to WebVTT by the server.
 */
export const CaptionsSection = ({ video }: { video: VideoResource }) => {
  const tracks = useCaptionTracks(video);
  const notice = useQuickNotice();
  const removal = useApiMutation({
    mutationFn: (track: CaptionTrackResource) => api.delete(`videos/${video.id}/captions/${track.id}`),
    invalidates: [keys.videos.all, keys.funnels.all],
  });
  const remove = (track: CaptionTrackResource) =>
    notice({
      header: 'Delete caption track',
      message: `Delete the caption track '${track.label}' (${track.language})?`,
      confirmText: 'Delete',
      danger: true,
      onConfirm: async () => {
        await removal.mutateAsync(track);
      },
    });
  const list = tracks.data ?? [];
  return (
    <Box component="section" aria-labelledby="captions-heading" sx={{ mt: 2 }} data-testid="captions-section">
      <Typography variant="h6" component="h3" id="captions-heading">
        Captions
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Viewers turn captions on with the CC button in the player. Upload WebVTT (.vtt) or SubRip (.srt) files, one per language.
      </Typography>
      {/* The form first: it is what the dialog is opened for, in view without scrolling. */}
      <UploadForm video={video} full={list.length >= CAPTION_LIMITS.maxTracksPerVideo} />
      {tracks.isError && <Loader error={errorMessage(tracks.error)} onRetry={() => void tracks.refetch()} />}
      {list.length ? (
        <Box component="ul" aria-label="Caption tracks" data-testid="caption-tracks" sx={{ listStyle: 'none', p: 0, m: 0, mt: 2 }}>
          {list.map((track) => (
            <Box component="li" key={track.id} sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, borderBottom: 1, borderColor: 'divider' }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {track.label}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {track.language} · {track.cues} {track.cues === 1 ? 'cue' : 'cues'}
                </Typography>
              </Box>
              <IconAction title="Delete" label={`Delete caption track ${track.label}`} onClick={() => remove(track)}>
                <DeleteIcon />
              </IconAction>
            </Box>
          ))}
        </Box>
      ) : (
        tracks.isSuccess && (
          <Alert severity="info" sx={{ mt: 2 }}>
            This video has no captions yet.
          </Alert>
        )
      )}
    </Box>
  );
};
