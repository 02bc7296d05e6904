import { edgeStatsKey, type MapStats, type NodeStats } from '../map/funnel-graph';

/** The answer of `POST funnels/{id}/analytics`. */
export interface AnalyticsReport {
  range: { from: string; to: string };
  views: { total: number; unique: number };
  watch_time: { total: number; average: number };
  completion: Array<{ editor_id: string; started: number; completed: number; rate: number }>;
  clicks: Array<{ video_id: string; node_id: string; clicks: number }>;
  paths: Array<{ from: string; branch: string; to: string | null; count: number }>;
  series: Array<{ date: string; views: number; clicks: number }>;
  /** Per branch edge: distinct viewers who took it and their share of the video's viewers. */
  edges?: Array<{ from: string; branch: string; to: string | null; viewers: number; share: number }>;
  /** Per video: distinct viewers who reached it and those whose view ended there. */
  nodes?: Array<{ editor_id: string; viewers: number; drop_off: number }>;
}

export interface Headline {
  label: string;
  value: string;
}

/** 3725 s → '1h 2m 5s'. */
export const formatDuration = (seconds: number): string => {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return [h && `${h}h`, (h || m) && `${m}m`, `${rest}s`].filter(Boolean).join(' ');
};

/** Completion over every video start: the share that reached 90% of the video. */
export const completionRate = (report: AnalyticsReport): number => {
  const started = report.completion.reduce((n, c) => n + c.started, 0);
  const completed = report.completion.reduce((n, c) => n + c.completed, 0);
  return started ? completed / started : 0;
};

export const totalClicks = (report: AnalyticsReport): number => report.clicks.reduce((n, c) => n + c.clicks, 0);

export const headlines = (report: AnalyticsReport): Headline[] => [
  { label: 'Views', value: report.views.total.toLocaleString('en-US') },
  { label: 'Unique viewers', value: report.views.unique.toLocaleString('en-US') },
  { label: 'Watch time', value: formatDuration(report.watch_time.total) },
  { label: 'Average watch time', value: formatDuration(report.watch_time.average) },
  { label: 'Completion', value: `${Math.round(completionRate(report) * 100)}%` },
  { label: 'Clicks', value: totalClicks(report).toLocaleString('en-US') },
];

/** Whether anything was recorded in the range. */
export const hasData = (report: AnalyticsReport): boolean => report.views.total > 0 || totalClicks(report) > 0;

/** The map's figures: from the per-edge and per-node report when the server sends it, else from paths and starts. */
export const mapStatsOf = (report: AnalyticsReport): MapStats => {
  const nodes = new Map<string, NodeStats>();
  const edges = new Map<string, { viewers: number; share: number }>();
  if (report.nodes) for (const n of report.nodes) nodes.set(n.editor_id, { viewers: n.viewers, dropOff: n.drop_off });
  else for (const c of report.completion) nodes.set(c.editor_id, { viewers: c.started, dropOff: null });
  if (report.edges) for (const e of report.edges) edges.set(edgeStatsKey(e.from, e.branch), { viewers: e.viewers, share: e.share });
  else {
    for (const p of report.paths) {
      const reached = nodes.get(p.from)?.viewers ?? 0;
      const key = edgeStatsKey(p.from, p.branch);
      const viewers = (edges.get(key)?.viewers ?? 0) + p.count;
      edges.set(key, { viewers, share: reached ? Math.min(1, viewers / reached) : 0 });
    }
  }
  return { nodes, edges };
};

/** Today and 29 days before it (UTC), as the server's default range. */
export const lastThirtyDays = (now = new Date()): { from: string; to: string } => {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(now.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
};
