import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import type { Point } from './funnel-graph';

/** Which videos are being dragged, and which stand away from where the automatic layout routed their edges. */
export interface Motion {
  dragging: ReadonlySet<string>;
  offRoute: ReadonlySet<string>;
}

/**
 * The map's motion, read once per React Flow store change for the whole map (not by a selector on
 * each of hundreds of edges on every pointer move); an edge renders again only when its own
 * reading changes, which happens when a drag starts, first moves and ends.
 */
export class MotionStore {
  private readonly listeners = new Set<() => void>();

  constructor(private motion: Motion) {}

  get = (): Motion => this.motion;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(motion: Motion): void {
    this.motion = motion;
    for (const listener of [...this.listeners]) listener();
  }
}

export const MapMotion = createContext<MotionStore | null>(null);

/** One line per dragged video (`d`) and per video away from its routed place (`o`): equal strings, equal motion. */
export const motionKey = (nodes: Iterable<{ id: string; position: Point; dragging?: boolean }>, routedAt: ReadonlyMap<string, Point>): string => {
  let key = '';
  for (const node of nodes) {
    if (node.dragging) key += `d${node.id}\n`;
    const at = routedAt.get(node.id);
    if (at && (at.x !== node.position.x || at.y !== node.position.y)) key += `o${node.id}\n`;
  }
  return key;
};

export const motionOf = (key: string): Motion => {
  const dragging = new Set<string>();
  const offRoute = new Set<string>();
  for (const line of key.split('\n')) {
    if (line.startsWith('d')) dragging.add(line.slice(1));
    else if (line.startsWith('o')) offRoute.add(line.slice(1));
  }
  return { dragging, offRoute };
};

const MOVING = 1;
const OFF_ROUTE = 2;

/** An edge's reading: whether one of its videos is being dragged, and whether one stands away from where its route was laid out. */
export const useEdgeMotion = (source: string, target: string): { moving: boolean; offRoute: boolean } => {
  const store = useContext(MapMotion);
  const read = useCallback(() => {
    const motion = store?.get();
    if (!motion) return 0;
    const moving = motion.dragging.has(source) || motion.dragging.has(target);
    const off = motion.offRoute.has(source) || motion.offRoute.has(target);
    return (moving ? MOVING : 0) | (off ? OFF_ROUTE : 0);
  }, [store, source, target]);
  const subscribe = useCallback((listener: () => void) => store?.subscribe(listener) ?? (() => undefined), [store]);
  const code = useSyncExternalStore(subscribe, read, read);
  return { moving: (code & MOVING) !== 0, offRoute: (code & OFF_ROUTE) !== 0 };
};
