import { useMemo, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import PlayCircleIcon from '@mui/icons-material/PlayCircle';
import ClosedCaptionIcon from '@mui/icons-material/ClosedCaption';
import { PROVIDER_LABELS, videoLength, type VideoResource } from '@branchify/shared';
import { api, errorMessage } from '../../shared/api';
import { keys } from '../../shared/data/keys';
import { useApiMutation } from '../../shared/data/mutations';
import { useVideoPages } from '../../shared/data/queries';
import { useCustomization } from '../../shared/customization';
import { useQuickNotice } from '../../shared/dialogs';
import { SearchField } from '../../shared/inputs/SearchField';
import { IconAction } from '../../shared/IconAction';
import { Loader } from '../../shared/Loader';
import { useModals } from '../../shared/modals';
import { useDebounced } from '../../shared/useDebounced';
import { usePageTitle } from '../../shared/usePageTitle';
import { useInfiniteScroll } from '../../shared/useInfiniteScroll';
import { PageHeader } from '../layout/UserLayout';
import { CreateVideoModal } from './CreateVideoModal';
import { EditVideoTitleModal, PreviewVideoModal, VideoCaptionsModal } from './VideoModals';
import { VideoPoster } from '../../shared/VideoPoster';

/** Library search and scroll paging are debounced by 500 ms. */
const LIBRARY_DEBOUNCE_MS = 500;

/** What the library's cards do: add a video, edit its title, preview it, delete it (after a confirmation). */
const useLibraryActions = () => {
  const modals = useModals();
  const notice = useQuickNotice();
  const removal = useApiMutation({ mutationFn: (video: VideoResource) => api.delete(`videos/${video.id}`), invalidates: [keys.videos.all, keys.funnels.all] });
  const openCreate = () => modals.open({ name: 'create-video', title: 'Add Video', maxWidth: 'md', render: ({ close }) => <CreateVideoModal close={close} /> });
  const openEdit = (video: VideoResource) =>
    modals.open({
      name: 'edit-video-title',
      title: 'Edit Video Title',
      render: ({ close }) => <EditVideoTitleModal video={video} close={close} />,
    });
  const openPreview = (video: VideoResource) =>
    modals.open({ name: 'preview-video', title: video.title, maxWidth: 'md', render: ({ close }) => <PreviewVideoModal video={video} close={close} /> });
  const openCaptions = (video: VideoResource) =>
    modals.open({
      name: 'video-captions',
      title: `Captions: ${video.title}`,
      maxWidth: 'md',
      render: ({ close }) => <VideoCaptionsModal video={video} close={close} />,
    });
  const remove = (video: VideoResource) =>
    notice({
      header: 'Delete video',
      message: `Delete '${video.title}' from your library?`,
      confirmText: 'Delete',
      danger: true,
      onConfirm: async () => {
        await removal.mutateAsync(video);
      },
    });
  return { openCreate, openEdit, openPreview, openCaptions, remove };
};

type VideoActions = Omit<ReturnType<typeof useLibraryActions>, 'openCreate'>;

/** A library video: its poster (click to preview), title, provider, length and use, edit and delete. */
const VideoCard = ({ video: v, actions }: { video: VideoResource; actions: VideoActions }) => (
  <Card data-testid="video-card">
    <VideoPoster video={v}>
      {/* Over the poster, so the button's name is the video's alone. */}
      <CardActionArea
        onClick={() => actions.openPreview(v)}
        aria-label={`Preview ${v.title}`}
        sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center' }}
      >
        <PlayCircleIcon sx={{ color: 'common.white', fontSize: 48, opacity: 0.85 }} />
      </CardActionArea>
    </VideoPoster>
    <CardContent sx={{ pb: 0 }}>
      <Typography style={{ fontWeight: 600 }} noWrap title={v.title}>
        {v.title}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mt: 0.5 }}>
        <Chip size="small" label={PROVIDER_LABELS[v.provider] ?? v.provider} />
        <Typography variant="caption" color="text.secondary">
          {videoLength(v.duration)} {v.total_funnels ? `· in ${v.total_funnels} funnel${v.total_funnels > 1 ? 's' : ''}` : ''}
        </Typography>
      </Box>
    </CardContent>
    <CardActions sx={{ justifyContent: 'flex-end' }}>
      {v.captions?.length ? <Chip size="small" label={`Captions: ${v.captions.length}`} sx={{ mr: 'auto' }} /> : null}
      <IconAction title="Captions" label={`Captions of ${v.title}`} onClick={() => actions.openCaptions(v)}>
        <ClosedCaptionIcon />
      </IconAction>
      <IconAction title="Edit title" label={`Edit title of ${v.title}`} onClick={() => actions.openEdit(v)}>
        <EditIcon />
      </IconAction>
      <IconAction title="Delete" label={`Delete ${v.title}`} onClick={() => actions.remove(v)}>
        <DeleteIcon />
      </IconAction>
    </CardActions>
  </Card>
);

export const LibraryPage = () => {
  const { customization } = useCustomization();
  usePageTitle('Library', customization.app_name);
  const [search, setSearch] = useState('');
  const term = useDebounced(search, LIBRARY_DEBOUNCE_MS);
  const pages = useVideoPages(term);
  const videos = useMemo(() => pages.data?.pages.flatMap((p) => p.data) ?? [], [pages.data]);
  const sentinel = useRef<HTMLDivElement>(null);
  useInfiniteScroll(sentinel, pages, LIBRARY_DEBOUNCE_MS);
  const actions = useLibraryActions();
  const loading = pages.isFetching && !pages.isRefetching;

  return (
    <>
      <PageHeader title="Library">
        <SearchField margin="none" fullWidth={false} label="Search videos" value={search} onChange={setSearch} />
        <Button variant="contained" startIcon={<AddIcon />} onClick={actions.openCreate}>
          Add Video
        </Button>
      </PageHeader>
      {pages.isSuccess && videos.length === 0 && (
        <Paper sx={{ p: 6, textAlign: 'center' }} data-testid="library-empty">
          <Typography variant="h6">{term ? 'No videos match your search.' : 'Your library is empty. Add your first video.'}</Typography>
        </Paper>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: 2 }}>
        {videos.map((v) => (
          <VideoCard key={v.id} video={v} actions={actions} />
        ))}
      </Box>
      <div ref={sentinel} style={{ height: 1 }} />
      {loading && (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 3 }}>
          <CircularProgress aria-label="Loading videos" />
        </Box>
      )}
      {pages.isError && <Loader error={errorMessage(pages.error)} onRetry={() => void (pages.data ? pages.fetchNextPage() : pages.refetch())} />}
    </>
  );
};
