import { displayValue, type AnalyticsReportResource } from '@branchify/shared';
import type { ViewRecord } from './reporting';

type Cell = string | number | boolean | null;

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; text a spreadsheet would run
 * as a formula (= + - @, tab, carriage return first) is prefixed with an apostrophe.
 */
const csvCell = (value: Cell): string => {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const csvLine = (cells: readonly Cell[]): string => cells.map(csvCell).join(',');

const HEADER = [
  'record',
  'date',
  'video_id',
  'video_title',
  'branch_id',
  'button_text',
  'kind',
  'to_video_id',
  'to_video_title',
  'target',
  'viewers',
  'share',
  'reached',
  'drop_off',
  'drop_off_rate',
  'views',
  'unique_viewers',
  'clicks',
  'watch_time',
  'view_id',
] as const;

/**
 * The report as one CSV table (RFC 4180, CRLF): a `summary` row, a `node` row per video, an `edge`
 * row per branch of the map, a `day` row per day of the range, a `view` row per view (latest
 * first) with a `var_<name>` column per funnel variable; unused columns stay empty.
 */
export const reportCsv = (report: AnalyticsReportResource, perView: { variables: readonly string[]; views: readonly ViewRecord[] }): string => {
  const titles = new Map(report.map.nodes.map((n) => [n.editor_id, n.title]));
  const variableColumns = perView.variables.map((name) => `var_${name}`);
  const row = (values: Partial<Record<(typeof HEADER)[number], Cell>>, variables: readonly Cell[] = []) =>
    csvLine([...HEADER.map((h) => values[h] ?? null), ...perView.variables.map((_, i) => variables[i] ?? null)]);
  const clicks = report.series.reduce((s, d) => s + d.clicks, 0);
  const lines = [
    csvLine([...HEADER, ...variableColumns]),
    row({
      record: 'summary',
      date: `${report.range.from}..${report.range.to}`,
      views: report.views.total,
      unique_viewers: report.views.unique,
      clicks,
      watch_time: report.watch_time.total,
    }),
    ...report.map.nodes.map((n) =>
      row({ record: 'node', video_id: n.editor_id, video_title: n.title, reached: n.reached, drop_off: n.drop_off, drop_off_rate: n.drop_off_rate }),
    ),
    ...report.map.edges.map((e) =>
      row({
        record: 'edge',
        video_id: e.from,
        video_title: titles.get(e.from) ?? e.from,
        branch_id: e.branch,
        button_text: e.label,
        kind: e.kind,
        to_video_id: e.to,
        to_video_title: e.to ? (titles.get(e.to) ?? e.to) : null,
        target: e.target,
        viewers: e.viewers,
        share: e.share,
      }),
    ),
    ...report.series.map((d) => row({ record: 'day', date: d.date, views: d.views, clicks: d.clicks })),
    ...perView.views.map((v) =>
      row(
        {
          record: 'view',
          date: v.started_at,
          view_id: v.view_id,
          video_id: v.editor_id,
          video_title: v.editor_id ? (titles.get(v.editor_id) ?? v.editor_id) : null,
          watch_time: v.watch_time,
        },
        perView.variables.map((name) => displayValue(v.variables[name])),
      ),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
};
