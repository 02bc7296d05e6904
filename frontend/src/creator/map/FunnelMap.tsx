import { Suspense, lazy, memo, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Background, Controls, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow, useStore, type ReactFlowState, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import Box from '@mui/material/Box';
import { funnelGraph, layoutFunnel, layoutKey, placeLayout, type FunnelGraph, type FunnelLayout, type Point } from './funnel-graph';
import { useStableHandlers } from '../../shared/useStableHandlers';
import { InitialView } from './InitialView';
import { RoutedEdge } from './MapEdge';
import { VideoNode } from './MapNode';
import { MapMotion, MotionStore, motionKey, motionOf } from './map-motion';
import { EdgeLabels, FOCUS, FocusedEdge, PickEdge, SelectedItem, type FunnelMapProps, type VideoNodeData } from './map-shared';
import { useFlowElements } from './useFlowElements';
import { useMapEditing, type MapEditor } from './useMapEditing';
import { useMapInteractions } from './useMapInteractions';

export type { FunnelMapProps } from './map-shared';

const nodeTypes = { video: VideoNode };
/** The editing toolbar loads only where the map edits (not on the analytics page). */
const MapToolbar = lazy(() => import('./MapToolbar').then((m) => ({ default: m.MapToolbar })));
const MapStatus = lazy(() => import('./MapToolbar').then((m) => ({ default: m.MapStatus })));
const edgeTypes = { routed: RoutedEdge };

/** The funnel as a graph: videos as nodes, branch buttons and inaction defaults as labelled edges. */
export const FunnelMap = (props: FunnelMapProps) => {
  if (props.videos.length === 0 && !props.editing) {
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

/** The automatic layout, made again only when the graph's shape changes (not when a video is moved). */
const useAutoLayout = (graph: FunnelGraph, labelLines: number): FunnelLayout => {
  const key = `${labelLines}#${layoutKey(graph)}`;
  const [auto, setAuto] = useState(() => ({ key, layout: layoutFunnel(graph, { labelLines }) }));
  if (auto.key === key) return auto.layout;
  const next = { key, layout: layoutFunnel(graph, { labelLines }) };
  setAuto(next);
  return next.layout;
};

/** The graph laid out: stored places first, the automatic layout for the rest. */
const useLayout = (videos: FunnelMapProps['videos'], stats: FunnelMapProps['stats']): FunnelLayout => {
  const graph = useMemo(() => funnelGraph(videos), [videos]);
  const auto = useAutoLayout(graph, stats ? 2 : 1);
  const stored = useMemo(() => new Map(videos.flatMap((v) => (v.map ? [[v.editor_id, v.map] as const] : []))), [videos]);
  return useMemo(() => placeLayout(graph, auto, stored), [graph, auto, stored]);
};

/**
 * On the editing map React Flow owns the nodes (uncontrolled): a drag moves them in its own store
 * without a render from the top each pointer move; a new layout (an edit, undo) replaces them.
 */
const useOwnedNodes = (nodes: Node<VideoNodeData>[], owned: boolean) => {
  const { setNodes } = useReactFlow();
  const [first] = useState(nodes);
  useEffect(() => {
    if (owned && nodes !== first) setNodes(nodes);
  }, [owned, nodes, first, setNodes]);
  return first;
};

/** Where the automatic layout had each video when it routed the edges (a video away from it has its edges drawn as curves). */
const routedPlaces = (layout: FunnelLayout): ReadonlyMap<string, Point> => {
  const at = new Map<string, Point>();
  for (const edge of layout.edges) {
    if (!edge.routedFrom) continue;
    at.set(edge.source, edge.routedFrom.source);
    at.set(edge.target, edge.routedFrom.target);
  }
  return at;
};

/** The map's motion store, starting from the layout's places. */
const useMotion = (layout: FunnelLayout) => {
  const routedAt = useMemo(() => routedPlaces(layout), [layout]);
  const [store] = useState(
    () =>
      new MotionStore(
        motionOf(
          motionKey(
            layout.nodes.map((n) => ({ id: n.id, position: n.box })),
            routedAt,
          ),
        ),
      ),
  );
  return { store, routedAt };
};

/** Inside React Flow: one reading of which videos are dragged or away from their routes per store change, passed on when it changes (before paint). */
const MotionTracker = ({ routedAt }: { routedAt: ReadonlyMap<string, Point> }) => {
  const store = useContext(MapMotion);
  const key = useStore(useCallback((s: ReactFlowState) => motionKey(s.nodeLookup.values(), routedAt), [routedAt]));
  useLayoutEffect(() => {
    if (store) store.set(motionOf(key));
  }, [store, key]);
  return null;
};

/** What React Flow calls back: selecting or opening (clicks, double-clicks) and, on the editing map, the edits. */
type FlowHandlers = MapEditor['flow'] & {
  onNodeClick: (e: unknown, node: Node) => void;
  onEdgeClick: (e: unknown, edge: Edge) => void;
  onNodeDoubleClick: (e: unknown, node: Node) => void;
  onEdgeDoubleClick: (e: unknown, edge: Edge) => void;
};

/** The laid-out map: React Flow with its nodes, edges, controls, and a minimap when the map is bigger than the view; an editing surface when `editing` is given. */
const MapView = ({ videos, onOpen, stats, height = 560, label = 'Funnel map', editing }: FunnelMapProps) => {
  const layout = useLayout(videos, stats);
  const byId = useMemo(() => new Map(layout.nodes.map((n) => [n.id, n])), [layout]);
  const edgeById = useMemo(() => new Map(layout.edges.map((e) => [e.id, e])), [layout]);
  const { nodes, edges } = useFlowElements(layout, byId, stats, onOpen, Boolean(editing));
  const editor = useMapEditing(editing, layout, edgeById);
  const area = useRef<HTMLDivElement>(null);
  const { focusedEdge, current, select, click, openItem, onFocus, onBlur, onKeyDown } = useMapInteractions({
    layout,
    byId,
    edgeById,
    videos,
    onOpen,
    editing,
    editor,
    area,
  });
  // Stable for the map's life: React Flow hands them to every edge, and a new one draws all 600 again.
  const handlers = useStableHandlers({
    onNodeClick: (_: unknown, node: Node) => click({ kind: 'node', id: node.id }),
    onEdgeClick: (_: unknown, edge: Edge) => click({ kind: 'edge', id: edge.id }),
    onNodeDoubleClick: (_: unknown, node: Node) => openItem({ kind: 'node', id: node.id }),
    onEdgeDoubleClick: (_: unknown, edge: Edge) => openItem({ kind: 'edge', id: edge.id }),
    pickEdge: (id: string) => select({ kind: 'edge', id }),
    openEdge: (id: string) => openItem({ kind: 'edge', id }),
    ...editor?.flow,
  } satisfies Partial<FlowHandlers> & { pickEdge: (id: string) => void; openEdge: (id: string) => void });
  const pick = useMemo(() => (editor ? { select: handlers.pickEdge, open: handlers.openEdge } : null), [editor, handlers]);
  const motion = useMotion(layout);

  return (
    <div ref={area}>
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
          // Where videos move and branches are drawn, a finger on a video or its dot drags it instead of scrolling the page.
          ...(editor ? { '& .react-flow__node, & .react-flow__handle': { touchAction: 'none' } } : {}),
        }}
        onKeyDown={onKeyDown}
        onFocus={onFocus}
        onBlur={onBlur}
        aria-label={label}
        aria-describedby={editor ? 'funnel-map-help' : undefined}
        role="region"
        data-testid="funnel-map"
      >
        <FocusedEdge.Provider value={focusedEdge}>
          <SelectedItem.Provider value={current?.id ?? null}>
            <PickEdge.Provider value={pick}>
              <MapMotion.Provider value={motion.store}>
                <LabelLayer>
                  <FlowCanvas
                    nodes={nodes}
                    edges={edges}
                    layout={layout}
                    routedAt={motion.routedAt}
                    edits={Boolean(editor)}
                    handlers={handlers}
                    opens={Boolean(onOpen)}
                  />
                </LabelLayer>
              </MapMotion.Provider>
            </PickEdge.Provider>
          </SelectedItem.Provider>
        </FocusedEdge.Provider>
      </Box>
      {/* After the map, so Tab from the page's header enters the map first. */}
      {editor && (
        <Suspense fallback={null}>
          <MapToolbar editor={editor} current={current} byId={byId} edgeById={edgeById} onEdit={openItem} />
          <MapStatus announcement={editor.announcement} />
        </Suspense>
      )}
    </div>
  );
};

/**
 * React Flow itself. A drag re-renders only this (the dragged node's place is local state until
 * the drop), so the toolbar, the keyboard handling and the document stay as they are meanwhile.
 */
const FlowCanvas = memo(
  ({
    nodes,
    edges,
    layout,
    routedAt,
    edits,
    handlers,
    opens,
  }: {
    nodes: Node<VideoNodeData>[];
    edges: Edge[];
    layout: FunnelLayout;
    routedAt: ReadonlyMap<string, Point>;
    edits: boolean;
    handlers: FlowHandlers;
    opens: boolean;
  }) => {
    const initial = useOwnedNodes(nodes, edits);
    const [big, setBig] = useState(false);
    const labels = useMemo(() => ariaLabels(opens, edits), [opens, edits]);
    return (
      <ReactFlow
        {...(edits ? { defaultNodes: initial } : { nodes })}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodeClick={handlers.onNodeClick}
        onEdgeClick={opens || edits ? handlers.onEdgeClick : undefined}
        {...(edits
          ? {
              // A click selects for the toolbar; a double-click opens in the editor (not a zoom).
              onNodeDoubleClick: handlers.onNodeDoubleClick,
              onEdgeDoubleClick: handlers.onEdgeDoubleClick,
              zoomOnDoubleClick: false,
              onNodeDragStop: handlers.onNodeDragStop,
              onConnect: handlers.onConnect,
              onConnectEnd: handlers.onConnectEnd,
              onReconnect: handlers.onReconnect,
              onReconnectEnd: handlers.onReconnectEnd,
              onReconnectStart: handlers.onReconnectStart,
              isValidConnection: handlers.isValidConnection,
            }
          : {})}
        nodesDraggable={edits}
        nodesConnectable={edits}
        edgesReconnectable={edits}
        deleteKeyCode={null}
        elementsSelectable={false}
        nodesFocusable
        edgesFocusable
        autoPanOnNodeFocus={false}
        // A branch's end dragged from a video at the map's border must not slide the map under the pointer.
        autoPanOnConnect={false}
        minZoom={0.1}
        maxZoom={1.5}
        ariaLabelConfig={labels}
      >
        <InitialView layout={layout} onBig={setBig} />
        <MotionTracker routedAt={routedAt} />
        <Background gap={24} color="#d5d7db" />
        <Controls showInteractive={false} />
        {big && <MiniMap pannable zoomable nodeColor={(n) => ((n.data as VideoNodeData).node.root ? '#1b5e20' : '#b8bcc4')} />}
      </ReactFlow>
    );
  },
);
FlowCanvas.displayName = 'FlowCanvas';

const labelLayerOf = (s: ReactFlowState) => s.domNode?.querySelector('.react-flow__edgelabel-renderer') ?? null;

/** Gives the edges React Flow's label layer once it exists (the flow inside needs the provider's store). */
const LabelLayer = ({ children }: { children: ReactNode }) => {
  const [layer, setLayer] = useState<Element | null>(null);
  return (
    <EdgeLabels.Provider value={layer}>
      {children}
      <FindLabelLayer onFound={setLayer} />
    </EdgeLabels.Provider>
  );
};

/** Inside React Flow: reports its label layer (one lookup per store change, not one per edge). */
const FindLabelLayer = ({ onFound }: { onFound: (layer: Element | null) => void }) => {
  const layer = useStore(labelLayerOf);
  useEffect(() => onFound(layer), [layer, onFound]);
  return null;
};

/** What a screen reader says a node or an edge does. */
const ariaLabels = (opens: boolean, edits: boolean) => ({
  'node.a11yDescription.default': edits
    ? 'Press Space to select this video for the map’s buttons, Enter to open it in the editor, B to branch from it to another video, Delete to remove it from the funnel; Right arrow goes to its branches.'
    : opens
      ? 'Press Enter to open this video in the editor; Right arrow goes to its branches.'
      : 'A video of the funnel; Right arrow goes to its branches.',
  'edge.a11yDescription.default': edits
    ? 'Press Space to select this branch for the map’s buttons, Enter to edit it in its video, T to change where it leads, Delete to delete it; Right arrow goes to where it leads, Left arrow to its video, Up and Down arrows to the video’s other branches.'
    : opens
      ? 'Press Enter to edit this branch in its video; Right arrow goes to where it leads, Left arrow to its video, Up and Down arrows to the video’s other branches.'
      : 'Right arrow goes to where it leads, Left arrow to its video, Up and Down arrows to the video’s other branches.',
  'minimap.ariaLabel': 'Overview of the whole map',
});
