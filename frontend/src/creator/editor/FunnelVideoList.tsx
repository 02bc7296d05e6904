import { memo } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { branchTargets, rootVideo } from '@branchify/shared';
import { VideoPoster } from '../../shared/VideoPoster';
import { useStableHandlers } from '../../shared/useStableHandlers';
import type { EditorVideo } from './document-store';
import { formatTimecode } from './timeline-math';

/** The funnel's videos in order, which one viewers start with, and the map and add buttons above them. */
export const FunnelVideoList = ({
  videos,
  showMap,
  onToggleMap,
  onAdd,
  onEdit,
  onRemove,
  onMove,
}: {
  videos: readonly EditorVideo[];
  showMap: boolean;
  onToggleMap: () => void;
  onAdd: () => void;
  onEdit: (video: EditorVideo) => void;
  onRemove: (video: EditorVideo) => void;
  onMove: (video: EditorVideo, to: number) => void;
}) => {
  const root = rootVideo(videos);
  // Every video reached by a branch: the start falls back to the first in the list.
  const rootReached = root ? branchTargets(videos).has(root.editor_id) : false;
  // Stable across renders, so a row renders again only when what it shows changes (not on every map move).
  const actions = useStableHandlers({
    edit: (editorId: string) => withVideo(videos, editorId, onEdit),
    remove: (editorId: string) => withVideo(videos, editorId, onRemove),
    move: (editorId: string, to: number) => withVideo(videos, editorId, (video) => onMove(video, to)),
  });
  return (
    <Box component="section" aria-labelledby="funnel-videos-title">
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', columnGap: 1, mb: 1 }}>
        <Typography id="funnel-videos-title" variant="h6" component="h2" sx={{ flex: 1 }}>
          Videos
        </Typography>
        <Button startIcon={<AccountTreeIcon />} aria-expanded={showMap} aria-controls="funnel-map-panel" onClick={onToggleMap}>
          {showMap ? 'Hide map' : 'Show map'}
        </Button>
        <Button variant="contained" startIcon={<AddIcon />} onClick={onAdd}>
          Add videos
        </Button>
      </Stack>
      {root && videos.length > 1 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="root-rule">
          Viewers start with '{root.video?.title ?? 'the first video'}':{' '}
          {rootReached ? 'the first video in the list, since a branch leads to every video.' : 'the first video that no branch leads to.'}
        </Typography>
      )}
      {videos.length === 0 ? (
        <Paper sx={{ p: 6, textAlign: 'center' }} data-testid="editor-empty">
          <Typography variant="h6" gutterBottom>
            This funnel has no videos yet.
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            Add videos from your library, then place text and branch elements on each one.
          </Typography>
          <Button variant="contained" startIcon={<AddIcon />} onClick={onAdd}>
            Add videos
          </Button>
        </Paper>
      ) : (
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }} aria-label="Funnel videos">
          {videos.map((video, i) => (
            <VideoRow
              key={video.editor_id}
              editorId={video.editor_id}
              poster={video.video}
              title={rowTitle(video, i)}
              summary={rowSummary(video, videos)}
              index={i}
              count={videos.length}
              isRoot={video.editor_id === root?.editor_id}
              actions={actions}
            />
          ))}
        </Box>
      )}
    </Box>
  );
};

type RowActions = { edit: (editorId: string) => void; remove: (editorId: string) => void; move: (editorId: string, to: number) => void };

const withVideo = (videos: readonly EditorVideo[], editorId: string, run: (video: EditorVideo) => void) => {
  const video = videos.find((v) => v.editor_id === editorId);
  if (video) run(video);
};

const rowTitle = (video: EditorVideo, index: number) => video.video?.title ?? `Video ${index + 1} (removed from the library)`;

/** "1:30 · 2 text · 1 branch · leads to Offer, Thanks". */
const rowSummary = (video: EditorVideo, videos: readonly EditorVideo[]): string => {
  const texts = video.elements.filter((e) => e.type === 'text').length;
  const branches = video.elements.filter((e) => e.type === 'branch').length;
  const targets = [
    ...new Set(
      video.elements.flatMap((e) => (e.type === 'branch' ? e.data.branches.filter((b) => b.onclick === 'branch' && b.video).map((b) => b.video!) : [])),
    ),
  ];
  const name = (editorId: string) => {
    const i = videos.findIndex((v) => v.editor_id === editorId);
    return i < 0 ? 'a removed video' : (videos[i].video?.title ?? `Video ${i + 1}`);
  };
  const duration = video.video?.duration ? `${formatTimecode(video.video.duration)} · ` : '';
  const leads = targets.length > 0 ? ` · leads to ${targets.map(name).join(', ')}` : '';
  return `${duration}${texts} text · ${branches} branch${branches === 1 ? '' : 'es'}${leads}`;
};

/** One video of the funnel: what it is, where its branches lead, and its actions. */
const VideoRow = memo(function VideoRow({
  editorId,
  poster,
  title,
  summary,
  index,
  count,
  isRoot,
  actions,
}: {
  editorId: string;
  poster: EditorVideo['video'];
  title: string;
  summary: string;
  index: number;
  count: number;
  isRoot: boolean;
  actions: RowActions;
}) {
  return (
    // On a phone the actions take a line of their own, under the poster and the title.
    <Paper component="li" data-testid="funnel-video" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 1, sm: 2 }, p: 1.5, alignItems: 'center' }}>
      <VideoPoster video={poster} sx={{ width: { xs: 96, sm: 128 }, flex: 'none', borderRadius: 1 }} />
      <Box sx={{ flex: '1 1 160px', minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography sx={{ fontWeight: 600 }} noWrap title={title}>
            {title}
          </Typography>
          {isRoot && <Chip size="small" color="primary" label="Start" />}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {summary}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: { xs: 0.5, sm: 1 }, ml: 'auto' }}>
        <Tooltip title="Move up">
          <span>
            <IconButton aria-label={`Move ${title} up`} disabled={index === 0} onClick={() => actions.move(editorId, index - 1)}>
              <ArrowUpwardIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title="Move down">
          <span>
            <IconButton aria-label={`Move ${title} down`} disabled={index === count - 1} onClick={() => actions.move(editorId, index + 1)}>
              <ArrowDownwardIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Button variant="outlined" startIcon={<EditIcon />} onClick={() => actions.edit(editorId)} aria-label={`Edit ${title}`}>
          Edit
        </Button>
        <Tooltip title="Remove from funnel">
          <IconButton aria-label={`Remove ${title}`} onClick={() => actions.remove(editorId)}>
            <DeleteIcon />
          </IconButton>
        </Tooltip>
      </Box>
    </Paper>
  );
});
