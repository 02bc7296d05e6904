import { client } from './support/http';
import { freePlan, subscribedUser, uuid } from './support/content';
import { type Session } from './support/users';
import { useApiSuite } from './support/suite';
import { DAY_MS, day, dropCounters, edge, mapFunnel as mapFunnelOf, node, viewer, type Report } from './support/analytics';

const suite = useApiSuite();
const mapFunnel = () => mapFunnelOf(suite.admin);

/** Four viewers today (one twice); the fifth's view and click moved 40 days back. */
const playedFunnel = async () => {
  const { owner, funnel } = await mapFunnel();
  const ref = funnel.identifier;
  const v1 = viewer(ref);
  await v1.view([{ node: 'b1', to: 'a' }], 'a');
  await v1.view([{ node: 'b1', to: 'a' }], 'a'); // the same viewer again: still one viewer
  await viewer(ref).view([{ node: 'b2', to: 'b', type: 'inaction' }], 'b');
  await viewer(ref).view(
    [
      { node: 'b3', to: 'timestamp:30' },
      { node: 'b1', to: 'a' },
    ],
    'a',
  );
  await viewer(ref).view([]); // watched the intro and left
  const old = await viewer(ref).view([{ node: 'b2', to: 'b' }], 'b');
  const past = new Date(Date.now() - 40 * DAY_MS);
  await suite.db('branchify_funnel_views').where({ event_id: old }).update({ created_at: past });
  await suite.db('branchify_funnel_interactions').where({ view_id: old }).update({ created_at: past });
  // Rows changed behind the counters' back are like rows stored before counters existed: without
  // counters, the report builds them from the rows.
  await dropCounters(suite.db, funnel.id);
  return { owner, funnel };
};

describe('POST /api/funnels/{id}/analytics: the map', () => {
  let owner: Session;
  let funnel: { id: number; identifier: string };
  beforeAll(async () => {
    ({ owner, funnel } = await playedFunnel());
  });

  it('counts the views that took each edge with their share, and per video the views that reached it and stopped there', async () => {
    const res = await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: day(), to: day() }, owner.token);
    expect(res.status).toBe(200);
    const report = res.body.data as Report;
    expect(report.views).toEqual({ total: 5, unique: 4 });
    expect(report.map.nodes).toEqual([
      { editor_id: 'intro', title: '=Intro, the "start"', root: true, reached: 5, drop_off: 1, drop_off_rate: 0.2 },
      { editor_id: 'a', title: 'Path A', root: false, reached: 3, drop_off: 3, drop_off_rate: 1 },
      { editor_id: 'b', title: 'Path B', root: false, reached: 1, drop_off: 1, drop_off_rate: 1 },
    ]);
    expect(edge(report, 'b1', 'button')).toMatchObject({ from: 'intro', to: 'a', label: 'Take A', viewers: 3, share: 0.6, in_funnel: true });
    expect(edge(report, 'b2', 'button')).toMatchObject({ from: 'intro', to: 'b', label: '+Take B', viewers: 0, share: 0 });
    expect(edge(report, 'b2', 'inaction')).toMatchObject({ from: 'intro', to: 'b', viewers: 1, share: 0.2 });
    expect(edge(report, 'b3', 'timestamp')).toMatchObject({ from: 'intro', to: 'intro', label: 'Again', viewers: 1, share: 0.2 });
    expect(report.map.edges).toHaveLength(4);
  });

  it('counts only the chosen days', async () => {
    const res = await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: day(-40), to: day(-40) }, owner.token);
    expect(res.status).toBe(200);
    const report = res.body.data as Report;
    expect(report.views).toEqual({ total: 1, unique: 1 });
    expect(node(report, 'intro')).toMatchObject({ reached: 1, drop_off: 0 });
    expect(node(report, 'b')).toMatchObject({ reached: 1, drop_off: 1 });
    expect(edge(report, 'b2', 'button')).toMatchObject({ viewers: 1, share: 1 });
    expect(edge(report, 'b1', 'button')).toMatchObject({ viewers: 0 });

    const both = (await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: day(-40), to: day() }, owner.token)).body.data as Report;
    expect(both.views).toEqual({ total: 6, unique: 5 });
    expect(node(both, 'b')).toMatchObject({ reached: 2, drop_off: 2 });

    // The default range is the last 30 days: the old view is outside it.
    const recent = (await owner.http.post(`/api/funnels/${funnel.id}/analytics`, {}, owner.token)).body.data as Report;
    expect(recent.views.total).toBe(5);
  });

  it('refuses another creator (404) and anonymous callers (401); an admin reads it', async () => {
    const other = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const json = await other.http.post(`/api/funnels/${funnel.id}/analytics`, {}, other.token);
    expect(json.status).toBe(404);
    expect(JSON.stringify(json.body)).not.toContain('Path A');
    const csv = await other.http.get(`/api/funnels/${funnel.id}/analytics.csv`, other.token);
    expect(csv.status).toBe(404);
    expect(csv.text).not.toContain('Path A');
    expect((await client().get(`/api/funnels/${funnel.id}/analytics.csv`)).status).toBe(401);
    const asAdmin = await suite.admin.http.get(`/api/funnels/${funnel.id}/analytics.csv?from=${day()}&to=${day()}`, suite.admin.token);
    expect(asAdmin.status).toBe(200);
  });

  it('exports the same figures as a CSV download, quoted and safe from spreadsheet formulas', async () => {
    const res = await owner.http.get(`/api/funnels/${funnel.id}/analytics.csv?from=${day()}&to=${day()}`, owner.token).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="funnel-${funnel.identifier}-analytics-${day()}-to-${day()}.csv"`);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe(
      'record,date,video_id,video_title,branch_id,button_text,kind,to_video_id,to_video_title,target,viewers,share,reached,drop_off,drop_off_rate,views,unique_viewers,clicks,watch_time,view_id',
    );
    expect(lines[1]).toBe(`summary,${day()}..${day()},,,,,,,,,,,,,,5,4,4,12,`);
    expect(lines).toContain(`node,,intro,"'=Intro, the ""start""",,,,,,,,,5,1,0.2,,,,,`);
    expect(lines).toContain('node,,a,Path A,,,,,,,,,3,3,1,,,,,');
    expect(lines).toContain(`edge,,intro,"'=Intro, the ""start""",b1,Take A,button,a,Path A,a,3,0.6,,,,,,,,`);
    expect(lines).toContain(`edge,,intro,"'=Intro, the ""start""",b2,'+Take B,inaction,b,Path B,b,1,0.2,,,,,,,,`);
    expect(lines).toContain(`edge,,intro,"'=Intro, the ""start""",b3,Again,timestamp,intro,"'=Intro, the ""start""",timestamp:30,1,0.2,,,,,,,,`);
    expect(lines).toContain(`day,${day()},,,,,,,,,,,,,,5,,4,,`);
    // One row per view of the range (this funnel declares no variables: no var_ columns).
    expect(lines.filter((l) => l.startsWith('view,'))).toHaveLength(5);
    expect(res.text.endsWith('\r\n')).toBe(true);
  });

  it('refuses a bad range in the CSV query as in the report body', async () => {
    const bad = await owner.http.get(`/api/funnels/${funnel.id}/analytics.csv?from=${day()}&to=${day(-3)}`, owner.token);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['from']);
    const garbled = await owner.http.get(`/api/funnels/${funnel.id}/analytics.csv?from=yesterday`, owner.token);
    expect(garbled.status).toBe(422);
  });
});

describe('analytics counters kept on ingest', () => {
  it('match the stored rows under concurrent, group-committed ingest, and a retried event counts once', async () => {
    const { owner, funnel } = await mapFunnel();
    const ref = funnel.identifier;
    type Step = { node: string; to: string; type?: 'branch' | 'inaction' };
    // Four ways through: to a, to b by the inaction default, two jumps then a, or the intro only.
    const plays: Array<[Step[], string | undefined]> = [
      [[{ node: 'b1', to: 'a' }], 'a'],
      [[{ node: 'b2', to: 'b', type: 'inaction' }], 'b'],
      [
        [
          { node: 'b3', to: 'timestamp:30' },
          { node: 'b3', to: 'timestamp:30' },
          { node: 'b1', to: 'a' },
        ],
        'a',
      ],
      [[], undefined],
    ];
    // 24 viewers at once, each playing twice: 12 plays of each way.
    await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const v = viewer(ref);
        await v.view(...plays[i % 4]!);
        await v.view(...plays[(i + 1) % 4]!);
      }),
    );
    // A retried batch (the same event ids) is stored and counted once.
    const http = client();
    const start = await http.post(`/api/funnels/${ref}/views`, { event_id: uuid() });
    const events = [
      {
        event_id: uuid(),
        view_id: start.body.data.view_id,
        view_token: start.body.data.view_token,
        video_id: 'intro',
        node_id: 'b1',
        connected_node: 'a',
        type: 'branch',
        player_time: 2,
      },
    ];
    for (let i = 0; i < 3; i += 1) expect((await http.post(`/api/funnels/${ref}/interactions`, { events })).status).toBe(202);

    const read = async () => (await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: day(), to: day() }, owner.token)).body.data as Report;
    const counted = await read();
    expect(counted.views).toEqual({ total: 49, unique: 25 });
    expect(edge(counted, 'b1', 'button')).toMatchObject({ viewers: 25 });
    expect(edge(counted, 'b2', 'inaction')).toMatchObject({ viewers: 12 });
    expect(edge(counted, 'b3', 'timestamp')).toMatchObject({ viewers: 12 }); // taken twice in a view: one view
    expect(node(counted, 'intro')).toMatchObject({ reached: 49, drop_off: 13 });
    expect(node(counted, 'a')).toMatchObject({ reached: 25, drop_off: 24 });
    expect(node(counted, 'b')).toMatchObject({ reached: 12, drop_off: 12 });

    // Counters built afresh from the stored rows agree with the ones kept on ingest.
    await dropCounters(suite.db, funnel.id);
    expect(await read()).toEqual(counted);
  });
});
