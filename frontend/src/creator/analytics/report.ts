import { spelledDuration, type AnalyticsReportResource } from '@branchify/shared';
import { edgeStatsKey, type MapStats, type NodeStats } from '../map/funnel-graph';

export type AnalyticsReport = AnalyticsReportResource;

export interface Headline {
  label: string;
  value: string;
}

/** Completion over every video start: the share that reached 90% of the video. */
export const completionRate = (report: AnalyticsReport): number => {
  const started = report.completion.reduce((n, c) => n + c.started, 0);
  const completed = report.completion.reduce((n, c) => n + c.completed, 0);
  return started ? completed / started : 0;
};

const totalClicks = (report: AnalyticsReport): number => report.clicks.reduce((n, c) => n + c.clicks, 0);

export const headlines = (report: AnalyticsReport): Headline[] => [
  { label: 'Views', value: report.views.total.toLocaleString('en-US') },
  { label: 'Unique viewers', value: report.views.unique.toLocaleString('en-US') },
  { label: 'Watch time', value: spelledDuration(report.watch_time.total) },
  { label: 'Average watch time', value: spelledDuration(report.watch_time.average) },
  { label: 'Completion', value: `${Math.round(completionRate(report) * 100)}%` },
  { label: 'Clicks', value: totalClicks(report).toLocaleString('en-US') },
];

/** Whether anything was recorded in the range. */
export const hasData = (report: AnalyticsReport): boolean => report.views.total > 0 || totalClicks(report) > 0;

/** The map's figures: views per branch edge (a link out's too) with their share, views and drop-off per video. */
export const mapStatsOf = (report: AnalyticsReport): MapStats => {
  const nodes = new Map<string, NodeStats>();
  const edges = new Map<string, { viewers: number; share: number }>();
  for (const n of report.map.nodes) nodes.set(n.editor_id, { viewers: n.reached, dropOff: n.drop_off });
  const jumps = new Map<string, number>();
  for (const e of report.map.edges) {
    // Traffic along a branch the funnel no longer has (or that led elsewhere) is not drawn.
    if (!e.in_funnel) continue;
    if (e.kind === 'timestamp') {
      jumps.set(edgeStatsKey('jump', e.from, e.branch), e.viewers);
      continue;
    }
    edges.set(edgeStatsKey(e.kind === 'button' ? 'branch' : 'inaction', e.from, e.branch), { viewers: e.viewers, share: e.share });
  }
  return { nodes, edges, jumps };
};

/** Today and 29 days before it (UTC), as the server's default range. */
export const lastThirtyDays = (now = new Date()): { from: string; to: string } => {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(now.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
};
