import { memo, type KeyboardEvent } from 'react';
import { Rnd, type RndDragCallback, type RndResizeCallback } from 'react-rnd';
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { FunnelElement } from '@branchify/shared';
import type { DocumentStore } from './document-store';
import { formatTimecode, moveBar, pxToTime, resizeBar, snapTime, timeToPx, type Bar, type TimelineScale } from './timeline-math';

/** A timeline row's height and the bar's inside it (pixels). */
export const ROW_H = 30;
const BAR_H = 24;

export const elementLabel = (e: FunnelElement): string =>
  e.type === 'text' ? `Text: ${e.data.title || 'empty'}` : `Branch: ${e.data.prompt.text || e.data.branches.map((b) => b.name).join(', ') || 'no buttons'}`;

/**
 * Where a dragged bar starts: its start snapped to a target, unless its end landed on one
 * (whichever edge landed on a target decides where the bar goes).
 */
const draggedShowAt = (bar: Bar, startPx: number, snapTargets: number[], scale: TimelineScale): number => {
  const length = bar.hideAt - bar.showAt;
  const start = snapTime(pxToTime(startPx, scale), snapTargets, scale);
  const end = snapTime(start + length, snapTargets, scale);
  return end !== start + length ? end - length : start;
};

/** Arrow keys move the bar by 0.1 s (Shift: 1 s); Enter and Space select its element. */
const barKeys = (store: DocumentStore, element: FunnelElement, scale: TimelineScale) => (e: KeyboardEvent) => {
  const step = e.shiftKey ? 1 : 0.1;
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
    e.preventDefault();
    store.setTiming(element.id, moveBar(element, element.showAt + (e.key === 'ArrowLeft' ? -step : step), scale.duration));
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    store.selectElement(element.id);
  }
};

/** Dropping a dragged bar moves it (snapped); dropping a resized edge moves that edge (snapped). */
const useBarDrop = (store: DocumentStore, element: FunnelElement, scale: TimelineScale, x: number, snapTargetsFor: (id: string) => number[]) => {
  const bar: Bar = { showAt: element.showAt, hideAt: element.hideAt };
  const onDragStop: RndDragCallback = (_e, d) => {
    if (Math.abs(d.x - x) < 1) return;
    store.setTiming(element.id, moveBar(bar, draggedShowAt(bar, d.x, snapTargetsFor(element.id), scale), scale.duration));
  };
  const onResizeStop: RndResizeCallback = (_e, dir, node, _delta, pos) => {
    const snapTargets = snapTargetsFor(element.id);
    const edge = dir === 'left' ? 'start' : 'end';
    const px = edge === 'start' ? pos.x : pos.x + node.offsetWidth;
    store.setTiming(element.id, resizeBar(bar, edge, snapTime(pxToTime(px, scale), snapTargets, scale), scale.duration));
  };
  return { onDragStop, onResizeStop };
};

const barSx = (element: FunnelElement, selected: boolean): SxProps<Theme> => ({
  height: '100%',
  borderRadius: 1,
  px: 1,
  fontSize: 12,
  lineHeight: `${BAR_H}px`,
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  cursor: 'grab',
  color: 'common.white',
  bgcolor: element.type === 'text' ? '#00695c' : 'primary.main',
  outline: selected ? '2px solid' : 'none',
  outlineColor: 'warning.main',
  outlineOffset: 1,
  opacity: element.active === false ? 0.5 : 1,
});

const SIDES_ONLY = { left: true, right: true, top: false, bottom: false, topLeft: false, topRight: false, bottomLeft: false, bottomRight: false };

/** One element's bar from showAt to hideAt: drag it to move, drag an edge to resize, or use the keys. */
export const TimelineBar = memo(
  ({
    store,
    element,
    scale,
    selected,
    snapTargetsFor,
  }: {
    store: DocumentStore;
    element: FunnelElement;
    scale: TimelineScale;
    selected: boolean;
    snapTargetsFor: (id: string) => number[];
  }) => {
    const x = timeToPx(element.showAt, scale);
    const w = Math.max(4, timeToPx(element.hideAt - element.showAt, scale));
    const label = elementLabel(element);
    const { onDragStop, onResizeStop } = useBarDrop(store, element, scale, x, snapTargetsFor);
    return (
      <Rnd
        bounds="parent"
        dragAxis="x"
        position={{ x, y: (ROW_H - BAR_H) / 2 }}
        size={{ width: w, height: BAR_H }}
        minWidth={4}
        enableResizing={SIDES_ONLY}
        onDragStart={() => store.selectElement(element.id)}
        onDragStop={onDragStop}
        onResizeStart={() => store.selectElement(element.id)}
        onResizeStop={onResizeStop}
      >
        <Box
          role="button"
          tabIndex={0}
          aria-pressed={selected}
          aria-label={`${label}, from ${formatTimecode(element.showAt)} to ${formatTimecode(element.hideAt)}`}
          data-testid="timeline-bar"
          data-element-id={element.id}
          onKeyDown={barKeys(store, element, scale)}
          onFocus={() => store.selectElement(element.id)}
          sx={barSx(element, selected)}
        >
          {label}
        </Box>
      </Rnd>
    );
  },
);
TimelineBar.displayName = 'TimelineBar';
