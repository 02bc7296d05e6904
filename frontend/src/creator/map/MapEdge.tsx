import { memo, useContext } from 'react';
import './map-labels.css';
import { createPortal } from 'react-dom';
import { BaseEdge, getBezierPath, type Edge, type EdgeProps } from '@xyflow/react';
import { conditionLabel, shortLabel, type LaidOutEdge, type LaidOutNode, type Point } from './funnel-graph';
import { useEdgeMotion } from './map-motion';
import { routePath } from './map-routes';
import {
  DANGER,
  EdgeLabels,
  FOCUS,
  FocusedEdge,
  PickEdge,
  SELECTED,
  SelectedItem,
  edgeColor,
  percent,
  plural,
  type EdgeFigures,
  type RoutedEdgeData,
} from './map-shared';

/** A smooth path through dagre's points. */
const pathThrough = (points: Point[]): string => {
  if (points.length === 0) return '';
  const [first, ...rest] = points;
  let d = `M ${first.x} ${first.y}`;
  if (rest.length === 1) return `${d} L ${rest[0].x} ${rest[0].y}`;
  for (let i = 0; i < rest.length - 1; i += 1) {
    const c = rest[i];
    const next = rest[i + 1];
    const end = i === rest.length - 2 ? next : { x: (c.x + next.x) / 2, y: (c.y + next.y) / 2 };
    d += ` Q ${c.x} ${c.y} ${end.x} ${end.y}`;
  }
  return d;
};

/** The edge's path: its own route between its handles, else dagre's points; a plain curve while one of its videos is dragged away. */
const edgePath = (edge: LaidOutEdge, offRoute: boolean, ends: Parameters<typeof getBezierPath>[0]): string => {
  if (offRoute || (!edge.route && edge.points.length === 0)) return getBezierPath(ends)[0];
  if (edge.route) return routePath(edge.route, { x: ends.sourceX, y: ends.sourceY }, { x: ends.targetX, y: ends.targetY });
  return pathThrough(edge.points);
};

/** An edge of the map: its route (dagre's, or its own round the cards) and its label on it (the button's text, and its figures). */
export const RoutedEdge = memo(
  ({ id, source, target, data, markerEnd, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition }: EdgeProps<Edge<RoutedEdgeData>>) => {
    const focused = useContext(FocusedEdge) === id;
    const selected = useContext(SelectedItem) === id;
    const { moving, offRoute } = useEdgeMotion(source, target);
    if (!data) return null;
    const { edge, stats } = data;
    const color = edgeColor(edge);
    const labelBox = edge.labelBox;
    return (
      <MapEdgeView
        id={id}
        data={data}
        color={color}
        focused={focused}
        selected={selected}
        path={edgePath(edge, offRoute, { sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition })}
        moving={moving}
        labelBox={labelBox}
        markerEnd={markerEnd}
        stats={stats}
      />
    );
  },
);
RoutedEdge.displayName = 'RoutedEdge';

const MapEdgeView = ({
  data: { edge },
  color,
  focused,
  selected,
  path,
  labelBox,
  markerEnd,
  stats,
  moving,
}: {
  id: string;
  data: RoutedEdgeData;
  color: string;
  focused: boolean;
  /** What the toolbar acts on. */
  selected: boolean;
  path: string;
  labelBox: LaidOutEdge['labelBox'];
  markerEnd?: string;
  stats: RoutedEdgeData['stats'];
  /** One of its videos is being dragged: the label waits for the drop. */
  moving: boolean;
}) => {
  // One shared layer for every label (React Flow's EdgeLabelRenderer looks it up per edge on every store change).
  const labels = useContext(EdgeLabels);
  const pick = useContext(PickEdge);
  const ring = focused ? `3px solid ${FOCUS}` : selected ? `3px solid ${SELECTED}` : 'none';
  return (
    <>
      <BaseEdge
        path={path}
        markerEnd={markerEnd}
        style={{
          stroke: focused ? FOCUS : selected ? SELECTED : color,
          strokeWidth: focused || selected ? 4 : 2,
          strokeDasharray: edge.broken || edge.kind === 'inaction' ? '6 4' : edge.linkOut ? '2 4' : undefined,
        }}
      />
      {labels &&
        !moving &&
        createPortal(
          <div
            className={pick ? 'branchify-map-label branchify-map-label-pickable nopan' : 'branchify-map-label'}
            onClick={pick ? () => pick.select(edge.id) : undefined}
            onDoubleClick={pick ? () => pick.open(edge.id) : undefined}
            style={{
              transform: `translate(${labelBox.x}px, ${labelBox.y}px)`,
              width: labelBox.width,
              height: labelBox.height,
              background: edge.linkOut ? '#f1f8f6' : '#fff',
              border: `1px solid ${color}`,
              outline: ring,
              color: edge.broken ? DANGER : '#1f2328',
            }}
            data-testid={`map-edge-${edge.id}`}
          >
            <div>{shortLabel(edge.label)}</div>
            {edge.condition && (
              <div className="branchify-map-label-condition" data-testid={`map-edge-condition-${edge.id}`}>
                {shortLabel(conditionLabel(edge.condition))}
              </div>
            )}
            {stats !== undefined && (
              <div className="branchify-map-label-stats" data-testid={`map-edge-stats-${edge.id}`}>
                {stats ? `${plural(stats.viewers, 'view')} · ${percent(stats.share)}` : 'not counted'}
              </div>
            )}
          </div>,
          labels,
        )}
    </>
  );
};

/** "Branch 'Yes' from Intro to Offer, 12 views (40%)": what the edge does, where, and its figures. */
export const edgeName = (
  edge: LaidOutEdge,
  source: LaidOutNode | undefined,
  target: LaidOutNode | undefined,
  stats: EdgeFigures | null | undefined,
): string => {
  const what = `${edge.kind === 'inaction' ? `Default when no choice is made, '${edge.text}'` : `Branch '${edge.text}'`}${
    edge.condition ? ` (${conditionLabel(edge.condition)})` : ''
  }`;
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
