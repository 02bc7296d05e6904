import { displayValue, type AnalyticsReportResource, type VariableValue, type VariableValues } from '@branchify/shared';

/** A view as the CSV lists it: when, where it ended, how long it was watched, the viewer's variables. */
export interface ViewRecord {
  view_id: string;
  started_at: string;
  editor_id: string | null;
  watch_time: number;
  variables: VariableValues;
}

type Cell = string | number | boolean | null;

/**
 * What a spreadsheet may split a line on when it opens the file: the comma the file uses, and the
 * `;`, tab or `|` another locale or import dialog uses (quotes then stop at the first of them, so a
 * comma-quoted cell does not keep text after a `;` together), and line breaks. Spaces are not one:
 * no spreadsheet splits a .csv on them unless told to.
 */
const SEPARATORS = ',;|\\t\\r\\n';

/** Formula triggers: `=` `+` `-` `@` and every character that NFKC-normalises to one (fullwidth `＝`, small `﹦`, superscript `⁺`, …). */
const TRIGGERS = '=+\\-@\u207a\u207c\u208a\u208c\u2a75\u2a76\ufb29\ufe62\ufe63\ufe66\ufe6b\uff0b\uff0d\uff1d\uff20';

/**
 * Where a piece of a text cell begins, under any of the separators, with a formula trigger after
 * any whitespace, quotes or NULs (` =1+1`, `"=1"`): the apostrophe goes right after the separator.
 * A separator is tried before the start, so a cell opening with one (a tab) has its piece checked.
 */
const FORMULA_PIECE = new RegExp(`([${SEPARATORS}]|^)(?=[\\s"\\0]*[${TRIGGERS}])`, 'gu');

/** Characters a spreadsheet may run a cell on when they come first (OWASP, ASVS): tab, carriage return, NUL. */
const CONTROL_FIRST = /^[\t\r\0]/;

/**
 * Formula guard (OWASP's CSV injection rule, for every separator a spreadsheet may split on): the
 * cell and each piece of it after a separator get an apostrophe in front when, past whitespace and
 * quotes, they start with a formula trigger, so no cell a spreadsheet makes of them can start a
 * formula (`Ada;=HYPERLINK(…)` → `Ada;'=HYPERLINK(…)`); a cell starting with a tab, carriage return
 * or NUL is prefixed too. Numbers are written as numbers, never prefixed (`-3` stays `-3`).
 */
export const neutraliseFormulas = (text: string): string => {
  const pieces = text.replace(FORMULA_PIECE, "$1'");
  return CONTROL_FIRST.test(pieces) ? `'${pieces}` : pieces;
};

/** One CSV cell: text made safe from formulas, then quoted (RFC 4180) when it holds a comma, quote or line break. */
export const csvCell = (value: Cell): string => {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const safe = neutraliseFormulas(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const csvLine = (cells: readonly Cell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A variable's value in its cell: a number stays a number (a spreadsheet sums it); yes/no and text as shown. */
const variableCell = (value: VariableValue | undefined): Cell => (typeof value === 'number' ? value : displayValue(value));

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
 * The report as one CSV table (RFC 4180, CRLF), in chunks as the views are read: a `summary` row, a
 * `node` row per video, an `edge` row per branch of the map, a `day` row per day of the range, then
 * a `view` row per view (latest first, one chunk per page of views) with a `var_<name>` column per
 * funnel variable; unused columns stay empty. The first chunk carries the first page of views, so a
 * failure to read them comes before any byte is sent.
 */
export async function* reportCsv(
  report: AnalyticsReportResource,
  perView: { variables: readonly string[]; pages: AsyncIterable<readonly ViewRecord[]> },
): AsyncGenerator<string, void, undefined> {
  const titles = new Map(report.map.nodes.map((n) => [n.editor_id, n.title]));
  const variableColumns = perView.variables.map((name) => `var_${name}`);
  const row = (values: Partial<Record<(typeof HEADER)[number], Cell>>, variables: readonly Cell[] = []) =>
    csvLine([...HEADER.map((h) => values[h] ?? null), ...perView.variables.map((_, i) => variables[i] ?? null)]);
  const clicks = report.series.reduce((s, d) => s + d.clicks, 0);
  const head = [
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
  ].join('');
  const viewRow = (v: ViewRecord) =>
    row(
      {
        record: 'view',
        date: v.started_at,
        view_id: v.view_id,
        video_id: v.editor_id,
        video_title: v.editor_id ? (titles.get(v.editor_id) ?? v.editor_id) : null,
        watch_time: v.watch_time,
      },
      perView.variables.map((name) => variableCell(v.variables[name])),
    );
  let pending: string | null = head;
  for await (const page of perView.pages) {
    const lines = page.map(viewRow).join('');
    yield pending === null ? lines : pending + lines;
    pending = null;
  }
  if (pending !== null) yield pending;
}
