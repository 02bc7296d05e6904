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
import { rootVideo } from '@branchify/shared';
import { VideoPoster } from '../../shared/VideoPoster';
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
  return (
    <Box component="section" aria-labelledby="funnel-videos-title">
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography id="funnel-videos-title" variant="h6" component="h2" sx={{ flex: 1 }}>
          Videos
        </Typography>
        <Button sx={{ mr: 1 }} startIcon={<AccountTreeIcon />} aria-expanded={showMap} aria-controls="funnel-map-panel" onClick={onToggleMap}>
          {showMap ? 'Hide map' : 'Show map'}
        </Button>
        <Button variant="contained" startIcon={<AddIcon />} onClick={onAdd}>
          Add videos
        </Button>
      </Stack>
      {root && videos.length > 1 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="root-rule">
          Viewers start with '{root.video?.title ?? 'the first video'}': the first video that no branch leads to.
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
              video={video}
              index={i}
              count={videos.length}
              isRoot={video.editor_id === root?.editor_id}
              titles={videos}
              onEdit={() => onEdit(video)}
              onRemove={() => onRemove(video)}
              onMove={(to) => onMove(video, to)}
            />
          ))}
        </Box>
      )}
    </Box>
  );
};

/** One video of the funnel: what it is, where its branches lead, and its actions. */
const VideoRow = ({
  video,
  index,
  count,
  isRoot,
  titles,
  onEdit,
  onRemove,
  onMove,
}: {
  video: EditorVideo;
  index: number;
  count: number;
  isRoot: boolean;
  titles: readonly EditorVideo[];
  onEdit: () => void;
  onRemove: () => void;
  onMove: (to: number) => void;
}) => {
  const texts = video.elements.filter((e) => e.type === 'text').length;
  const branches = video.elements.filter((e) => e.type === 'branch').length;
  const targets = [
    ...new Set(
      video.elements.flatMap((e) => (e.type === 'branch' ? e.data.branches.filter((b) => b.onclick === 'branch' && b.video).map((b) => b.video!) : [])),
    ),
  ];
  const name = (editorId: string) => {
    const i = titles.findIndex((v) => v.editor_id === editorId);
    return i < 0 ? 'a removed video' : (titles[i].video?.title ?? `Video ${i + 1}`);
  };
  const title = video.video?.title ?? `Video ${index + 1} (removed from the library)`;
  return (
    <Paper component="li" data-testid="funnel-video" sx={{ display: 'flex', gap: 2, p: 1.5, alignItems: 'center' }}>
      <VideoPoster video={video.video} sx={{ width: 128, flex: 'none', borderRadius: 1 }} />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography sx={{ fontWeight: 600 }} noWrap title={title}>
            {title}
          </Typography>
          {isRoot && <Chip size="small" color="primary" label="Start" />}
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {video.video?.duration ? `${formatTimecode(video.video.duration)} · ` : ''}
          {texts} text · {branches} branch{branches === 1 ? '' : 'es'}
          {targets.length > 0 && ` · leads to ${targets.map(name).join(', ')}`}
        </Typography>
      </Box>
      <Tooltip title="Move up">
        <span>
          <IconButton aria-label={`Move ${title} up`} disabled={index === 0} onClick={() => onMove(index - 1)}>
            <ArrowUpwardIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title="Move down">
        <span>
          <IconButton aria-label={`Move ${title} down`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
            <ArrowDownwardIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Button variant="outlined" startIcon={<EditIcon />} onClick={onEdit} aria-label={`Edit ${title}`}>
        Edit
      </Button>
      <Tooltip title="Remove from funnel">
        <IconButton aria-label={`Remove ${title}`} onClick={onRemove}>
          <DeleteIcon />
        </IconButton>
      </Tooltip>
    </Paper>
  );
};
