import type { AnalyticsReportResource, FunnelDocument } from '@branchify/shared';
import type { Knex } from 'knex';
import { rawRows, type Strapi } from '../utils/strapi';
import { buildEdges, buildNodes } from './map';
import { ROLLUPS, dayOf } from './rollups';
import { VIEWS } from './store';

const DAY_MS = 86_400_000;

interface Range {
  from: Date;
  to: Date;
}

/** A counter summed over the range, by its dimensions. */
interface Counter {
  metric: string;
  node: string;
  branch: string;
  target: string;
  kind: string;
  value: unknown;
}

const n = (v: unknown) => Number(v ?? 0);

/** Views, unique viewers and watch time from the views; views and clicks per day and every other counter from the counters. */
const readReport = async (knex: Knex, funnelId: number, range: Range) => {
  const days = [funnelId, dayOf(range.from), dayOf(range.to)];
  const rows = async <T>(sql: string, bindings: Array<string | number | Date | null>): Promise<T[]> => {
    const result: unknown = await knex.raw(sql, bindings);
    return rawRows<T>(result);
  };
  const [summary, daily, counters] = await Promise.all([
    rows<{ total: unknown; uniq: unknown; watch: unknown }>(
      `SELECT COUNT(*) AS total, COUNT(DISTINCT v.viewer_token) AS uniq, COALESCE(SUM(v.watch_time), 0) AS watch
       FROM ${VIEWS} v WHERE v.funnel_id = ? AND v.created_at BETWEEN ? AND ?`,
      [funnelId, range.from, range.to],
    ),
    rows<{ day: string; metric: string; value: unknown }>(
      `SELECT day, metric, SUM(value) AS value FROM ${ROLLUPS}
       WHERE funnel_id = ? AND day BETWEEN ? AND ? AND metric IN ('views', 'clicks') GROUP BY day, metric`,
      days,
    ),
    rows<Counter>(
      `SELECT metric, node, branch, target, kind, SUM(value) AS value FROM ${ROLLUPS}
       WHERE funnel_id = ? AND day BETWEEN ? AND ? AND metric NOT IN ('views', 'clicks') GROUP BY metric, node, branch, target, kind`,
      days,
    ),
  ]);
  return { summary: summary[0], daily, counters };
};

/** Views and clicks for every day of the range, zero on days without any. */
const dailySeries = (range: Range, daily: ReadonlyArray<{ day: string; metric: string; value: unknown }>) => {
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
  return [...series.values()];
};

/** Clicks per branch (inaction defaults are no clicks) and every path taken, most first. */
const clicksAndPaths = (counters: readonly Counter[]) => {
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
  return {
    clicks: [...clicks.values()].sort((a, b) => b.clicks - a.clicks),
    paths: [...paths.values()].sort((a, b) => b.count - a.count),
  };
};

/** The report of a funnel over a range of days. */
export const funnelReports = (strapi: Strapi, deps: { ensureCounters: (funnelId: number) => Promise<unknown> }) => ({
  /**
   * The report of `POST funnels/{id}/analytics` (docs/api.md "Analytics", the map's rules in
   * docs/decisions/052-funnel-map-figures.md): views, unique viewers and watch time from one covering-index scan of the
   * views; everything else summed from the per-day counters, so the cost grows with the days in
   * the range, not with the events.
   */
  report: async (
    funnel: { id: number; videos: FunnelDocument['videos'] | null },
    library: { durations: ReadonlyMap<string, number | null>; titles: ReadonlyMap<string, string> },
    range: Range,
  ): Promise<AnalyticsReportResource> => {
    await deps.ensureCounters(funnel.id);
    const { summary, daily, counters } = await readReport(strapi.db.connection, funnel.id, range);
    const editorIds = (funnel.videos ?? []).map((v) => v.editor_id);

    const byNode = (metric: string) => new Map(counters.filter((r) => r.metric === metric).map((r) => [String(r.node), n(r.value)]));
    const started = byNode('started');
    const completed = byNode('completed');
    const completion = editorIds.map((editor_id) => {
      const s = started.get(editor_id) ?? 0;
      const c = completed.get(editor_id) ?? 0;
      return { editor_id, started: s, completed: c, rate: s ? Math.round((c / s) * 1000) / 1000 : 0 };
    });

    const known = new Set(editorIds);
    const reached = new Map([...byNode('reached')].filter(([node]) => known.has(node)));
    const total = n(summary?.total);
    const watch = n(summary?.watch);
    const edgeCounts = counters
      .filter((c) => c.metric === 'edge_views')
      .map((r) => ({ video_id: r.node, node_id: r.branch, connected_node: r.target || null, type: r.kind || 'branch', viewers: n(r.value) }));

    return {
      range: { from: range.from.toISOString().slice(0, 10), to: range.to.toISOString().slice(0, 10) },
      views: { total, unique: n(summary?.uniq) },
      watch_time: { total: Math.round(watch * 100) / 100, average: total ? Math.round((watch / total) * 100) / 100 : 0 },
      completion,
      ...clicksAndPaths(counters),
      series: dailySeries(range, daily),
      map: {
        nodes: buildNodes(funnel.videos, library.titles, reached, byNode('ended')),
        edges: buildEdges(funnel.videos, edgeCounts, reached),
      },
    };
  },
});
