import { useEffect, useRef } from 'react';
import { useReactFlow, useStore } from '@xyflow/react';
import type { FunnelLayout } from './funnel-graph';

/** The smallest zoom the map opens at: node titles and edge labels stay readable; a bigger map is panned. */
const READABLE_ZOOM = 0.8;
const VIEW_PADDING = 16;

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
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !ready || width <= 0 || height <= 0 || layout.nodes.length === 0) return;
    done.current = true;
    const left = layout.left ?? 0;
    const top = layout.top ?? 0;
    const mapWidth = layout.width - left;
    const mapHeight = layout.height - top;
    const fit = Math.min((width - 2 * VIEW_PADDING) / mapWidth, (height - 2 * VIEW_PADDING) / mapHeight, 1);
    if (fit >= READABLE_ZOOM) {
      void setViewport({ x: (width - mapWidth * fit) / 2 - left * fit, y: (height - mapHeight * fit) / 2 - top * fit, zoom: fit });
      onBig(false);
      return;
    }
    const zoom = READABLE_ZOOM;
    const root = layout.nodes.find((n) => n.root) ?? layout.nodes[0];
    const centreY = root.box.y + root.box.height / 2;
    // The start video at the left, level with the middle, without scrolling past the map's top or bottom.
    const y = Math.min(VIEW_PADDING - top * zoom, Math.max(height - VIEW_PADDING - layout.height * zoom, height / 2 - centreY * zoom));
    void setViewport({ x: VIEW_PADDING - root.box.x * zoom, y, zoom });
    onBig(true);
  }, [ready, width, height, layout, setViewport, onBig]);
  useRevealNew(layout);
  return null;
};

/** A video added on the map comes into view: the whole map when it fits at a readable zoom, else centred on it at the same zoom. */
const useRevealNew = (layout: FunnelLayout) => {
  const { fitView, setCenter, getViewport } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
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
    const fit = Math.min(
      (width - 2 * VIEW_PADDING) / (layout.width - (layout.left ?? 0)),
      (height - 2 * VIEW_PADDING) / (layout.height - (layout.top ?? 0)),
      1,
    );
    if (fit >= READABLE_ZOOM) void fitView({ padding: 0.12, maxZoom: 1 });
    else void setCenter(added[0].box.x + added[0].box.width / 2, added[0].box.y + added[0].box.height / 2, { zoom });
  }, [layout, width, height, fitView, setCenter, getViewport]);
};
