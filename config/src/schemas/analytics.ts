import { z } from 'zod';

const day = z
  .string({ message: 'The date must be YYYY-MM-DD.' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'The date must be YYYY-MM-DD.' })
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), { message: 'The date must be YYYY-MM-DD.' });

/**
 * The analytics filter (`POST funnels/{id}/analytics` body, `GET funnels/{id}/analytics.csv`
 * query): the date-range picker's range, inclusive UTC days; default the last 30 days.
 */
export const analyticsFilterSchema = z.object({ from: day.optional(), to: day.optional() }).superRefine((v, ctx) => {
  if (v.from && v.to && v.from > v.to) ctx.addIssue({ code: 'custom', path: ['from'], message: 'The start date must not be after the end date.' });
});
export type AnalyticsFilter = z.infer<typeof analyticsFilterSchema>;

/** How a viewer went along an edge: a branch button, the element's inaction default, or a button's jump within the video. */
export type AnalyticsEdgeKind = 'button' | 'inaction' | 'timestamp';

/** One edge of the funnel map with its traffic in the range. */
export interface AnalyticsEdgeFigure {
  /** Source video (editor_id). */
  from: string;
  /** The branch (button) id, the interaction's node_id. */
  branch: string;
  /** Target video (editor_id); the source itself for a timestamp jump; null for a link out of the funnel. */
  to: string | null;
  /** What the branch leads to as recorded: an editor_id, a URL, or `timestamp:<seconds>`. */
  target: string | null;
  kind: AnalyticsEdgeKind;
  /** The button's text (its name when it has no text). */
  label: string;
  /** False when the branch is no longer in the funnel (traffic recorded before it was removed). */
  in_funnel: boolean;
  /** Unique viewers who took it. */
  viewers: number;
  /** viewers / the source node's `reached`, 0..1 (3 decimals; 0 when nobody reached the source). */
  share: number;
}

/** One video of the funnel map with its traffic in the range. */
export interface AnalyticsNodeFigure {
  editor_id: string;
  title: string;
  root: boolean;
  /** Unique viewers who reached this video. */
  reached: number;
  /** Unique viewers with a view that ended on this video (they stopped there). */
  drop_off: number;
  /** drop_off / reached, 0..1 (3 decimals). */
  drop_off_rate: number;
}

/** The answer of `POST funnels/{id}/analytics` (the CSV export carries the same figures). */
export interface AnalyticsReportResource {
  range: { from: string; to: string };
  views: { total: number; unique: number };
  watch_time: { total: number; average: number };
  completion: Array<{ editor_id: string; started: number; completed: number; rate: number }>;
  clicks: Array<{ video_id: string; node_id: string; clicks: number }>;
  paths: Array<{ from: string; branch: string; to: string | null; count: number }>;
  series: Array<{ date: string; views: number; clicks: number }>;
  map: { nodes: AnalyticsNodeFigure[]; edges: AnalyticsEdgeFigure[] };
}
