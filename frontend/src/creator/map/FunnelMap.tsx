import { memo, useMemo, type KeyboardEvent } from 'react';
import {
  Background,
  BaseEdge,
  Controls,
  EdgeLabelRenderer,
  Handle,
  Position,
  ReactFlow,
  ReactFlowProvider,
  type Edge,
  type EdgeProps,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatTimecode } from '../editor/timeline-math';
import {
  edgeStatsKey,
  funnelGraph,
  layoutFunnel,
  shortLabel,
  type LaidOutEdge,
  type LaidOutNode,
  type MapSourceVideo,
  type MapStats,
  type NodeStats,
  type Point,
} from './funnel-graph';

const percent = (share: number): string => `${Math.round(share * 100)}%`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

type VideoNodeData = { node: LaidOutNode; stats?: NodeStats; jumps?: ReadonlyMap<string, number> };
type RoutedEdgeData = { edge: LaidOutEdge; stats?: { viewers: number; share: number } };

const WARNING = '#8a4b00';
const DANGER = '#b3261e';

const Flag = ({ children, color }: { children: string; color: string }) => (
  <Box component="span" sx={{ px: 0.75, py: 0.25, borderRadius: 1, bgcolor: color, color: '#fff', fontSize: 12, fontWeight: 600, lineHeight: 1.4 }}>
    {children}
  </Box>
);

const VideoNode = memo(({ data }: NodeProps<Node<VideoNodeData>>) => {
  const { node, stats, jumps } = data;
  const missing = node.kind === 'missing';
  return (
    <Box
      sx={{
        width: node.box.width,
        height: node.box.height,
        boxSizing: 'border-box',
        p: 1,
        bgcolor: '#fff',
        borderRadius: 2,
        border: '2px solid',
        borderStyle: missing || node.unreachable ? 'dashed' : 'solid',
        borderColor: missing ? DANGER : node.unreachable ? WARNING : node.root ? 'primary.main' : '#8a8f98',
        color: '#1f2328',
        cursor: missing ? 'default' : 'pointer',
        overflow: 'hidden',
      }}
      data-testid={`map-node-${node.id}`}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} style={{ visibility: 'hidden' }} />
      <Handle type="source" position={Position.Right} isConnectable={false} style={{ visibility: 'hidden' }} />
      {missing ? (
        <>
          <Typography sx={{ fontWeight: 700, color: DANGER, fontSize: 14 }}>Removed video</Typography>
          <Typography sx={{ fontSize: 12 }}>This branch has no target video.</Typography>
        </>
      ) : (
        <>
          <Box sx={{ position: 'relative', height: 96, borderRadius: 1, overflow: 'hidden', bgcolor: '#e8eaed' }}>
            {node.thumbnail && <Box component="img" src={node.thumbnail} alt="" sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }} />}
            <Box sx={{ position: 'absolute', top: 4, left: 4, display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
              {node.root && <Flag color="#1b5e20">Start</Flag>}
              {node.unreachable && <Flag color={WARNING}>Not reachable</Flag>}
              {node.libraryRemoved && <Flag color={DANGER}>Not in library</Flag>}
            </Box>
          </Box>
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
          >
            {node.title}
          </Typography>
          <Typography sx={{ fontSize: 12, color: '#4a4f57' }}>
            {node.duration !== null ? formatTimecode(node.duration) : 'Duration unknown'}
            {node.jumps.length > 0 &&
              ` · ${node.jumps
                .map((j) => {
                  const used = jumps?.get(edgeStatsKey('jump', node.id, j.branchId));
                  return `${shortLabel(j.label)} ↺ ${formatTimecode(j.seconds)}${used !== undefined ? ` (${plural(used, 'viewer')})` : ''}`;
                })
                .join(', ')}`}
          </Typography>
          {stats && (
            <Typography sx={{ fontSize: 12, fontWeight: 600 }} data-testid={`map-node-stats-${node.id}`}>
              {plural(stats.viewers, 'viewer')}
              {stats.dropOff !== null && ` · ${stats.dropOff} stopped here`}
            </Typography>
          )}
        </>
      )}
    </Box>
  );
});
VideoNode.displayName = 'VideoNode';

/** A smooth path through dagre's points. */
const pathThrough = (points: Point[]): string => {
  if (points.length === 0) return '';
  const [first, ...rest] = points;
  let d = `M ${first!.x} ${first!.y}`;
  if (rest.length === 1) return `${d} L ${rest[0]!.x} ${rest[0]!.y}`;
  for (let i = 0; i < rest.length - 1; i += 1) {
    const c = rest[i]!;
    const next = rest[i + 1]!;
    const end = i === rest.length - 2 ? next : { x: (c.x + next.x) / 2, y: (c.y + next.y) / 2 };
    d += ` Q ${c.x} ${c.y} ${end.x} ${end.y}`;
  }
  return d;
};

const RoutedEdge = memo(({ data, markerEnd }: EdgeProps<Edge<RoutedEdgeData>>) => {
  if (!data) return null;
  const { edge, stats } = data;
  const color = edge.broken ? DANGER : edge.kind === 'inaction' ? '#5f6368' : '#3d3a9e';
  const { labelBox } = edge;
  return (
    <>
      <BaseEdge
        path={pathThrough(edge.points)}
        markerEnd={markerEnd}
        style={{ stroke: color, strokeWidth: 2, strokeDasharray: edge.kind === 'inaction' || edge.broken ? '6 4' : undefined }}
      />
      <EdgeLabelRenderer>
        <Box
          sx={{
            position: 'absolute',
            transform: `translate(${labelBox.x}px, ${labelBox.y}px)`,
            width: labelBox.width,
            height: labelBox.height,
            boxSizing: 'border-box',
            px: 0.75,
            py: 0.5,
            bgcolor: '#fff',
            border: `1px solid ${color}`,
            borderRadius: 1,
            fontSize: 12,
            lineHeight: '18px',
            color: edge.broken ? DANGER : '#1f2328',
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textAlign: 'center',
            pointerEvents: 'none',
          }}
          data-testid={`map-edge-${edge.id}`}
        >
          <div>{shortLabel(edge.label)}</div>
          {stats && (
            <Box sx={{ fontWeight: 700 }} data-testid={`map-edge-stats-${edge.id}`}>
              {plural(stats.viewers, 'viewer')} · {percent(stats.share)}
            </Box>
          )}
        </Box>
      </EdgeLabelRenderer>
    </>
  );
});
RoutedEdge.displayName = 'RoutedEdge';

const nodeTypes = { video: VideoNode };
const edgeTypes = { routed: RoutedEdge };

const nodeName = (node: LaidOutNode, stats?: NodeStats): string => {
  if (node.kind === 'missing') return 'Removed video: a branch leads to a video that is no longer in the funnel';
  const flags = [node.root && 'start video', node.unreachable && 'not reachable from the start', node.libraryRemoved && 'not in the library'].filter(Boolean);
  const figures = stats ? `, ${plural(stats.viewers, 'viewer')}${stats.dropOff !== null ? `, ${stats.dropOff} stopped here` : ''}` : '';
  return `${node.title}${flags.length ? ` (${flags.join(', ')})` : ''}${figures}`;
};

export interface FunnelMapProps {
  videos: ReadonlyArray<MapSourceVideo>;
  /** Opens a video (click, or Enter on a focused node); omitted: the map only shows. */
  onOpen?: (editorId: string) => void;
  stats?: MapStats;
  height?: number | string;
  label?: string;
}

/** The funnel as a graph: videos as nodes, branch buttons and inaction defaults as labelled edges. */
export const FunnelMap = ({ videos, onOpen, stats, height = 560, label = 'Funnel map' }: FunnelMapProps) => {
  const layout = useMemo(() => layoutFunnel(funnelGraph(videos), { labelLines: stats ? 2 : 1 }), [videos, stats]);
  const nodes = useMemo(
    () =>
      layout.nodes.map(
        (node): Node<VideoNodeData> => ({
          id: node.id,
          type: 'video',
          position: { x: node.box.x, y: node.box.y },
          width: node.box.width,
          height: node.box.height,
          data: { node, stats: stats?.nodes.get(node.id), jumps: stats?.jumps },
          // A button is named by what it shows (its flags, title, duration); a group by a sentence.
          ariaLabel: onOpen && node.kind === 'video' ? undefined : nodeName(node, stats?.nodes.get(node.id)),
          ariaRole: onOpen && node.kind === 'video' ? 'button' : 'group',
          draggable: false,
          connectable: false,
          focusable: true,
        }),
      ),
    [layout, stats, onOpen],
  );
  const edges = useMemo(
    () =>
      layout.edges.map((edge): Edge<RoutedEdgeData> => {
        const figures = stats?.edges.get(edgeStatsKey(edge.kind, edge.source, edge.branchId));
        const target = layout.nodes.find((n) => n.id === edge.target);
        return {
          id: edge.id,
          source: edge.source,
          target: edge.target,
          type: 'routed',
          data: { edge, stats: stats ? (figures ?? { viewers: 0, share: 0 }) : undefined },
          ariaLabel: `${edge.kind === 'inaction' ? '' : 'Branch '}'${edge.label}' to ${edge.broken ? 'a removed video' : (target?.title ?? edge.target)}${
            figures ? `, ${plural(figures.viewers, 'viewer')}, ${percent(figures.share)}` : ''
          }`,
          markerEnd: { type: 'arrowclosed' as never, color: edge.broken ? DANGER : edge.kind === 'inaction' ? '#5f6368' : '#3d3a9e' },
          focusable: false,
          selectable: false,
        };
      }),
    [layout, stats],
  );

  const open = (id: string | null | undefined) => {
    if (!onOpen || !id || !videos.some((v) => v.editor_id === id)) return;
    onOpen(id);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter') return;
    const id = (e.target as HTMLElement).closest('.react-flow__node')?.getAttribute('data-id');
    if (id) {
      e.preventDefault();
      open(id);
    }
  };

  if (videos.length === 0) {
    return (
      <Box sx={{ p: 4, textAlign: 'center', color: 'text.secondary' }} data-testid="funnel-map-empty">
        Add videos to see the funnel map.
      </Box>
    );
  }
  return (
    <Box
      sx={{ height, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fafafa', '& .react-flow__attribution a': { color: '#1f2328' } }}
      onKeyDown={onKeyDown}
      aria-label={label}
      role="region"
      data-testid="funnel-map"
    >
      <ReactFlowProvider>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodeClick={(_, node) => open(node.id)}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          nodesFocusable
          edgesFocusable={false}
          fitView
          fitViewOptions={{ padding: 0.1, maxZoom: 1 }}
          minZoom={0.1}
          ariaLabelConfig={{
            'node.a11yDescription.default': onOpen ? 'Press Enter to open this video in the editor.' : 'A video of the funnel.',
          }}
        >
          <Background gap={24} color="#d5d7db" />
          <Controls showInteractive={false} />
        </ReactFlow>
      </ReactFlowProvider>
    </Box>
  );
};
