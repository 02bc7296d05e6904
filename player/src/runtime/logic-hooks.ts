import type { PlayerPayload } from './types';

/**
 * What the runtime asks of the funnel's variables and conditions. The code behind it
 * (player/src/logic) is loaded with a dynamic import, only for a funnel that uses them.
 */
export interface FunnelLogic {
  /** The viewer's current values, by variable name. */
  values(): Readonly<Record<string, string | number | boolean>>;
  /** Moves on each change of a value (what the runtime's presented elements are keyed by). */
  readonly version: number;
  subscribe(listener: () => void): () => void;
  /** Whether a condition holds now (empty: always; one that cannot be read: never). */
  holds(condition: string | undefined): boolean;
  /** A branch click's assignments, applied in order. */
  apply(assignments: readonly string[] | undefined): void;
  /** Values from outside (the link, the embedding page, a resumed view): declared ones only, typed. */
  set(values: unknown): void;
  /** `{{name}}` replaced by the value, as plain text. */
  text(value: string): string;
}

/** A funnel needs its logic when it declares variables or any element, branch or inaction path has a condition or assignment. */
export const needsLogic = (payload: Pick<PlayerPayload, 'variables' | 'videos'>): boolean =>
  (payload.variables?.length ?? 0) > 0 ||
  payload.videos.some((v) =>
    v.elements.some(
      (e) =>
        Boolean(e.when) ||
        (e.type === 'branch' && (Boolean(e.data.settings?.inactionWhen) || e.data.branches.some((b) => Boolean(b.when) || (b.set?.length ?? 0) > 0))),
    ),
  );
