import type { Knex } from 'knex';
import { INTERACTIONS, VIEWS } from './store';

/**
 * Per-day counters the analytics report sums, maintained in the same transaction as the rows they
 * count (and rebuilt from those rows when missing). Counts are per view (one play-through):
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
  for (let i = 0; i < rows.length; i += 300) {
    const inserted: Array<{ view_key: string; mark: string }> = await trx(MARKS)
      .insert(rows.slice(i, i + 300))
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

/** SQL fragments the rebuild's statements share, on one dialect. */
const rebuildSql = (pg: boolean) => {
  const V = VIEWS;
  const I = INTERACTIONS;
  const day = (col: string) =>
    pg
      ? `to_char(CAST(${col} AS date), 'YYYY-MM-DD')`
      : `(CASE WHEN typeof(${col}) = 'integer' THEN strftime('%Y-%m-%d', ${col} / 1000, 'unixepoch') ELSE substr(${col}, 1, 10) END)`;
  // An interaction belongs to its view (its day); without a stored view it stands alone.
  const interactionViews = `SELECT i.funnel_id, COALESCE(v.event_id, i.view_id, i.event_id) AS view_key,
      CASE WHEN v.id IS NULL THEN ${day('i.created_at')} ELSE ${day('v.created_at')} END AS d,
      COALESCE(i.video_id, '') AS video, COALESCE(i.node_id, '') AS branch, COALESCE(i.connected_node, '') AS target, COALESCE(i.type, '') AS kind
    FROM ${I} i LEFT JOIN ${V} v ON v.event_id = i.view_id AND v.funnel_id = i.funnel_id WHERE i.funnel_id = ?`;
  const progressKeys = pg
    ? `SELECT v.funnel_id, v.event_id AS view_key, ${day('v.created_at')} AS d, p.key AS video, p.value AS value
       FROM ${V} v CROSS JOIN LATERAL json_each(CAST(v.progress AS json)) p WHERE v.funnel_id = ? AND v.progress IS NOT NULL`
    : `SELECT v.funnel_id, v.event_id AS view_key, ${day('v.created_at')} AS d, p.key AS video, p.value AS value
       FROM ${V} v, json_each(v.progress) p WHERE v.funnel_id = ? AND v.progress IS NOT NULL`;
  return { pg, V, I, day, sep: pg ? 'chr(31)' : 'char(31)', interactionViews, progressKeys };
};

type RebuildSql = ReturnType<typeof rebuildSql>;
type Insert = (select: string, bindings: unknown[]) => Promise<unknown>;
type RebuiltFunnel = { id: number; root: string; durations: ReadonlyMap<string, number | null> };

/** Views, clicks and interactions per day, and the videos views ended on. */
const rebuildEventCounts = async (insert: Insert, { V, I, day }: RebuildSql, funnel: RebuiltFunnel): Promise<void> => {
  const id = funnel.id;
  await insert(`SELECT funnel_id, ${day('created_at')}, 'views', '', '', '', '', COUNT(*) FROM ${V} WHERE funnel_id = ? GROUP BY 1, 2`, [id]);
  await insert(
    `SELECT funnel_id, ${day('created_at')}, 'clicks', '', '', '', '', COUNT(*) FROM ${I}
     WHERE funnel_id = ? AND (type IS NULL OR type <> 'inaction') GROUP BY 1, 2`,
    [id],
  );
  await insert(
    `SELECT funnel_id, ${day('created_at')}, 'taken', COALESCE(video_id, ''), COALESCE(node_id, ''), COALESCE(connected_node, ''), COALESCE(type, ''), COUNT(*)
     FROM ${I} WHERE funnel_id = ? GROUP BY 1, 2, 3, 4, 5, 6, 7`,
    [id],
  );
  await insert(`SELECT funnel_id, ${day('created_at')}, 'ended', COALESCE(editor_id, ?), '', '', '', COUNT(*) FROM ${V} WHERE funnel_id = ? GROUP BY 1, 2, 4`, [
    funnel.root,
    id,
  ]);
};

/** Edges taken, once per view. */
const rebuildEdgeViews = async (trx: Knex.Transaction, insert: Insert, { sep, interactionViews }: RebuildSql, id: number): Promise<void> => {
  await trx.raw(
    `INSERT INTO ${MARKS} (funnel_id, view_key, mark)
     SELECT DISTINCT funnel_id, view_key, 'e' || ${sep} || video || ${sep} || branch || ${sep} || target || ${sep} || kind FROM (${interactionViews}) x`,
    [id],
  );
  await insert(
    `SELECT funnel_id, d, 'edge_views', video, branch, target, kind, COUNT(*) FROM (
       SELECT DISTINCT funnel_id, view_key, d, video, branch, target, kind FROM (${interactionViews}) x
     ) y GROUP BY funnel_id, d, video, branch, target, kind`,
    [id],
  );
};

/** Videos reached, once per view: the root, progress reported, interaction targets. */
const rebuildReached = async (
  trx: Knex.Transaction,
  insert: Insert,
  { V, day, sep, interactionViews, progressKeys }: RebuildSql,
  funnel: RebuiltFunnel,
): Promise<void> => {
  const id = funnel.id;
  const text = (expr: string) => `CAST(${expr} AS TEXT)`;
  const reached = `SELECT DISTINCT funnel_id, view_key, d, node FROM (
      SELECT funnel_id, event_id AS view_key, ${day('created_at')} AS d, ${text('?')} AS node FROM ${V} WHERE funnel_id = ?
      UNION ALL SELECT funnel_id, view_key, d, video FROM (${progressKeys}) p
      UNION ALL SELECT funnel_id, view_key, d, target FROM (${interactionViews}) x WHERE target <> ''
    ) r`;
  const reachedBindings = [funnel.root, id, id, id];
  await trx.raw(`INSERT INTO ${MARKS} (funnel_id, view_key, mark) SELECT funnel_id, view_key, 'r' || ${sep} || node FROM (${reached}) z`, reachedBindings);
  await insert(`SELECT funnel_id, d, 'reached', node, '', '', '', COUNT(*) FROM (${reached}) z GROUP BY funnel_id, d, node`, reachedBindings);
};

/** Started and completed per video (the player's duration, else the library's). */
const rebuildProgress = async (insert: Insert, { pg, progressKeys }: RebuildSql, funnel: RebuiltFunnel): Promise<void> => {
  const id = funnel.id;
  const ids = [...funnel.durations.keys()];
  const libraryCase = ids.length ? `CASE p.video ${ids.map(() => (pg ? 'WHEN ? THEN CAST(? AS numeric)' : 'WHEN ? THEN ?')).join(' ')} END` : 'NULL';
  const libraryBindings = ids.flatMap((e) => [e, funnel.durations.get(e) ?? null]);
  const field = (name: string) => (pg ? `CAST(p.value->>'${name}' AS numeric)` : `json_extract(p.value, '$.${name}')`);
  await insert(`SELECT funnel_id, d, 'started', video, '', '', '', COUNT(*) FROM (${progressKeys}) p GROUP BY funnel_id, d, video`, [id]);
  await insert(
    `SELECT funnel_id, d, 'completed', video, '', '', '', COUNT(*) FROM (${progressKeys}) p
     WHERE COALESCE(${field('duration')}, ${libraryCase}) > 0 AND ${field('max')} >= 0.9 * COALESCE(${field('duration')}, ${libraryCase})
     GROUP BY funnel_id, d, video`,
    [id, ...libraryBindings, ...libraryBindings],
  );
};

/**
 * Rebuilds one funnel's counters from its stored views and interactions with the same rules the
 * writers apply (used when counters are missing: rows stored before counters existed, or loaded
 * in bulk). Runs in the caller's transaction.
 */
export const rebuildFunnel = async (trx: Knex.Transaction, pg: boolean, funnel: RebuiltFunnel): Promise<void> => {
  await trx(ROLLUPS).where({ funnel_id: funnel.id }).delete();
  await trx(MARKS).where({ funnel_id: funnel.id }).delete();
  const insert: Insert = (select, bindings) =>
    trx.raw(`INSERT INTO ${ROLLUPS} (funnel_id, day, metric, node, branch, target, kind, value) ${select}`, bindings as Knex.RawBinding[]);
  const sql = rebuildSql(pg);
  await rebuildEventCounts(insert, sql, funnel);
  await rebuildEdgeViews(trx, insert, sql, funnel.id);
  await rebuildReached(trx, insert, sql, funnel);
  await rebuildProgress(insert, sql, funnel);
};
