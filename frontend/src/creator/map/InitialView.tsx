import { useEffect, useRef } from 'react';
import { useReactFlow, useStore } from '@xyflow/react';
import type { FunnelLayout } from './funnel-graph';

/** The smallest zoom the map opens at: node titles and edge labels stay readable; a bigger map is panned. */
const READABLE_ZOOM = 0.8;
const VIEW_PADDING = 16;

/** The room the zoom buttons take at the map's bottom-left (measured; a guess before they are drawn). */
const controlsRoom = (dom: HTMLElement | null): { right: number; top: number } => {
  const controls = dom?.querySelector('.react-flow__controls');
  if (!dom || !controls) return { right: 56, top: Infinity };
  const outer = dom.getBoundingClientRect();
  const box = controls.getBoundingClientRect();
  return { right: box.right - outer.left, top: box.top - outer.top };
};

/**
 * The view that shows the whole map at the largest zoom up to 1, clear of the zoom buttons: the
 * map either starts right of them or ends above them, whichever leaves it bigger.
 */
const wholeMapView = (layout: FunnelLayout, width: number, height: number, controls: { right: number; top: number }) => {
  const left = layout.left ?? 0;
  const top = layout.top ?? 0;
  const mapWidth = layout.width - left;
  const mapHeight = layout.height - top;
  const zoomIn = (w: number, h: number) => Math.min(w / mapWidth, h / mapHeight, 1);
  const beside = { x0: controls.right + VIEW_PADDING, y0: VIEW_PADDING, w: width - controls.right - 2 * VIEW_PADDING, h: height - 2 * VIEW_PADDING };
  const over = { x0: VIEW_PADDING, y0: VIEW_PADDING, w: width - 2 * VIEW_PADDING, h: Math.min(height, controls.top) - (3 * VIEW_PADDING) / 2 };
  const [room, zoom] = [beside, over].map((r) => [r, zoomIn(r.w, r.h)] as const).reduce((best, next) => (next[1] > best[1] ? next : best));
  return { x: room.x0 + (room.w - mapWidth * zoom) / 2 - left * zoom, y: room.y0 + (room.h - mapHeight * zoom) / 2 - top * zoom, zoom };
};

/**
 * The first view: the whole map when it fits at a readable zoom, otherwise the start video at
 * the left at that zoom (the rest is panned to, or reached by keyboard). Set once, so editing
 * the funnel keeps where the user looked.
 */
export const InitialView = ({ layout, onBig }: { layout: FunnelLayout; onBig: (big: boolean) => void }) => {
  const { setViewport } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const ready = useStore((s) => Boolean(s.panZoom));
  const dom = useStore((s) => s.domNode);
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !ready || width <= 0 || height <= 0 || layout.nodes.length === 0) return;
    done.current = true;
    const controls = controlsRoom(dom);
    const whole = wholeMapView(layout, width, height, controls);
    if (whole.zoom >= READABLE_ZOOM) {
      void setViewport(whole);
      onBig(false);
      return;
    }
    const zoom = READABLE_ZOOM;
    const top = layout.top ?? 0;
    const root = layout.nodes.find((n) => n.root) ?? layout.nodes[0];
    const centreY = root.box.y + root.box.height / 2;
    // The start video at the left (right of the zoom buttons), level with the middle, without scrolling past the map's top or bottom.
    const y = Math.min(VIEW_PADDING - top * zoom, Math.max(height - VIEW_PADDING - layout.height * zoom, height / 2 - centreY * zoom));
    void setViewport({ x: controls.right + VIEW_PADDING - root.box.x * zoom, y, zoom });
    onBig(true);
  }, [ready, width, height, layout, setViewport, onBig, dom]);
  useRevealNew(layout);
  return null;
};

/** A video added on the map comes into view: the whole map when it fits at a readable zoom, else centred on it at the same zoom. */
const useRevealNew = (layout: FunnelLayout) => {
  const { setViewport, setCenter, getViewport } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const dom = useStore((s) => s.domNode);
  const known = useRef<Set<string> | null>(null);
  useEffect(() => {
    const ids = new Set(layout.nodes.filter((n) => n.kind === 'video').map((n) => n.id));
    const before = known.current;
    known.current = ids;
    if (!before || before.size === 0) return;
    const added = layout.nodes.filter((n) => n.kind === 'video' && !before.has(n.id));
    if (added.length === 0 || width <= 0) return;
    const { x, y, zoom } = getViewport();
    const inView = added.every(
      (n) => n.box.x * zoom + x >= 0 && n.box.y * zoom + y >= 0 && (n.box.x + n.box.width) * zoom + x <= width && (n.box.y + n.box.height) * zoom + y <= height,
    );
    if (inView) return;
    const whole = wholeMapView(layout, width, height, controlsRoom(dom));
    if (whole.zoom >= READABLE_ZOOM) void setViewport(whole);
    else void setCenter(added[0].box.x + added[0].box.width / 2, added[0].box.y + added[0].box.height / 2, { zoom });
  }, [layout, width, height, setViewport, setCenter, getViewport, dom]);
};
