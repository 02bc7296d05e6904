import { memo, useContext } from 'react';
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatTimecode } from '../editor/timeline-math';
import { VideoPoster } from '../../shared/VideoPoster';
import { edgeStatsKey, shortLabel, type LaidOutNode, type NodeStats } from './funnel-graph';
import { DANGER, LINK, SELECTED, SelectedItem, WARNING, plural, type VideoNodeData } from './map-shared';

const Flag = ({ children, color }: { children: string; color: string }) => (
  <Box component="span" sx={{ px: 0.75, py: 0.25, borderRadius: 1, bgcolor: color, color: '#fff', fontSize: 12, fontWeight: 600, lineHeight: 1.4 }}>
    {children}
  </Box>
);

const LinkContent = ({ node, stats }: { node: LaidOutNode; stats?: NodeStats }) => (
  <>
    <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', mb: 0.5 }}>
      <Flag color={node.url ? LINK : DANGER}>{node.url ? 'Link out' : 'No URL set'}</Flag>
      {stats && (
        <Typography component="span" sx={{ fontSize: 12, fontWeight: 600 }} data-testid={`map-node-stats-${node.id}`}>
          {plural(stats.viewers, 'view')} went out here
        </Typography>
      )}
    </Box>
    <Typography sx={{ fontSize: 13, fontWeight: 700, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }} title={node.url ?? undefined}>
      {node.title}
    </Typography>
    {node.url && (
      <Typography sx={{ fontSize: 11, color: '#4a4f57', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>{node.url}</Typography>
    )}
  </>
);

/** A node of the map: a video (poster, flags, title, duration, jumps, figures), a link out, or a removed video. */
/** Handles drawn on an editable video: a dot to drag a new branch from (right), the end a branch is dropped on (left). */
const handleStyle = (editable: boolean, side: 'left' | 'right') =>
  editable
    ? { width: 14, height: 14, [side]: -7, background: side === 'right' ? '#3d3a9e' : '#fff', border: '2px solid #3d3a9e', transform: 'translateY(-50%)' }
    : { visibility: 'hidden' as const };

export const VideoNode = memo(
  ({ data }: NodeProps<Node<VideoNodeData>>) => {
    const { node, stats, jumps } = data;
    const selected = useContext(SelectedItem) === node.id;
    const editable = Boolean(data.editable) && node.kind === 'video';
    const missing = node.kind === 'missing';
    const link = node.kind === 'link';
    return (
      <Box
        sx={{
          width: node.box.width,
          height: node.box.height,
          boxSizing: 'border-box',
          py: 1,
          px: link ? 2 : 1,
          bgcolor: link ? '#f1f8f6' : '#fff',
          borderRadius: link ? 4 : 2,
          border: '2px solid',
          borderStyle: missing || node.unreachable || (link && !node.url) ? 'dashed' : 'solid',
          borderColor: missing || (link && !node.url) ? DANGER : link ? LINK : node.unreachable ? WARNING : node.root ? 'primary.main' : '#8a8f98',
          color: '#1f2328',
          cursor: missing || link ? 'default' : 'pointer',
          overflow: 'hidden',
          // Selected for the toolbar: a ring of its own colour (focus has the blue outline).
          boxShadow: selected ? `0 0 0 4px ${SELECTED}` : undefined,
        }}
        data-selected={selected || undefined}
        data-testid={`map-node-${node.id}`}
      >
        <Handle type="target" position={Position.Left} isConnectable={editable} style={handleStyle(editable, 'left')} />
        <Handle type="source" position={Position.Right} isConnectable={editable} style={handleStyle(editable, 'right')} />
        {link ? <LinkContent node={node} stats={stats} /> : missing ? <MissingContent /> : <VideoContent node={node} stats={stats} jumps={jumps} />}
      </Box>
    );
  },
  // Drawn from its data alone: a drag moves the node (React Flow places it) without drawing it again.
  (before, after) => before.data === after.data,
);
VideoNode.displayName = 'VideoNode';

const MissingContent = () => (
  <>
    <Typography sx={{ fontWeight: 700, color: DANGER, fontSize: 14 }}>Removed video</Typography>
    <Typography sx={{ fontSize: 12 }}>This branch has no target video.</Typography>
  </>
);

const VideoContent = ({ node, stats, jumps }: VideoNodeData) => (
  <>
    <VideoPoster
      video={node.provider ? { provider: node.provider, external_id: node.externalId, thumbnail: node.thumbnail, duration: node.duration } : null}
      sx={{ height: 96, aspectRatio: 'auto', borderRadius: 1 }}
    >
      <Box sx={{ position: 'absolute', top: 4, left: 4, display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
        {node.root && <Flag color="#1b5e20">Start</Flag>}
        {node.unreachable && <Flag color={WARNING}>Not reachable</Flag>}
        {node.libraryRemoved && <Flag color={DANGER}>Not in library</Flag>}
      </Box>
    </VideoPoster>
    <Typography
      sx={{
        mt: 0.5,
        fontSize: 13,
        fontWeight: 600,
        lineHeight: 1.3,
        display: '-webkit-box',
        WebkitLineClamp: 2,
        WebkitBoxOrient: 'vertical',
        overflow: 'hidden',
      }}
      title={node.title}
      data-testid={`map-node-title-${node.id}`}
    >
      {node.title}
    </Typography>
    <Typography sx={{ fontSize: 12, color: '#4a4f57' }}>
      {node.duration !== null ? formatTimecode(node.duration) : 'Duration unknown'}
      {node.jumps.length > 0 &&
        ` · ${node.jumps
          .map((j) => {
            const used = jumps?.get(edgeStatsKey('jump', node.id, j.branchId));
            return `${shortLabel(j.label)} ↺ ${formatTimecode(j.seconds)}${used !== undefined ? ` (${plural(used, 'view')})` : ''}`;
          })
          .join(', ')}`}
    </Typography>
    {stats && (
      <Typography sx={{ fontSize: 12, fontWeight: 600 }} data-testid={`map-node-stats-${node.id}`}>
        {plural(stats.viewers, 'view')}
        {stats.dropOff !== null && ` · ${stats.dropOff} stopped here`}
      </Typography>
    )}
  </>
);

/** The node's accessible name when it is not a button: what it is, its flags and its figures. */
export const nodeName = (node: LaidOutNode, stats?: NodeStats): string => {
  if (node.kind === 'missing') return 'Removed video: a branch leads to a video that is no longer in the funnel';
  if (node.kind === 'link') {
    const left = stats ? `, ${plural(stats.viewers, 'view')} went out here` : '';
    return node.url ? `Link out of the funnel to ${node.title} (${node.url})${left}` : `Link out with no URL set${left}`;
  }
  const flags = [node.root && 'start video', node.unreachable && 'not reachable from the start', node.libraryRemoved && 'not in the library'].filter(Boolean);
  const figures = stats ? `, ${plural(stats.viewers, 'view')}${stats.dropOff !== null ? `, ${stats.dropOff} stopped here` : ''}` : '';
  return `${node.title}${flags.length ? ` (${flags.join(', ')})` : ''}${figures}`;
};
