import { memo, useCallback, useContext, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { BaseEdge, getBezierPath, useStore, type Edge, type EdgeProps, type ReactFlowState } from '@xyflow/react';
import Box from '@mui/material/Box';
import { conditionLabel, shortLabel, type LaidOutEdge, type LaidOutNode, type Point } from './funnel-graph';
import { DANGER, EdgeLabels, FOCUS, FocusedEdge, edgeColor, percent, plural, type EdgeFigures, type RoutedEdgeData } from './map-shared';

/** What every edge label shares (plain styles: a label moves with every frame of a drag, and a styled component would make a class per place). */
const LABEL_STYLE: CSSProperties = {
  position: 'absolute',
  boxSizing: 'border-box',
  padding: '4px 6px',
  borderRadius: 4,
  outlineOffset: 1,
  fontSize: 12,
  lineHeight: '18px',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textAlign: 'center',
  pointerEvents: 'none',
};

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

/** Whether both ends of the edge are where its route was laid out (a moved video's edges are drawn as curves instead). */
const useStillRouted = (source: string, target: string, data: RoutedEdgeData | undefined): boolean =>
  useStore(
    useCallback(
      (s: ReactFlowState) => {
        const from = data?.edge.routedFrom;
        if (!from || !data?.edge.points.length) return false;
        const a = s.nodeLookup.get(source)?.position;
        const b = s.nodeLookup.get(target)?.position;
        return Boolean(a && b && a.x === from.source.x && a.y === from.source.y && b.x === from.target.x && b.y === from.target.y);
      },
      [source, target, data],
    ),
  );

/** An edge of the map: its path through dagre's points (a curve once a video has moved) and its label (the button's text, and its figures). */
export const RoutedEdge = memo(
  ({ id, source, target, data, markerEnd, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition }: EdgeProps<Edge<RoutedEdgeData>>) => {
    const focused = useContext(FocusedEdge) === id;
    const routed = useStillRouted(source, target, data);
    const moving = useStore(
      useCallback((s: ReactFlowState) => Boolean(s.nodeLookup.get(source)?.dragging || s.nodeLookup.get(target)?.dragging), [source, target]),
    );
    if (!data) return null;
    const { edge, stats } = data;
    const color = edgeColor(edge);
    const [curve, labelX, labelY] = routed ? [''] : getBezierPath({ sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition });
    const labelBox = routed ? edge.labelBox : { ...edge.labelBox, x: labelX! - edge.labelBox.width / 2, y: labelY! - edge.labelBox.height / 2 };
    return (
      <MapEdgeView
        id={id}
        data={data}
        color={color}
        focused={focused}
        path={routed ? pathThrough(edge.points) : curve}
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
  path: string;
  labelBox: LaidOutEdge['labelBox'];
  markerEnd?: string;
  stats: RoutedEdgeData['stats'];
  /** One of its videos is being dragged: the label waits for the drop. */
  moving: boolean;
}) => {
  // One shared layer for every label (React Flow's EdgeLabelRenderer looks it up per edge on every store change).
  const labels = useContext(EdgeLabels);
  return (
    <>
      <BaseEdge
        path={path}
        markerEnd={markerEnd}
        style={{
          stroke: focused ? FOCUS : color,
          strokeWidth: focused ? 4 : 2,
          strokeDasharray: edge.broken || edge.kind === 'inaction' ? '6 4' : edge.linkOut ? '2 4' : undefined,
        }}
      />
      {labels &&
        !moving &&
        createPortal(
          <div
            style={{
              ...LABEL_STYLE,
              transform: `translate(${labelBox.x}px, ${labelBox.y}px)`,
              width: labelBox.width,
              height: labelBox.height,
              background: edge.linkOut ? '#f1f8f6' : '#fff',
              border: `1px solid ${color}`,
              outline: focused ? `3px solid ${FOCUS}` : 'none',
              color: edge.broken ? DANGER : '#1f2328',
            }}
            data-testid={`map-edge-${edge.id}`}
          >
            <div>{shortLabel(edge.label)}</div>
            {edge.condition && (
              <Box sx={{ fontStyle: 'italic' }} data-testid={`map-edge-condition-${edge.id}`}>
                {shortLabel(conditionLabel(edge.condition))}
              </Box>
            )}
            {stats !== undefined && (
              <Box sx={{ fontWeight: 700 }} data-testid={`map-edge-stats-${edge.id}`}>
                {stats ? `${plural(stats.viewers, 'view')} · ${percent(stats.share)}` : 'not counted'}
              </Box>
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
