import crypto from 'node:crypto';
import type { AnalyticsReportResource, FunnelDocument } from '@branchify/shared';
import type { Strapi } from '../utils/strapi';
import { BatchWriter } from './batch-writer';
import { buildEdges, buildNodes, rootEditorId } from './map';

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

const DAY_MS = 86_400_000;
/** A click is a viewer's choice; an inaction default taken is not. */
const CLICK = "(i.type IS NULL OR i.type <> 'inaction')";

/**
 * Rows per UTC day (YYYY-MM-DD) of a stored timestamp: SQLite keeps epoch milliseconds (or ISO
 * text); PostgreSQL groups on the date first and formats only the grouped rows.
 */
const perDay = (pg: boolean, column: string, from: string) =>
  pg
    ? `SELECT to_char(t.d, 'YYYY-MM-DD') AS d, t.c FROM (SELECT CAST(${column} AS date) AS d, COUNT(*) AS c ${from} GROUP BY 1) t`
    : `SELECT CASE WHEN typeof(${column}) = 'integer' THEN strftime('%Y-%m-%d', ${column} / 1000, 'unixepoch') ELSE substr(${column}, 1, 10) END AS d, COUNT(*) AS c ${from} GROUP BY 1`;

/** Views, interactions (through group-committing writers) and the analytics report over them. */
export default ({ strapi }: { strapi: Strapi }) => {
  const db = () => strapi.db.connection;
  // A retried event (same client-generated id) is stored once: the unique index decides.
  const insertIgnoring = (table: string) => async (rows: object[]) => {
    await db()(table).insert(rows).onConflict('event_id').ignore();
  };
  const views = new BatchWriter<ViewRow>(insertIgnoring(VIEWS));
  const interactions = new BatchWriter<InteractionRow>(insertIgnoring(INTERACTIONS));

  return {
    newViewerToken: (): string => crypto.randomBytes(24).toString('base64url'),

    async startView(funnelId: number, eventId: string, viewerToken: string): Promise<void> {
      const now = new Date();
      await views.add([
        { funnel_id: funnelId, event_id: eventId, viewer_token: viewerToken, watch_time: 0, last_watch_time: 0, created_at: now, updated_at: now },
      ]);
    },

    /**
     * Moves a view on; null when no such view belongs to this funnel and viewer. Answers how far
     * the viewer had got in this video before and now (completion webhooks).
     */
    async updateView(
      funnelId: number,
      input: { view_id: string; viewer_token: string; editor_id: string; last_watch_time: number; watch_time?: number; duration?: number | null },
    ): Promise<{ before: number; reached: number; duration: number | null } | null> {
      const row = await db()(VIEWS)
        .where({ funnel_id: funnelId, event_id: input.view_id, viewer_token: input.viewer_token })
        .first('id', 'watch_time', 'progress');
      if (!row) return null;
      const progress: Progress = (typeof row.progress === 'string' ? JSON.parse(row.progress) : row.progress) ?? {};
      const previous = progress[input.editor_id];
      progress[input.editor_id] = {
        max: Math.max(previous?.max ?? 0, input.last_watch_time),
        duration: input.duration ?? previous?.duration ?? null,
      };
      await db()(VIEWS)
        .where({ id: row.id })
        .update({
          editor_id: input.editor_id,
          last_watch_time: input.last_watch_time,
          watch_time: Math.max(Number(row.watch_time ?? 0), input.watch_time ?? 0),
          progress: JSON.stringify(progress),
          updated_at: new Date(),
        });
      const now = progress[input.editor_id]!;
      return { before: previous?.max ?? 0, reached: now.max, duration: now.duration };
    },

    async recordInteractions(funnelId: number, events: Array<Omit<InteractionRow, 'funnel_id' | 'created_at' | 'updated_at'>>): Promise<void> {
      const now = new Date();
      await interactions.add(events.map((e) => ({ ...e, funnel_id: funnelId, created_at: now, updated_at: now })));
    },

    async drain(): Promise<void> {
      await Promise.all([views.drain(), interactions.drain()]);
    },

    /**
     * The report of `POST funnels/{id}/analytics` (docs/api.md "Analytics", the map's rules in
     * docs/decisions.md): views, watch time, completion per video, clicks per branch, the paths
     * taken, a per-day series and the funnel map's figures. Every figure is aggregated by the
     * database over the (funnel_id, created_at) indexes; only grouped rows come back.
     */
    async report(
      funnel: { id: number; videos: FunnelDocument['videos'] | null },
      library: { durations: ReadonlyMap<string, number | null>; titles: ReadonlyMap<string, string> },
      range: { from: Date; to: Date },
    ): Promise<AnalyticsReportResource> {
      const knex = db();
      const pg = strapi.db.dialect.client === 'postgres';
      const editorIds = (funnel.videos ?? []).map((v) => v.editor_id);
      const root = rootEditorId(funnel.videos) ?? '';
      const scope = [funnel.id, range.from, range.to];
      const V = `FROM ${VIEWS} v WHERE v.funnel_id = ? AND v.created_at BETWEEN ? AND ?`;
      // An interaction's viewer is its view's viewer; without a stored view, the view id (or the event) stands alone.
      const I = `FROM ${INTERACTIONS} i LEFT JOIN ${VIEWS} v ON v.event_id = i.view_id AND v.funnel_id = i.funnel_id
        WHERE i.funnel_id = ? AND i.created_at BETWEEN ? AND ?`;
      const iViewer = 'COALESCE(v.viewer_token, i.view_id, i.event_id)';
      const rows = async <T>(sql: string, bindings: Array<string | number | Date | null>): Promise<T[]> => {
        const result = await knex.raw(sql, bindings);
        return (Array.isArray(result) ? result : result.rows) as T[];
      };
      const n = (v: unknown) => Number(v ?? 0);

      // Completion: a video counts when the viewer reached 90% of the duration the player reported, else the library's.
      const libraryCase = editorIds.length
        ? `CASE p.key ${editorIds.map(() => (pg ? 'WHEN ? THEN CAST(? AS numeric)' : 'WHEN ? THEN ?')).join(' ')} END`
        : 'NULL';
      const libraryBindings = editorIds.flatMap((id) => [id, library.durations.get(id) ?? null]);
      const field = (name: string) => (pg ? `CAST(p.value->>'${name}' AS numeric)` : `json_extract(p.value, '$.${name}')`);
      const progressJoin = pg ? `CROSS JOIN LATERAL json_each(CAST(v.progress AS json)) p` : `, json_each(v.progress) p`;

      const [summary, viewDays, clickDays, completionRows, edgeRows, reachedRows, dropRows] = await Promise.all([
        rows<{ total: unknown; uniq: unknown; watch: unknown }>(
          `SELECT COUNT(*) AS total, COUNT(DISTINCT v.viewer_token) AS uniq, COALESCE(SUM(v.watch_time), 0) AS watch ${V}`,
          scope,
        ),
        rows<{ d: string; c: unknown }>(perDay(pg, 'v.created_at', V), scope),
        rows<{ d: string; c: unknown }>(
          perDay(pg, 'i.created_at', `FROM ${INTERACTIONS} i WHERE i.funnel_id = ? AND i.created_at BETWEEN ? AND ? AND ${CLICK}`),
          scope,
        ),
        rows<{ editor_id: string; started: unknown; completed: unknown }>(
          `SELECT p.key AS editor_id, COUNT(*) AS started,
             SUM(CASE WHEN ${field('max')} >= 0.9 * COALESCE(${field('duration')}, ${libraryCase}) THEN 1 ELSE 0 END) AS completed
           FROM ${VIEWS} v ${progressJoin}
           WHERE v.funnel_id = ? AND v.created_at BETWEEN ? AND ? AND v.progress IS NOT NULL GROUP BY p.key`,
          [...libraryBindings, ...scope],
        ),
        rows<{ video_id: string; node_id: string; connected_node: string | null; type: string | null; events: unknown; viewers: unknown }>(
          `SELECT i.video_id, i.node_id, i.connected_node, i.type, COUNT(*) AS events, COUNT(DISTINCT ${iViewer}) AS viewers
           ${I} GROUP BY i.video_id, i.node_id, i.connected_node, i.type`,
          scope,
        ),
        // Reached: every view starts on the root; its last video and every interaction's target video were reached.
        rows<{ node: string; viewers: unknown }>(
          `SELECT t.node, COUNT(DISTINCT t.viewer) AS viewers FROM (
             SELECT v.viewer_token AS viewer, CAST(? AS TEXT) AS node ${V}
             UNION ALL SELECT v.viewer_token, v.editor_id ${V} AND v.editor_id IS NOT NULL
             UNION ALL SELECT ${iViewer}, i.connected_node ${I} AND i.connected_node IS NOT NULL
           ) t GROUP BY t.node`,
          [root, ...scope, ...scope, ...scope],
        ),
        // Drop-off: a view ends on its last video (the root when it never moved on).
        rows<{ node: string; viewers: unknown }>(
          `SELECT COALESCE(v.editor_id, CAST(? AS TEXT)) AS node, COUNT(DISTINCT v.viewer_token) AS viewers ${V} GROUP BY 1`,
          [root, ...scope],
        ),
      ]);

      const series = new Map<string, { date: string; views: number; clicks: number }>();
      for (let t = Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth(), range.from.getUTCDate()); t <= range.to.getTime(); t += DAY_MS) {
        const date = new Date(t).toISOString().slice(0, 10);
        series.set(date, { date, views: 0, clicks: 0 });
      }
      for (const r of viewDays) {
        const d = series.get(String(r.d));
        if (d) d.views += n(r.c);
      }
      for (const r of clickDays) {
        const d = series.get(String(r.d));
        if (d) d.clicks += n(r.c);
      }

      const started = new Map(completionRows.map((r) => [String(r.editor_id), r]));
      const completion = editorIds.map((editor_id) => {
        const r = started.get(editor_id);
        const s = n(r?.started);
        const c = n(r?.completed);
        return { editor_id, started: s, completed: c, rate: s ? Math.round((c / s) * 1000) / 1000 : 0 };
      });

      const clicks = new Map<string, { video_id: string; node_id: string; clicks: number }>();
      const paths = new Map<string, { from: string; branch: string; to: string | null; count: number }>();
      for (const r of edgeRows) {
        const key = `${r.video_id}\u0000${r.node_id}`;
        if (r.type !== 'inaction') {
          const entry = clicks.get(key) ?? { video_id: r.video_id, node_id: r.node_id, clicks: 0 };
          entry.clicks += n(r.events);
          clicks.set(key, entry);
        }
        const pathKey = JSON.stringify([r.video_id, r.node_id, r.connected_node]);
        const path = paths.get(pathKey) ?? { from: r.video_id, branch: r.node_id, to: r.connected_node, count: 0 };
        path.count += n(r.events);
        paths.set(pathKey, path);
      }

      const known = new Set(editorIds);
      const reached = new Map(reachedRows.filter((r) => known.has(String(r.node))).map((r) => [String(r.node), n(r.viewers)]));
      const dropOff = new Map(dropRows.map((r) => [String(r.node), n(r.viewers)]));
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
            edgeRows.map((r) => ({
              video_id: r.video_id,
              node_id: r.node_id,
              connected_node: r.connected_node,
              type: r.type ?? 'branch',
              viewers: n(r.viewers),
            })),
            reached,
          ),
        },
      };
    },
  };
};
