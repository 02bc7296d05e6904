import { useMemo, useState } from 'react';
import type { Edge, Node } from '@xyflow/react';
import { edgeStatsKey, type FunnelLayout, type LaidOutEdge, type LaidOutNode, type MapStats } from './funnel-graph';
import { edgeName } from './MapEdge';
import { nodeName } from './MapNode';
import { edgeColor, type EdgeFigures, type FunnelMapProps, type RoutedEdgeData, type VideoNodeData } from './map-shared';

/** Each edge's figures: undefined without stats, null when the player does not count it, else its viewers and share. */
const useEdgeStats = (layout: FunnelLayout, stats: MapStats | undefined) =>
  useMemo(() => {
    const figures = new Map<string, EdgeFigures | null | undefined>();
    for (const edge of layout.edges) {
      if (!stats) figures.set(edge.id, undefined);
      else if (edge.branchId === null) figures.set(edge.id, null);
      else figures.set(edge.id, stats.edges.get(edgeStatsKey(edge.kind, edge.source, edge.branchId)) ?? { viewers: 0, share: 0 });
    }
    return figures;
  }, [layout, stats]);

/** Each node's figures; a link out's viewers are everyone who left the funnel through the edges into it. */
const useNodeStats = (layout: FunnelLayout, stats: MapStats | undefined, edgeStats: ReadonlyMap<string, EdgeFigures | null | undefined>) =>
  useMemo(() => {
    if (!stats) return undefined;
    const figures = new Map(stats.nodes);
    for (const edge of layout.edges) {
      if (!edge.linkOut) continue;
      const before = figures.get(edge.target)?.viewers ?? 0;
      figures.set(edge.target, { viewers: before + (edgeStats.get(edge.id)?.viewers ?? 0), dropOff: null });
    }
    return figures;
  }, [layout, stats, edgeStats]);

/** The layout as React Flow's nodes and edges, each with its accessible name and role (buttons when the map opens things). */
export const useFlowElements = (
  layout: FunnelLayout,
  byId: ReadonlyMap<string, LaidOutNode>,
  stats: MapStats | undefined,
  onOpen: FunnelMapProps['onOpen'],
  editable = false,
) => {
  const edgeStats = useEdgeStats(layout, stats);
  const nodeStats = useNodeStats(layout, stats, edgeStats);
  // A node's content that is the same as before keeps its object, so a moved node is not drawn again (only placed).
  const [previousData] = useState(() => new Map<string, { key: string; data: VideoNodeData }>());
  const nodes = useMemo(
    () =>
      layout.nodes.map((node): Node<VideoNodeData> => {
        const opens = Boolean(onOpen) && node.kind === 'video';
        const fresh: VideoNodeData = { node, stats: nodeStats?.get(node.id), jumps: stats?.jumps, editable };
        const key = JSON.stringify([{ ...node, box: { width: node.box.width, height: node.box.height } }, fresh.stats ?? null, editable]);
        const kept = previousData.get(node.id);
        const data = kept?.key === key && kept.data.jumps === fresh.jumps ? kept.data : fresh;
        previousData.set(node.id, { key, data });
        return {
          id: node.id,
          type: 'video',
          position: { x: node.box.x, y: node.box.y },
          width: node.box.width,
          height: node.box.height,
          data,
          // A button is named by what it shows (its flags, title, duration); a group by a sentence.
          ariaLabel: opens ? undefined : nodeName(node, nodeStats?.get(node.id)),
          ariaRole: opens ? 'button' : 'group',
          draggable: editable && node.kind === 'video',
          connectable: editable && node.kind === 'video',
          focusable: true,
          ...(editable && node.kind === 'video' ? { domAttributes: { 'aria-keyshortcuts': 'Enter B Delete' } } : {}),
        };
      }),
    [layout, stats, nodeStats, onOpen, editable, previousData],
  );
  // An edge that draws the same as before keeps its object, so React Flow leaves it alone (a drop re-renders only what moved).
  const [previous] = useState(() => new Map<string, { key: string; edge: Edge<RoutedEdgeData> }>());
  const edges = useMemo(
    () =>
      layout.edges.map((edge): Edge<RoutedEdgeData> => {
        const figures = edgeStats.get(edge.id);
        const ariaLabel = edgeName(edge, byId.get(edge.source), byId.get(edge.target), figures);
        const key = drawKey(edge, figures, ariaLabel, Boolean(onOpen), editable);
        const kept = previous.get(edge.id);
        if (kept?.key === key) return kept.edge;
        const made = flowEdge(edge, figures, ariaLabel, Boolean(onOpen), editable);
        previous.set(edge.id, { key, edge: made });
        return made;
      }),
    [layout, byId, edgeStats, onOpen, editable, previous],
  );
  return { nodes, edges };
};

/** Everything an edge is drawn and named from, as one string (its route by identity: the automatic layout keeps it until the graph changes). */
const routeIds = new WeakMap<object, number>();
let routeSeq = 0;
const routeId = (points: object): number => {
  let id = routeIds.get(points);
  if (id === undefined) routeIds.set(points, (id = routeSeq += 1));
  return id;
};
const drawKey = (edge: LaidOutEdge, figures: EdgeFigures | null | undefined, ariaLabel: string, opens: boolean, editable: boolean): string =>
  JSON.stringify([
    edge.source,
    edge.target,
    edge.kind,
    edge.label,
    edge.text,
    edge.condition,
    edge.elementId,
    edge.branchId,
    edge.broken,
    edge.linkOut,
    edge.labelBox,
    edge.routedFrom ?? null,
    edge.route ?? null,
    routeId(edge.points),
    figures ?? null,
    ariaLabel,
    opens,
    editable,
  ]);

const flowEdge = (edge: LaidOutEdge, figures: EdgeFigures | null | undefined, ariaLabel: string, opens: boolean, editable: boolean): Edge<RoutedEdgeData> => ({
  id: edge.id,
  source: edge.source,
  target: edge.target,
  type: 'routed',
  data: { edge, stats: figures },
  ariaLabel,
  ariaRole: opens ? 'button' : 'group',
  markerEnd: { type: 'arrowclosed' as never, color: edgeColor(edge) },
  focusable: true,
  selectable: false,
  // A button's end can be dragged to another video; an inaction default follows its button.
  reconnectable: editable && edge.kind === 'branch' ? ('target' as const) : false,
  ...(editable && edge.kind === 'branch' ? { domAttributes: { 'aria-keyshortcuts': 'Enter T Delete' } } : {}),
});
