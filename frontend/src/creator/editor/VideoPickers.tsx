import { useMemo, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import Typography from '@mui/material/Typography';
import { PROVIDER_LABELS, type VideoResource } from '@branchify/shared';
import { errorMessage } from '../../shared/api';
import { useVideoPages } from '../../shared/data/queries';
import { SearchField } from '../../shared/inputs/SearchField';
import { Loader } from '../../shared/Loader';
import { useDebounced } from '../../shared/useDebounced';
import { useInfiniteScroll } from '../../shared/useInfiniteScroll';
import type { EditorVideo } from './document-store';
import { formatTimecode } from './timeline-math';
import { VideoPoster, type PosterVideo } from '../../shared/VideoPoster';

/** Search and scroll paging in the picker wait 500 ms. */
const PICKER_DEBOUNCE_MS = 500;

const Thumb = ({ video }: { video: PosterVideo | null }) => <VideoPoster video={video} sx={{ borderRadius: 1 }} />;

/** The picked videos by id, in the order picked; `toggle` picks or unpicks one. */
const usePicked = () => {
  const [picked, setPicked] = useState<Map<number, VideoResource>>(new Map());
  const toggle = (video: VideoResource) =>
    setPicked((old) => {
      const next = new Map(old);
      if (next.has(video.id)) next.delete(video.id);
      else next.set(video.id, video);
      return next;
    });
  return { picked, toggle };
};

/** A library video in the picker: a click anywhere on it (or its checkbox) picks or unpicks it. */
const PickableVideo = ({ video, checked, toggle }: { video: VideoResource; checked: boolean; toggle: (video: VideoResource) => void }) => (
  <Box
    role="listitem"
    data-testid="picker-video"
    sx={{ border: 2, borderColor: checked ? 'primary.main' : 'transparent', borderRadius: 1.5, p: 0.5, cursor: 'pointer' }}
    onClick={() => toggle(video)}
  >
    <Thumb video={video} />
    <Box sx={{ display: 'flex', alignItems: 'center' }}>
      <Checkbox
        size="small"
        checked={checked}
        onClick={(e) => e.stopPropagation()}
        onChange={() => toggle(video)}
        slotProps={{ input: { 'aria-label': `Select ${video.title}` } }}
      />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" noWrap title={video.title} sx={{ fontWeight: 600 }}>
          {video.title}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {PROVIDER_LABELS[video.provider]}
          {video.duration ? ` · ${formatTimecode(video.duration)}` : ''}
        </Typography>
      </Box>
    </Box>
  </Box>
);

/** How many are picked, Cancel, and 'Add selected video' (at least one). */
const PickerActions = ({
  picked,
  onAdd,
  close,
}: {
  picked: ReadonlyMap<number, VideoResource>;
  onAdd: (videos: VideoResource[]) => void;
  close: () => void;
}) => (
  <DialogActions>
    <Typography variant="body2" color="text.secondary" sx={{ mr: 'auto', pl: 2 }} aria-live="polite">
      {picked.size ? `${picked.size} selected` : 'Select at least one video'}
    </Typography>
    <Button onClick={close}>Cancel</Button>
    <Button
      variant="contained"
      disabled={picked.size === 0}
      onClick={() => {
        onAdd([...picked.values()]);
        close();
      }}
    >
      Add selected video
    </Button>
  </DialogActions>
);

/**
 * video-to-funnel ('Select Video'): the library with search (500 ms debounce) and infinite scroll
 * that stops after the last page; several videos can be picked, and 'Add selected video' needs at
 * least one.
 */
export const VideoToFunnelModal = ({ onAdd, close }: { onAdd: (videos: VideoResource[]) => void; close: () => void }) => {
  const [search, setSearch] = useState('');
  const term = useDebounced(search, PICKER_DEBOUNCE_MS);
  const pages = useVideoPages(term);
  const videos = useMemo(() => pages.data?.pages.flatMap((p) => p.data) ?? [], [pages.data]);
  const { picked, toggle } = usePicked();
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  useInfiniteScroll(sentinel, pages, PICKER_DEBOUNCE_MS, scroller);
  return (
    <>
      <DialogContent sx={{ pt: 0 }} ref={scroller}>
        <SearchField label="Search videos" value={search} onChange={setSearch} autoFocus />
        {pages.isSuccess && videos.length === 0 && (
          <Typography sx={{ py: 4, textAlign: 'center' }} data-testid="picker-empty">
            {term ? 'No videos match your search.' : 'Your library is empty. Add videos in the Library first.'}
          </Typography>
        )}
        <Box role="list" aria-label="Library videos" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 1.5, mt: 1 }}>
          {videos.map((video) => (
            <PickableVideo key={video.id} video={video} checked={picked.has(video.id)} toggle={toggle} />
          ))}
        </Box>
        <div ref={sentinel} style={{ height: 1 }} />
        {pages.isFetching && (
          <Box sx={{ display: 'grid', placeItems: 'center', py: 2 }}>
            <CircularProgress size={28} aria-label="Loading videos" />
          </Box>
        )}
        {pages.isError && <Loader error={errorMessage(pages.error)} onRetry={() => void (pages.data ? pages.fetchNextPage() : pages.refetch())} />}
      </DialogContent>
      <PickerActions picked={picked} onAdd={onAdd} close={close} />
    </>
  );
};

/** list-video ('Select Video'): the funnel's own videos as a grid, to pick where a branch goes. */
export const ListVideoModal = ({
  videos,
  selected,
  onPick,
}: {
  videos: readonly EditorVideo[];
  selected: string | null;
  onPick: (editorId: string) => void;
}) => (
  <DialogContent sx={{ pt: 0 }}>
    <Box role="list" aria-label="Funnel videos" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 1.5 }}>
      {videos.map((v, i) => (
        <Box role="listitem" key={v.editor_id}>
          <Button
            fullWidth
            onClick={() => onPick(v.editor_id)}
            aria-pressed={v.editor_id === selected}
            sx={{ display: 'block', textAlign: 'left', p: 0.5, border: 2, borderColor: v.editor_id === selected ? 'primary.main' : 'transparent' }}
          >
            <Thumb video={v.video} />
            <Typography variant="body2" noWrap sx={{ mt: 0.5 }}>
              {v.video?.title ?? `Video ${i + 1} (removed from the library)`}
            </Typography>
          </Button>
        </Box>
      ))}
    </Box>
  </DialogContent>
);
