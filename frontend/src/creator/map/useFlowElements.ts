import { useMemo } from 'react';
import type { Edge, Node } from '@xyflow/react';
import { edgeStatsKey, type FunnelLayout, type LaidOutNode, type MapStats } from './funnel-graph';
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
          data: { node, stats: nodeStats?.get(node.id), jumps: stats?.jumps, editable },
          // A button is named by what it shows (its flags, title, duration); a group by a sentence.
          ariaLabel: opens ? undefined : nodeName(node, nodeStats?.get(node.id)),
          ariaRole: opens ? 'button' : 'group',
          draggable: editable && node.kind === 'video',
          connectable: editable && node.kind === 'video',
          focusable: true,
          ...(editable && node.kind === 'video' ? { domAttributes: { 'aria-keyshortcuts': 'Enter B Delete' } } : {}),
        };
      }),
    [layout, stats, nodeStats, onOpen, editable],
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
          // A button's end can be dragged to another video; an inaction default follows its button.
          reconnectable: editable && edge.kind === 'branch' ? ('target' as const) : false,
          ...(editable && edge.kind === 'branch' ? { domAttributes: { 'aria-keyshortcuts': 'Enter T Delete' } } : {}),
        };
      }),
    [layout, byId, edgeStats, onOpen, editable],
  );
  return { nodes, edges };
};
