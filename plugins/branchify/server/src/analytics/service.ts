import crypto from 'node:crypto';
import type { AnalyticsReportResource, FunnelDocument } from '@branchify/shared';
import type { Knex } from 'knex';
import { getService } from '../utils/services';
import { rawRows, type Strapi } from '../utils/strapi';
import { BatchWriter } from './batch-writer';
import { buildEdges, buildNodes, rootEditorId } from './map';
import { durableTransaction } from '../utils/durable-transaction';
import { isRefusedValue } from '../utils/db-errors';
import { DropLog, type DropReason } from './integrity';
import { MARKS, ROLLUPS, RollupDeltas, dayOf, edgeMark, isComplete, markId, newMarks, reachedMark, rebuildFunnel } from './rollups';

const VIEWS = 'branchify_funnel_views';
const INTERACTIONS = 'branchify_funnel_interactions';

interface ViewRow {
  funnel_id: number;
  event_id: string;
  viewer_token: string;
  watch_time: number;
  last_watch_time: number;
  created_at: Date;
  updated_at: Date;
}

interface InteractionRow {
  funnel_id: number;
  event_id: string;
  view_id: string | null;
  video_id: string;
  node_id: string;
  connected_node: string | null;
  type: string;
  player_time: number;
  created_at: Date;
  updated_at: Date;
}

type Progress = Record<string, { max: number; duration: number | null }>;

/** A view as the query engine reads it. */
export interface FunnelViewRow {
  id: number;
  funnel_id: number;
  event_id: string;
  viewer_token: string | null;
  watch_time: number | string | null;
  last_watch_time: number | string | null;
  editor_id: string | null;
  progress: Progress | null;
  createdAt?: string | Date;
}

/** An interaction as the query engine reads it. */
export interface FunnelInteractionRow {
  id: number;
  funnel_id: number;
  view_id: string | null;
  event_id: string;
  video_id: string | null;
  node_id: string | null;
  connected_node: string | null;
  type: string | null;
  player_time: number | string | null;
  createdAt?: string | Date;
}

const DAY_MS = 86_400_000;

/** What the player's view carries for the counters: the funnel's root and each video's library duration. */
export interface ViewContext {
  root: string | null;
  durations: ReadonlyMap<string, number | null>;
}

interface PendingView {
  row: ViewRow;
  root: string | null;
}

type Row = Record<string, unknown>;
const asDate = (value: unknown): Date => (value instanceof Date ? value : new Date(value as string | number));

/** Views, interactions (through group-committing writers), the per-day counters kept with them, and the report. */
export default ({ strapi }: { strapi: Strapi }) => {
  const db = () => strapi.db.connection;
  const isPg = () => strapi.db.dialect.client === 'postgres';
  const inTransaction = <T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> => durableTransaction(strapi, ({ trx }) => work(trx as Knex.Transaction));

  /**
   * A batch of views: stored once per client-generated id (the unique index decides), and only the
   * rows this transaction stored are counted — a retried event is neither stored nor counted twice.
   */
  const writeViews = async (pending: PendingView[]): Promise<PendingView[]> =>
    inTransaction(async (trx) => {
      const inserted: Array<{ event_id: string }> = await trx(VIEWS)
        .insert(pending.map((p) => p.row))
        .onConflict('event_id')
        .ignore()
        .returning(['event_id']);
      const fresh = new Set(inserted.map((r) => r.event_id));
      const stored = pending.filter((p) => fresh.has(p.row.event_id));
      const marks = await newMarks(
        trx,
        stored.filter((p) => p.root).map((p) => ({ funnel_id: p.row.funnel_id, view_key: p.row.event_id, mark: reachedMark(p.root!) })),
      );
      const deltas = new RollupDeltas();
      for (const { row, root } of stored) {
        const day = dayOf(row.created_at);
        deltas.add(row.funnel_id, day, 'views', 1);
        if (!root) continue;
        deltas.add(row.funnel_id, day, 'ended', 1, { node: root });
        if (marks.has(markId(row.event_id, reachedMark(root)))) deltas.add(row.funnel_id, day, 'reached', 1, { node: root });
      }
      await deltas.write(trx);
      return stored;
    });

  /** A batch of interactions with their counters; each belongs to its view's day (its own without a stored view). */
  const writeInteractions = async (rows: InteractionRow[]): Promise<InteractionRow[]> =>
    inTransaction(async (trx) => {
      const inserted: Array<{ event_id: string }> = await trx(INTERACTIONS).insert(rows).onConflict('event_id').ignore().returning(['event_id']);
      const fresh = new Set(inserted.map((r) => r.event_id));
      const stored = rows.filter((r) => fresh.has(r.event_id));
      if (!stored.length) return stored;
      const viewIds = [...new Set(stored.map((r) => r.view_id).filter((id): id is string => Boolean(id)))];
      const views = new Map<string, { funnel_id: number; created_at: unknown }>();
      for (let i = 0; i < viewIds.length; i += 500) {
        const found: Array<{ event_id: string; funnel_id: number; created_at: unknown }> = await trx(VIEWS)
          .whereIn('event_id', viewIds.slice(i, i + 500))
          .select('event_id', 'funnel_id', 'created_at');
        for (const v of found) views.set(v.event_id, v);
      }
      const owner = (r: InteractionRow) => {
        const view = r.view_id ? views.get(r.view_id) : undefined;
        return view && view.funnel_id === r.funnel_id
          ? { key: r.view_id!, day: dayOf(asDate(view.created_at)) }
          : { key: r.view_id ?? r.event_id, day: dayOf(r.created_at) };
      };
      const marks = await newMarks(
        trx,
        stored.flatMap((r) => {
          const { key } = owner(r);
          const list = [{ funnel_id: r.funnel_id, view_key: key, mark: edgeMark(r.video_id, r.node_id, r.connected_node, r.type) }];
          if (r.connected_node) list.push({ funnel_id: r.funnel_id, view_key: key, mark: reachedMark(r.connected_node) });
          return list;
        }),
      );
      const deltas = new RollupDeltas();
      for (const r of stored) {
        const own = dayOf(r.created_at);
        const { key, day } = owner(r);
        const edge = { node: r.video_id, branch: r.node_id, target: r.connected_node ?? '', kind: r.type ?? '' };
        deltas.add(r.funnel_id, own, 'taken', 1, edge);
        if (r.type !== 'inaction') deltas.add(r.funnel_id, own, 'clicks', 1);
        const edgeId = markId(key, edgeMark(r.video_id, r.node_id, r.connected_node, r.type));
        if (marks.delete(edgeId)) deltas.add(r.funnel_id, day, 'edge_views', 1, edge);
        if (r.connected_node && marks.delete(markId(key, reachedMark(r.connected_node))))
          deltas.add(r.funnel_id, day, 'reached', 1, { node: r.connected_node });
      }
      await deltas.write(trx);
      return stored;
    });

  const drops = new DropLog((line) => strapi.log.warn(line));
  /** A row the database refuses (a value it will never take) is dropped and counted, not retried forever. */
  const refused =
    <Row extends { funnel_id: number; event_id: string }>(table: string) =>
    (row: Row, error: unknown) => {
      const code = String((error as { code?: unknown })?.code ?? '');
      drops.drop(
        { id: row.funnel_id },
        new Map([['refused_by_the_database', 1]]),
        `${table} event ${row.event_id}: ${code} ${(error as Error)?.message ?? ''}`,
      );
    };
  const views = new BatchWriter<PendingView>(writeViews, {
    maxRows: 500,
    maxWaitMs: 250,
    isRowError: isRefusedValue,
    onDropped: (p, error) => refused<ViewRow>(VIEWS)(p.row, error),
  });
  const interactions = new BatchWriter<InteractionRow>(writeInteractions, {
    maxRows: 500,
    maxWaitMs: 250,
    isRowError: isRefusedValue,
    onDropped: refused<InteractionRow>(INTERACTIONS),
  });

  /** Funnels with stored views or interactions and no counters at all (all of them, or the one given: two indexed probes). */
  const uncounted = async (knex: Knex | Knex.Transaction, funnelId?: number): Promise<number[]> => {
    if (funnelId !== undefined) {
      if (await knex(ROLLUPS).where({ funnel_id: funnelId }).first('id')) return [];
      const stored = (await knex(VIEWS).where({ funnel_id: funnelId }).first('id')) ?? (await knex(INTERACTIONS).where({ funnel_id: funnelId }).first('id'));
      return stored ? [funnelId] : [];
    }
    const result = await knex.raw(
      `SELECT funnel_id FROM (SELECT DISTINCT funnel_id FROM ${VIEWS} UNION SELECT DISTINCT funnel_id FROM ${INTERACTIONS}) f
       WHERE NOT EXISTS (SELECT 1 FROM ${ROLLUPS} r WHERE r.funnel_id = f.funnel_id)`,
    );
    return rawRows<{ funnel_id: number }>(result).map((r) => Number(r.funnel_id));
  };

  /**
   * Builds the counters of funnels whose rows have none (rows stored before counters existed, or
   * loaded in bulk). Writers wait while it runs (the counters table is locked), so no event is
   * counted twice or missed; another process finds the work done.
   */
  const ensureCounters = async (funnelId?: number): Promise<number[]> => {
    const ids = await uncounted(db(), funnelId);
    const rebuilt: number[] = [];
    for (const id of ids) {
      const funnel = await getService(strapi, 'funnels').findById(id);
      const videos = funnel?.videos ?? [];
      const library = funnel
        ? await getService(strapi, 'videos').findMany(
            funnel.owner_id,
            videos.map((v) => v.id),
          )
        : [];
      const durations = new Map(
        videos.map((v) => {
          const video = library.find((l) => l.id === v.id);
          return [v.editor_id, video?.duration === null || video?.duration === undefined ? null : Number(video.duration)] as const;
        }),
      );
      const started = Date.now();
      const done = await inTransaction(async (trx) => {
        if (isPg()) await trx.raw(`LOCK TABLE ${ROLLUPS} IN SHARE ROW EXCLUSIVE MODE`);
        if (!(await uncounted(trx, id)).length) return false;
        await rebuildFunnel(trx, isPg(), { id, root: rootEditorId(videos) ?? '', durations });
        return true;
      });
      if (done) {
        rebuilt.push(id);
        strapi.log.info(`[branchify] analytics counters built for funnel ${id} in ${Date.now() - started} ms`);
      }
    }
    return rebuilt;
  };

  return {
    newViewerToken: (): string => crypto.randomBytes(24).toString('base64url'),

    /** The last position a viewer reached (resume), or the funnel's latest when no viewer is given. */
    async lastViewState(funnelId: number, viewerToken?: string): Promise<{ last_watch_time: number; editor_id: string } | null> {
      const q = db()(VIEWS).where({ funnel_id: funnelId }).whereNotNull('editor_id');
      if (viewerToken) q.andWhere({ viewer_token: viewerToken });
      const row = await q.orderBy('updated_at', 'desc').orderBy('id', 'desc').first('last_watch_time', 'editor_id');
      return row ? { last_watch_time: Number(row.last_watch_time ?? 0), editor_id: String(row.editor_id) } : null;
    },

    /** Stores a view; true when this call stored it (not a retry of a stored one, not refused). */
    async startView(funnelId: number, eventId: string, viewerToken: string, context: Pick<ViewContext, 'root'>): Promise<boolean> {
      const now = new Date();
      const stored = await views.add([
        {
          row: { funnel_id: funnelId, event_id: eventId, viewer_token: viewerToken, watch_time: 0, last_watch_time: 0, created_at: now, updated_at: now },
          root: context.root,
        },
      ]);
      return stored.length > 0;
    },

    /**
     * Moves a view on (and its counters, in the same transaction): 'missing' when no such view
     * belongs to this funnel and viewer, 'implausible' (nothing stored) when it reports more watch
     * time than the view can have had since it started; else how far the viewer had got in this
     * video before and now.
     */
    async updateView(
      funnelId: number,
      input: { view_id: string; viewer_token: string; editor_id: string; last_watch_time: number; watch_time?: number; duration?: number | null },
      context: ViewContext & { watchTimeLimit: (startedAt: Date) => number },
    ): Promise<{ status: 'missing' } | { status: 'implausible' } | { status: 'moved'; before: number; reached: number; duration: number | null }> {
      return inTransaction(async (trx) => {
        const query = trx(VIEWS)
          .where({ funnel_id: funnelId, event_id: input.view_id, viewer_token: input.viewer_token })
          .first('id', 'watch_time', 'progress', 'editor_id', 'created_at');
        // Two updates of one view apply one after the other.
        const row: Row | undefined = await (isPg() ? query.forUpdate() : query);
        if (!row) return { status: 'missing' };
        if ((input.watch_time ?? 0) > context.watchTimeLimit(asDate(row.created_at))) return { status: 'implausible' };
        const progress: Progress = (typeof row.progress === 'string' ? JSON.parse(row.progress) : row.progress) ?? {};
        const previous = progress[input.editor_id];
        const next = {
          max: Math.max(previous?.max ?? 0, input.last_watch_time),
          duration: input.duration ?? previous?.duration ?? null,
        };
        progress[input.editor_id] = next;
        await trx(VIEWS)
          .where({ id: row.id })
          .update({
            editor_id: input.editor_id,
            last_watch_time: input.last_watch_time,
            watch_time: Math.max(Number(row.watch_time ?? 0), input.watch_time ?? 0),
            progress: JSON.stringify(progress),
            updated_at: new Date(),
          });

        const day = dayOf(asDate(row.created_at));
        const deltas = new RollupDeltas();
        const node = { node: input.editor_id };
        if (!previous) {
          deltas.add(funnelId, day, 'started', 1, node);
          const marks = await newMarks(trx, [{ funnel_id: funnelId, view_key: input.view_id, mark: reachedMark(input.editor_id) }]);
          if (marks.size) deltas.add(funnelId, day, 'reached', 1, node);
        }
        const library = context.durations.get(input.editor_id) ?? null;
        const was = previous ? isComplete(previous.max, previous.duration ?? library) : false;
        const now = isComplete(next.max, next.duration ?? library);
        if (was !== now) deltas.add(funnelId, day, 'completed', now ? 1 : -1, node);
        const ended = (row.editor_id as string | null) ?? context.root;
        if (ended !== input.editor_id) {
          if (ended) deltas.add(funnelId, day, 'ended', -1, { node: ended });
          deltas.add(funnelId, day, 'ended', 1, node);
        }
        await deltas.write(trx);
        return { status: 'moved', before: previous?.max ?? 0, reached: next.max, duration: next.duration };
      });
    },

    /** Stores interactions; answers the event ids this call stored (a retried event is not stored again). */
    async recordInteractions(funnelId: number, events: Array<Omit<InteractionRow, 'funnel_id' | 'created_at' | 'updated_at'>>): Promise<Set<string>> {
      const now = new Date();
      const stored = await interactions.add(events.map((e) => ({ ...e, funnel_id: funnelId, created_at: now, updated_at: now })));
      return new Set(stored.map((r) => r.event_id));
    },

    /** A funnel's view as stored (a retried start is announced as it was first stored). */
    async storedView(funnelId: number, eventId: string): Promise<{ viewer_token: string } | null> {
      const row = await db()(VIEWS).where({ funnel_id: funnelId, event_id: eventId }).first('viewer_token');
      return row ? { viewer_token: String(row.viewer_token ?? '') } : null;
    },

    /** A funnel's interactions as stored, by event id (retried events are announced as they were first stored). */
    async storedInteractions(funnelId: number, eventIds: readonly string[]): Promise<Array<Omit<InteractionRow, 'funnel_id' | 'created_at' | 'updated_at'>>> {
      if (!eventIds.length) return [];
      const rows: Array<Record<string, unknown>> = await db()(INTERACTIONS)
        .where({ funnel_id: funnelId })
        .whereIn('event_id', [...eventIds])
        .select('event_id', 'view_id', 'video_id', 'node_id', 'connected_node', 'type', 'player_time');
      return rows.map((r) => ({
        event_id: String(r.event_id),
        view_id: (r.view_id as string | null) ?? null,
        video_id: String(r.video_id ?? ''),
        node_id: String(r.node_id ?? ''),
        connected_node: (r.connected_node as string | null) ?? null,
        type: String(r.type ?? 'branch'),
        player_time: Number(r.player_time ?? 0),
      }));
    },

    /** Counts events ingest dropped for a funnel (logged for the operator). */
    dropped(funnel: { id: number; identifier: string }, reasons: ReadonlyMap<DropReason, number>): void {
      drops.drop(funnel, reasons);
    },

    async drain(): Promise<void> {
      await Promise.all([views.drain(), interactions.drain()]);
      drops.flush();
    },

    ensureCounters,

    /** Removes the funnels' views, interactions and counters (in the caller's transaction). */
    async deleteForFunnels(trx: Knex.Transaction, funnelIds: readonly number[]): Promise<void> {
      if (!funnelIds.length) return;
      for (const table of [INTERACTIONS, VIEWS, ROLLUPS, MARKS])
        await trx(table)
          .whereIn('funnel_id', [...funnelIds])
          .delete();
    },

    /**
     * The report of `POST funnels/{id}/analytics` (docs/api.md "Analytics", the map's rules in
     * docs/decisions.md): views, unique viewers and watch time from one covering-index scan of the
     * views; everything else summed from the per-day counters, so the cost grows with the days in
     * the range, not with the events.
     */
    async report(
      funnel: { id: number; videos: FunnelDocument['videos'] | null },
      library: { durations: ReadonlyMap<string, number | null>; titles: ReadonlyMap<string, string> },
      range: { from: Date; to: Date },
    ): Promise<AnalyticsReportResource> {
      await ensureCounters(funnel.id);
      const knex = db();
      const editorIds = (funnel.videos ?? []).map((v) => v.editor_id);
      const days = [funnel.id, dayOf(range.from), dayOf(range.to)];
      const rows = async <T>(sql: string, bindings: Array<string | number | Date | null>): Promise<T[]> => {
        const result = await knex.raw(sql, bindings);
        return rawRows<T>(result);
      };
      const n = (v: unknown) => Number(v ?? 0);

      const [summary, daily, counters] = await Promise.all([
        rows<{ total: unknown; uniq: unknown; watch: unknown }>(
          `SELECT COUNT(*) AS total, COUNT(DISTINCT v.viewer_token) AS uniq, COALESCE(SUM(v.watch_time), 0) AS watch
           FROM ${VIEWS} v WHERE v.funnel_id = ? AND v.created_at BETWEEN ? AND ?`,
          [funnel.id, range.from, range.to],
        ),
        rows<{ day: string; metric: string; value: unknown }>(
          `SELECT day, metric, SUM(value) AS value FROM ${ROLLUPS}
           WHERE funnel_id = ? AND day BETWEEN ? AND ? AND metric IN ('views', 'clicks') GROUP BY day, metric`,
          days,
        ),
        rows<{ metric: string; node: string; branch: string; target: string; kind: string; value: unknown }>(
          `SELECT metric, node, branch, target, kind, SUM(value) AS value FROM ${ROLLUPS}
           WHERE funnel_id = ? AND day BETWEEN ? AND ? AND metric NOT IN ('views', 'clicks') GROUP BY metric, node, branch, target, kind`,
          days,
        ),
      ]);

      const series = new Map<string, { date: string; views: number; clicks: number }>();
      for (let t = Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth(), range.from.getUTCDate()); t <= range.to.getTime(); t += DAY_MS) {
        const date = new Date(t).toISOString().slice(0, 10);
        series.set(date, { date, views: 0, clicks: 0 });
      }
      for (const r of daily) {
        const d = series.get(String(r.day));
        if (d && r.metric === 'views') d.views += n(r.value);
        if (d && r.metric === 'clicks') d.clicks += n(r.value);
      }

      const byNode = (metric: string) => new Map(counters.filter((r) => r.metric === metric).map((r) => [String(r.node), n(r.value)]));
      const started = byNode('started');
      const completed = byNode('completed');
      const completion = editorIds.map((editor_id) => {
        const s = started.get(editor_id) ?? 0;
        const c = completed.get(editor_id) ?? 0;
        return { editor_id, started: s, completed: c, rate: s ? Math.round((c / s) * 1000) / 1000 : 0 };
      });

      const clicks = new Map<string, { video_id: string; node_id: string; clicks: number }>();
      const paths = new Map<string, { from: string; branch: string; to: string | null; count: number }>();
      for (const r of counters.filter((c) => c.metric === 'taken')) {
        const key = `${r.node}\u0000${r.branch}`;
        if (r.kind !== 'inaction') {
          const entry = clicks.get(key) ?? { video_id: r.node, node_id: r.branch, clicks: 0 };
          entry.clicks += n(r.value);
          clicks.set(key, entry);
        }
        const to = r.target || null;
        const pathKey = JSON.stringify([r.node, r.branch, to]);
        const path = paths.get(pathKey) ?? { from: r.node, branch: r.branch, to, count: 0 };
        path.count += n(r.value);
        paths.set(pathKey, path);
      }

      const known = new Set(editorIds);
      const reached = new Map([...byNode('reached')].filter(([node]) => known.has(node)));
      const dropOff = byNode('ended');
      const total = n(summary[0]?.total);
      const watch = n(summary[0]?.watch);

      return {
        range: { from: range.from.toISOString().slice(0, 10), to: range.to.toISOString().slice(0, 10) },
        views: { total, unique: n(summary[0]?.uniq) },
        watch_time: { total: Math.round(watch * 100) / 100, average: total ? Math.round((watch / total) * 100) / 100 : 0 },
        completion,
        clicks: [...clicks.values()].sort((a, b) => b.clicks - a.clicks),
        paths: [...paths.values()].sort((a, b) => b.count - a.count),
        series: [...series.values()],
        map: {
          nodes: buildNodes(funnel.videos, library.titles, reached, dropOff),
          edges: buildEdges(
            funnel.videos,
            counters
              .filter((c) => c.metric === 'edge_views')
              .map((r) => ({ video_id: r.node, node_id: r.branch, connected_node: r.target || null, type: r.kind || 'branch', viewers: n(r.value) })),
            reached,
          ),
        },
      };
    },
  };
};
