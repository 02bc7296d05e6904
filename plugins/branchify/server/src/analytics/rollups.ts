import type { Knex } from 'knex';

/**
 * Per-day counters the analytics report sums, maintained in the same transaction as the rows they
 * count (and built from those rows when missing: maintenance.ts). Counts are per view (one play-through):
 * summable across days, unlike distinct viewers. Dimensions absent from a metric are ''.
 *
 * - views (view day): views started
 * - clicks (interaction day): interactions other than an inaction default
 * - taken (interaction day; video, branch, target, type): interaction events
 * - edge_views (view day; video, branch, target, type): views that took that edge at least once
 * - reached (view day; video): views that reached that video (the root, every video the player
 *   reported progress on, every interaction's target)
 * - ended (view day; video): views whose last video it is (the root until the view moves on)
 * - started / completed (view day; video): views with progress on the video / that reached 90% of it
 */
export const ROLLUPS = 'branchify_analytics_daily';
/** What each view has already been counted for (a view counts once per edge and per video reached). */
export const MARKS = 'branchify_analytics_marks';

export type Metric = 'views' | 'clicks' | 'taken' | 'edge_views' | 'reached' | 'ended' | 'started' | 'completed';

export interface RollupKey {
  funnel_id: number;
  day: string;
  metric: Metric;
  node: string;
  branch: string;
  target: string;
  kind: string;
}

const KEY_COLUMNS = ['funnel_id', 'day', 'metric', 'node', 'branch', 'target', 'kind'] as const;
/** Separates a mark's parts (a character no id or URL carries). */
const SEP = '\u001f';

export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

export const edgeMark = (video: string, branch: string, target: string | null, type: string | null): string =>
  ['e', video, branch, target ?? '', type ?? ''].join(SEP);
export const reachedMark = (video: string): string => `r${SEP}${video}`;

/** Sums deltas by key; written in key order so concurrent writers lock rows in one order. */
export class RollupDeltas {
  private readonly deltas = new Map<string, { key: RollupKey; value: number }>();

  add(funnelId: number, day: string, metric: Metric, value: number, dims: Partial<Pick<RollupKey, 'node' | 'branch' | 'target' | 'kind'>> = {}): void {
    if (!value) return;
    const key: RollupKey = {
      funnel_id: funnelId,
      day,
      metric,
      node: dims.node ?? '',
      branch: dims.branch ?? '',
      target: dims.target ?? '',
      kind: dims.kind ?? '',
    };
    const id = KEY_COLUMNS.map((c) => String(key[c])).join(SEP);
    const entry = this.deltas.get(id);
    if (entry) entry.value += value;
    else this.deltas.set(id, { key, value });
  }

  async write(trx: Knex | Knex.Transaction): Promise<void> {
    const rows = [...this.deltas.entries()]
      .filter(([, d]) => d.value !== 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, d]) => ({ ...d.key, value: d.value }));
    for (let i = 0; i < rows.length; i += 200) {
      await trx(ROLLUPS)
        .insert(rows.slice(i, i + 200))
        .onConflict([...KEY_COLUMNS])
        .merge({ value: trx.raw(`${ROLLUPS}.value + excluded.value`) });
    }
  }
}

/** Marks per INSERT: knex writes SQLite's multi-row insert as one compound SELECT, which holds at most 500. */
const MARKS_PER_INSERT = 500;

/**
 * Records marks for views; answers the ones that are new (a mark another writer already stored is
 * not new, so a view is counted once even when two processes see it at once).
 */
export const newMarks = async (
  trx: Knex | Knex.Transaction,
  marks: ReadonlyArray<{ funnel_id: number; view_key: string; mark: string }>,
): Promise<Set<string>> => {
  const fresh = new Set<string>();
  const unique = new Map(marks.map((m) => [`${m.view_key}${SEP}${m.mark}`, m]));
  const rows = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, m]) => m);
  for (let i = 0; i < rows.length; i += MARKS_PER_INSERT) {
    const inserted: Array<{ view_key: string; mark: string }> = await trx(MARKS)
      .insert(rows.slice(i, i + MARKS_PER_INSERT))
      .onConflict(['view_key', 'mark'])
      .ignore()
      .returning(['view_key', 'mark']);
    for (const r of inserted) fresh.add(`${r.view_key}${SEP}${r.mark}`);
  }
  return fresh;
};
export const markId = (viewKey: string, mark: string): string => `${viewKey}${SEP}${mark}`;

/** Completion: the viewer reached 90% of the video's duration. */
export const isComplete = (max: number, duration: number | null | undefined): boolean =>
  duration !== null && duration !== undefined && duration > 0 && max >= 0.9 * duration;
