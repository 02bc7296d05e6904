import { createContext, memo, useContext, useEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import {
  Background,
  BaseEdge,
  Controls,
  EdgeLabelRenderer,
  Handle,
  MiniMap,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  useStoreApi,
  type Edge,
  type EdgeProps,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatTimecode } from '../editor/timeline-math';
import { VideoPoster } from '../../shared/VideoPoster';
import {
  edgeStatsKey,
  funnelGraph,
  layoutFunnel,
  shortLabel,
  type Box as Rect,
  type FunnelLayout,
  type LaidOutEdge,
  type LaidOutNode,
  type MapSourceVideo,
  type MapStats,
  type NodeStats,
  type Point,
} from './funnel-graph';

const percent = (share: number): string => `${Math.round(share * 100)}%`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

type EdgeFigures = { viewers: number; share: number };
type VideoNodeData = { node: LaidOutNode; stats?: NodeStats; jumps?: ReadonlyMap<string, number> };
/** stats: the edge's figures; null on the analytics map when the player does not count it (a default that is a URL). */
type RoutedEdgeData = { edge: LaidOutEdge; stats?: EdgeFigures | null };

const WARNING = '#8a4b00';
const DANGER = '#b3261e';
const LINK = '#00695c';
const FOCUS = '#0b57d0';
/** The smallest zoom the map opens at: node titles and edge labels stay readable; a bigger map is panned. */
export const READABLE_ZOOM = 0.8;
const VIEW_PADDING = 16;

const edgeColor = (edge: LaidOutEdge): string => (edge.broken ? DANGER : edge.linkOut ? LINK : edge.kind === 'inaction' ? '#5f6368' : '#3d3a9e');

/** The id of the edge that has keyboard focus (its label is outlined). */
const FocusedEdge = createContext<string | null>(null);

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

const VideoNode = memo(({ data }: NodeProps<Node<VideoNodeData>>) => {
  const { node, stats, jumps } = data;
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
      }}
      data-testid={`map-node-${node.id}`}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} style={{ visibility: 'hidden' }} />
      <Handle type="source" position={Position.Right} isConnectable={false} style={{ visibility: 'hidden' }} />
      {link ? (
        <LinkContent node={node} stats={stats} />
      ) : missing ? (
        <>
          <Typography sx={{ fontWeight: 700, color: DANGER, fontSize: 14 }}>Removed video</Typography>
          <Typography sx={{ fontSize: 12 }}>This branch has no target video.</Typography>
        </>
      ) : (
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

const RoutedEdge = memo(({ id, data, markerEnd }: EdgeProps<Edge<RoutedEdgeData>>) => {
  const focused = useContext(FocusedEdge) === id;
  if (!data) return null;
  const { edge, stats } = data;
  const color = edgeColor(edge);
  const { labelBox } = edge;
  return (
    <>
      <BaseEdge
        path={pathThrough(edge.points)}
        markerEnd={markerEnd}
        style={{
          stroke: focused ? FOCUS : color,
          strokeWidth: focused ? 4 : 2,
          strokeDasharray: edge.broken || edge.kind === 'inaction' ? '6 4' : edge.linkOut ? '2 4' : undefined,
        }}
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
            bgcolor: edge.linkOut ? '#f1f8f6' : '#fff',
            border: `1px solid ${color}`,
            borderRadius: 1,
            outline: focused ? `3px solid ${FOCUS}` : 'none',
            outlineOffset: 1,
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
          {stats !== undefined && (
            <Box sx={{ fontWeight: 700 }} data-testid={`map-edge-stats-${edge.id}`}>
              {stats ? `${plural(stats.viewers, 'view')} · ${percent(stats.share)}` : 'not counted'}
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
  if (node.kind === 'link') {
    const left = stats ? `, ${plural(stats.viewers, 'view')} went out here` : '';
    return node.url ? `Link out of the funnel to ${node.title} (${node.url})${left}` : `Link out with no URL set${left}`;
  }
  const flags = [node.root && 'start video', node.unreachable && 'not reachable from the start', node.libraryRemoved && 'not in the library'].filter(Boolean);
  const figures = stats ? `, ${plural(stats.viewers, 'view')}${stats.dropOff !== null ? `, ${stats.dropOff} stopped here` : ''}` : '';
  return `${node.title}${flags.length ? ` (${flags.join(', ')})` : ''}${figures}`;
};

/** "Branch 'Yes' from Intro to Offer, 12 views (40%)": what the edge does, where, and its figures. */
const edgeName = (edge: LaidOutEdge, source: LaidOutNode | undefined, target: LaidOutNode | undefined, stats: EdgeFigures | null | undefined): string => {
  const what = edge.kind === 'inaction' ? `Default when no choice is made, '${edge.text}'` : `Branch '${edge.text}'`;
  const to =
    target?.kind === 'link'
      ? target.url
        ? `a link out to ${target.title}`
        : 'a link with no URL set'
      : target?.kind === 'missing' || !target
        ? 'a removed video'
        : target.title;
  const figures = stats === undefined ? '' : stats ? `, ${plural(stats.viewers, 'view')} (${percent(stats.share)})` : ', not counted';
  return `${what} from ${source?.title ?? edge.source} to ${to}${figures}`;
};

/** Where the user went to, in the editor: a video, or a branch element (and button) on it. */
export interface MapTarget {
  elementId: string;
  branchId: string | null;
}

export interface FunnelMapProps {
  videos: ReadonlyArray<MapSourceVideo>;
  /** Opens a video (click, or Enter on a focused node), or the element behind an edge (click or Enter); omitted: the map only shows. */
  onOpen?: (editorId: string, at?: MapTarget) => void;
  stats?: MapStats;
  height?: number | string;
  label?: string;
}

/**
 * The first view: the whole map when it fits at a readable zoom, otherwise the start video at
 * the left at that zoom (the rest is panned to, or reached by keyboard). Set once, so editing
 * the funnel keeps where the user looked.
 */
const InitialView = ({ layout, onBig }: { layout: FunnelLayout; onBig: (big: boolean) => void }) => {
  const { setViewport } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const ready = useStore((s) => Boolean(s.panZoom));
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !ready || width <= 0 || height <= 0 || layout.nodes.length === 0) return;
    done.current = true;
    const fit = Math.min((width - 2 * VIEW_PADDING) / layout.width, (height - 2 * VIEW_PADDING) / layout.height, 1);
    if (fit >= READABLE_ZOOM) {
      void setViewport({ x: (width - layout.width * fit) / 2, y: (height - layout.height * fit) / 2, zoom: fit });
      onBig(false);
      return;
    }
    const zoom = READABLE_ZOOM;
    const root = layout.nodes.find((n) => n.root) ?? layout.nodes[0]!;
    const centreY = root.box.y + root.box.height / 2;
    // The start video at the left, level with the middle, without scrolling past the map's top or bottom.
    const y = Math.min(VIEW_PADDING, Math.max(height - VIEW_PADDING - layout.height * zoom, height / 2 - centreY * zoom));
    void setViewport({ x: VIEW_PADDING - root.box.x * zoom, y, zoom });
    onBig(true);
  }, [ready, width, height, layout, setViewport, onBig]);
  return null;
};

/** The funnel as a graph: videos as nodes, branch buttons and inaction defaults as labelled edges. */
export const FunnelMap = (props: FunnelMapProps) => {
  if (props.videos.length === 0) {
    return (
      <Box sx={{ p: 4, textAlign: 'center', color: 'text.secondary' }} data-testid="funnel-map-empty">
        Add videos to see the funnel map.
      </Box>
    );
  }
  return (
    <ReactFlowProvider>
      <MapView {...props} />
    </ReactFlowProvider>
  );
};

const MapView = ({ videos, onOpen, stats, height = 560, label = 'Funnel map' }: FunnelMapProps) => {
  const layout = useMemo(() => layoutFunnel(funnelGraph(videos), { labelLines: stats ? 2 : 1 }), [videos, stats]);
  const byId = useMemo(() => new Map(layout.nodes.map((n) => [n.id, n])), [layout]);
  const edgeById = useMemo(() => new Map(layout.edges.map((e) => [e.id, e])), [layout]);
  const edgeStats = useMemo(() => {
    const figures = new Map<string, EdgeFigures | null | undefined>();
    for (const edge of layout.edges) {
      if (!stats) figures.set(edge.id, undefined);
      else if (edge.branchId === null) figures.set(edge.id, null);
      else figures.set(edge.id, stats.edges.get(edgeStatsKey(edge.kind, edge.source, edge.branchId)) ?? { viewers: 0, share: 0 });
    }
    return figures;
  }, [layout, stats]);
  // A link out's viewers: everyone who left the funnel through the edges into it.
  const nodeStats = useMemo(() => {
    if (!stats) return undefined;
    const figures = new Map(stats.nodes);
    for (const edge of layout.edges) {
      if (!edge.linkOut) continue;
      const before = figures.get(edge.target)?.viewers ?? 0;
      figures.set(edge.target, { viewers: before + (edgeStats.get(edge.id)?.viewers ?? 0), dropOff: null });
    }
    return figures;
  }, [layout, stats, edgeStats]);

  const nodes = useMemo(
    () =>
      layout.nodes.map((node): Node<VideoNodeData> => {
        const opens = Boolean(onOpen) && node.kind === 'video';
        return {
          id: node.id,
          type: 'video',
          position: { x: node.box.x, y: node.box.y },
          width: node.box.width,
          height: node.box.height,
          data: { node, stats: nodeStats?.get(node.id), jumps: stats?.jumps },
          // A button is named by what it shows (its flags, title, duration); a group by a sentence.
          ariaLabel: opens ? undefined : nodeName(node, nodeStats?.get(node.id)),
          ariaRole: opens ? 'button' : 'group',
          draggable: false,
          connectable: false,
          focusable: true,
        };
      }),
    [layout, stats, nodeStats, onOpen],
  );
  const edges = useMemo(
    () =>
      layout.edges.map((edge): Edge<RoutedEdgeData> => {
        const figures = edgeStats.get(edge.id);
        return {
          id: edge.id,
          source: edge.source,
          target: edge.target,
          type: 'routed',
          data: { edge, stats: figures },
          ariaLabel: edgeName(edge, byId.get(edge.source), byId.get(edge.target), figures),
          ariaRole: onOpen ? 'button' : 'group',
          markerEnd: { type: 'arrowclosed' as never, color: edgeColor(edge) },
          focusable: true,
          selectable: false,
        };
      }),
    [layout, byId, edgeStats, onOpen],
  );

  const store = useStoreApi();
  const { setCenter } = useReactFlow();
  const [focusedEdge, setFocusedEdge] = useState<string | null>(null);
  const [big, setBig] = useState(false);

  const flowElement = (target: EventTarget): { kind: 'node' | 'edge'; id: string } | null => {
    const el = (target as Element).closest?.('.react-flow__node, .react-flow__edge');
    const id = el?.getAttribute('data-id');
    if (!el || !id) return null;
    return { kind: el.classList.contains('react-flow__node') ? 'node' : 'edge', id };
  };
  const focusOn = (container: HTMLElement, kind: 'node' | 'edge', id: string | undefined) => {
    if (!id) return;
    const el = container.querySelector<HTMLElement | SVGElement>(`.react-flow__${kind}[data-id="${CSS.escape(id)}"]`);
    el?.focus();
  };
  /** Pans (at the same zoom) so a focused node or edge label is wholly in view. */
  const reveal = (box: Rect) => {
    const { transform, width, height: viewHeight } = store.getState();
    const [tx, ty, zoom] = transform;
    const left = box.x * zoom + tx;
    const top = box.y * zoom + ty;
    const inside = left >= 0 && top >= 0 && left + box.width * zoom <= width && top + box.height * zoom <= viewHeight;
    if (!inside) void setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom });
  };

  const open = (id: string | null | undefined) => {
    if (!onOpen || !id || !videos.some((v) => v.editor_id === id)) return;
    onOpen(id);
  };
  const openEdge = (id: string) => {
    const edge = edgeById.get(id);
    if (edge && onOpen) onOpen(edge.source, { elementId: edge.elementId, branchId: edge.branchId });
  };
  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    const at = flowElement(e.target);
    setFocusedEdge(at?.kind === 'edge' ? at.id : null);
    if (!at) return;
    const box = at.kind === 'node' ? byId.get(at.id)?.box : edgeById.get(at.id)?.labelBox;
    if (box) reveal(box);
  };
  // Enter opens; arrows walk the graph: right along an edge to its target, left back to its source, up and down between a video's edges.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = flowElement(e.target);
    if (!at) return;
    const container = e.currentTarget;
    const edge = at.kind === 'edge' ? edgeById.get(at.id) : undefined;
    const siblings = (source: string) => layout.edges.filter((x) => x.source === source);
    if (e.key === 'Enter') {
      e.preventDefault();
      if (at.kind === 'node') open(at.id);
      else openEdge(at.id);
      return;
    }
    const move = (kind: 'node' | 'edge', id: string | undefined) => {
      if (!id) return;
      e.preventDefault();
      focusOn(container, kind, id);
    };
    if (at.kind === 'node') {
      if (e.key === 'ArrowRight') move('edge', siblings(at.id)[0]?.id);
      else if (e.key === 'ArrowLeft') move('edge', layout.edges.find((x) => x.target === at.id)?.id);
    } else if (edge) {
      const list = siblings(edge.source);
      const index = list.findIndex((x) => x.id === edge.id);
      if (e.key === 'ArrowRight') move('node', edge.target);
      else if (e.key === 'ArrowLeft') move('node', edge.source);
      else if (e.key === 'ArrowDown') move('edge', list[index + 1]?.id);
      else if (e.key === 'ArrowUp') move('edge', list[index - 1]?.id);
    }
  };

  return (
    <Box
      sx={{
        height,
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: '#fafafa',
        '& .react-flow__attribution a': { color: '#1f2328' },
        '& .react-flow__edge:focus, & .react-flow__edge:focus-visible': { outline: 'none' },
        '& .react-flow__node:focus-visible': { outline: `3px solid ${FOCUS}`, outlineOffset: 2, borderRadius: 2 },
      }}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      onBlur={() => setFocusedEdge(null)}
      aria-label={label}
      role="region"
      data-testid="funnel-map"
    >
      <FocusedEdge.Provider value={focusedEdge}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodeClick={(_, node) => open(node.id)}
          onEdgeClick={onOpen ? (_, edge) => openEdge(edge.id) : undefined}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          nodesFocusable
          edgesFocusable
          autoPanOnNodeFocus={false}
          minZoom={0.1}
          maxZoom={1.5}
          ariaLabelConfig={{
            'node.a11yDescription.default': onOpen
              ? 'Press Enter to open this video in the editor; Right arrow goes to its branches.'
              : 'A video of the funnel; Right arrow goes to its branches.',
            'edge.a11yDescription.default': onOpen
              ? 'Press Enter to edit this branch in its video; Right arrow goes to where it leads, Left arrow to its video, Up and Down arrows to the video’s other branches.'
              : 'Right arrow goes to where it leads, Left arrow to its video, Up and Down arrows to the video’s other branches.',
            'minimap.ariaLabel': 'Overview of the whole map',
          }}
        >
          <InitialView layout={layout} onBig={setBig} />
          <Background gap={24} color="#d5d7db" />
          <Controls showInteractive={false} />
          {big && <MiniMap pannable zoomable nodeColor={(n) => ((n.data as VideoNodeData).node.root ? '#1b5e20' : '#b8bcc4')} />}
        </ReactFlow>
      </FocusedEdge.Provider>
    </Box>
  );
};
