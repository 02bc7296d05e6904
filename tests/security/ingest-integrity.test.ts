// @serial: changes outgoing webhooks for the whole install (tests/harness/groups.js)
import fs from 'node:fs';
import { addVideo, createFunnel, freePlan, subscribedUser, uuid } from '../api/support/content';
import { isPostgres } from '../api/support/db';
import { client, type Client } from '../api/support/http';
import { logLength } from '../api/support/log';
import { type Session } from '../api/support/users';
import { createEndpoint, removeEndpoints, type Endpoint } from '../api/support/webhooks';
import { record } from './summary';
import { useApiSuite } from '../api/support/suite';

/**
 * What the public player endpoints accept: only the branches a funnel's videos really have, with
 * the targets those branches really lead to, at times a viewer could really have reached. Anything
 * else (invented branches or targets, one branch's target on another, oversized text, inflated or
 * impossible times, replayed event ids) never changes the owner's report, the map, the CSV or the
 * stored rows, and is never announced to webhook receivers; a real viewer's events still count.
 */
const suite = useApiSuite();
let endpoint: Endpoint;

beforeAll(async () => {
  endpoint = await createEndpoint(suite.admin);
});
afterAll(async () => {
  await removeEndpoints(suite.admin);
});

const day = () => new Date().toISOString().slice(0, 10);
const OFFER = 'https://EXAMPLE.com/offer?ref=funnel';
/** What a browser makes of OFFER (`new URL(OFFER).href`), which the player reports. */
const OFFER_HREF = 'https://example.com/offer?ref=funnel';

/**
 * intro (60 s) → a (b1), → b (b2, also the inaction default), jumps to 0:30 (b3), opens OFFER
 * (b4); a (40 s) leads back to the intro (back).
 */
const integrityFunnel = async (extra: Array<Record<string, unknown>> = []) => {
  const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
  const intro = await addVideo(owner, { title: 'Intro', duration: 60 });
  const a = await addVideo(owner, { title: 'Path A', duration: 40 });
  const b = await addVideo(owner, { title: 'Path B', duration: 40 });
  const funnel = await createFunnel(owner);
  const saved = await owner.http.put(
    `/api/funnels/${funnel.id}`,
    {
      title: 'Integrity funnel',
      description: '',
      settings: { enable_resume_play: false },
      videos: [
        {
          id: intro.id,
          editor_id: 'intro',
          elements: [
            {
              id: 'el-1',
              type: 'branch',
              showAt: 1,
              hideAt: 8,
              data: {
                branches: [
                  { id: 'b1', onclick: 'branch', video: 'a', standard: { text: 'Take A' } },
                  { id: 'b2', onclick: 'branch', video: 'b', standard: { text: 'Take B' } },
                  { id: 'b3', onclick: 'timestamp', timestamp: { hours: 0, minutes: 0, seconds: 30 }, standard: { text: 'Again' } },
                  { id: 'b4', onclick: 'url', externalLink: OFFER, standard: { text: 'Offer' } },
                  ...extra,
                ],
                settings: { inaction: 'b2' },
              },
            },
          ],
        },
        {
          id: a.id,
          editor_id: 'a',
          elements: [
            {
              id: 'el-a',
              type: 'branch',
              showAt: 1,
              hideAt: 8,
              data: { branches: [{ id: 'back', onclick: 'branch', video: 'intro', standard: { text: 'Back' } }] },
            },
          ],
        },
        { id: b.id, editor_id: 'b', elements: [] },
      ],
    },
    owner.token,
  );
  expect(saved.status).toBe(200);
  return { owner, funnel };
};

/** A viewer with a started view, speaking to the public endpoints as the player does. */
const startViewer = async (reference: string) => {
  const http: Client = client();
  const start = await http.post(`/api/funnels/${reference}/views`, { event_id: uuid() });
  expect(start.status).toBe(201);
  const view_id = start.body.data.view_id as string;
  const view_token = start.body.data.view_token as string;
  const viewer_token = start.body.data.viewer_token as string;
  return {
    http,
    view_id,
    view_token,
    viewer_token,
    start_event: view_id,
    event: (e: Record<string, unknown>) => ({ event_id: uuid(), view_id, view_token, video_id: 'intro', type: 'branch', player_time: 5, ...e }),
    interactions: (body: object) => http.post(`/api/funnels/${reference}/interactions`, body),
    update: (body: Record<string, unknown>) => http.put(`/api/funnels/${reference}/views`, { view_id, view_token, viewer_token, ...body }),
  };
};

/** Everything the owner and receivers see: the report (with the map), the CSV, the stored rows, the queued deliveries. */
const snapshot = async (owner: Session, funnel: { id: number }) => {
  const report = await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: day(), to: day() }, owner.token);
  expect(report.status).toBe(200);
  const csv = await owner.http.get(`/api/funnels/${funnel.id}/analytics.csv?from=${day()}&to=${day()}`, owner.token).buffer(true);
  expect(csv.status).toBe(200);
  const rows = async (table: string): Promise<Array<Record<string, unknown>>> =>
    (await suite.db(table).where({ funnel_id: funnel.id }).orderBy('id').select('*')).map((r: Record<string, unknown>) => ({ ...r, updated_at: undefined }));
  return {
    report: report.body.data as Record<string, unknown>,
    csv: csv.text,
    interactions: await rows('branchify_funnel_interactions'),
    views: await rows('branchify_funnel_views'),
    deliveries: Number((await suite.db('branchify_webhook_deliveries').where({ endpoint_id: endpoint.id }).count({ n: '*' }))[0]!.n),
  };
};

type Report = {
  views: { total: number; unique: number };
  watch_time: { total: number; average: number };
  completion: Array<{ editor_id: string; started: number; completed: number }>;
  clicks: Array<{ video_id: string; node_id: string; clicks: number }>;
  map: { edges: Array<{ from: string; branch: string; to: string | null; kind: string; viewers: number; in_funnel: boolean }> };
};
const edge = (report: Report, branch: string, kind = 'button') => report.map.edges.find((e) => e.branch === branch && e.kind === kind);

/** Lines the server logged since `from` that mention `text`. */
const loggedSince = async (from: number, text: string): Promise<string[]> => {
  const file = process.env.LOG_FILE!;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .slice(from)
      .filter((l) => l.includes(text));
    if (lines.length) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [];
};

describe('ingest accepts only what the funnel really has', () => {
  let owner: Session;
  let funnel: { id: number; identifier: string };
  let real: Awaited<ReturnType<typeof startViewer>>;
  let realEvents: Array<Record<string, unknown>>;
  let cases = 0;

  beforeAll(async () => {
    ({ owner, funnel } = await integrityFunnel());
  });
  afterAll(() => record('ingest-cases', cases));

  it('counts a real viewer: each branch to its target, the link as the browser reports it, the inaction default, a jump', async () => {
    real = await startViewer(funnel.identifier);
    realEvents = [
      real.event({ node_id: 'b3', connected_node: 'timestamp:30', player_time: 3 }),
      real.event({ node_id: 'b4', connected_node: OFFER_HREF, player_time: 4 }),
      real.event({ node_id: 'b2', connected_node: 'b', type: 'inaction', player_time: 8.2 }),
      real.event({ node_id: 'b1', connected_node: 'a', player_time: 5 }),
      real.event({ video_id: 'a', node_id: 'back', connected_node: 'intro', player_time: 2 }),
    ];
    const sent = await real.interactions({ events: realEvents });
    expect(sent.status).toBe(202);
    expect(sent.body.data).toEqual({ accepted: 5 });
    expect((await real.update({ editor_id: 'intro', last_watch_time: 12, watch_time: 10 })).status).toBe(200);

    const { report, interactions, deliveries } = await snapshot(owner, funnel);
    const r = report as unknown as Report;
    expect(r.views).toEqual({ total: 1, unique: 1 });
    expect(r.watch_time.total).toBe(10);
    expect(edge(r, 'b1')).toMatchObject({ from: 'intro', to: 'a', viewers: 1, in_funnel: true });
    expect(edge(r, 'b2', 'inaction')).toMatchObject({ to: 'b', viewers: 1, in_funnel: true });
    expect(edge(r, 'b3', 'timestamp')).toMatchObject({ to: 'intro', viewers: 1, in_funnel: true });
    expect(edge(r, 'b4')).toMatchObject({ to: null, viewers: 1, in_funnel: true });
    expect(edge(r, 'back')).toMatchObject({ from: 'a', to: 'intro', viewers: 1, in_funnel: true });
    expect(r.map.edges.filter((e) => !e.in_funnel)).toEqual([]);
    // The link is stored as the funnel has it, whichever form the browser reported.
    expect(interactions.find((i) => i.node_id === 'b4')).toMatchObject({ connected_node: OFFER });
    // A view and four clicks announced; an inaction default is no click.
    expect(deliveries).toBe(5 + 1);
  });

  describe('leaves the report, the rows and the webhooks alone for', () => {
    let attacker: Awaited<ReturnType<typeof startViewer>>;
    beforeAll(async () => {
      // The attacker plays the funnel like anyone (a real view, with progress on the intro) before inventing.
      attacker = await startViewer(funnel.identifier);
      expect((await attacker.update({ editor_id: 'intro', last_watch_time: 1, watch_time: 0 })).status).toBe(200);
    });

    /** Sends what `attack` sends; the answers must be `statuses`; nothing anyone sees may change. */
    const unchanged = async (attack: () => Promise<Array<{ status: number }>>, statuses: number[]) => {
      const before = await snapshot(owner, funnel);
      const answers = await attack();
      expect(answers.map((a) => a.status)).toEqual(statuses);
      cases += 1;
      expect(await snapshot(owner, funnel)).toEqual(before);
    };
    const one = (e: Record<string, unknown>, status = 202) => unchanged(async () => [await attacker.interactions(attacker.event(e))], [status]);

    it('invented branches, in every form (a click, an inaction, a batch, another video’s branch, an element of another video)', async () => {
      await one({ node_id: 'zz', connected_node: 'a' });
      await one({ node_id: 'zz', connected_node: 'a', type: 'inaction' });
      await one({ node_id: 'B1', connected_node: 'a' });
      await one({ video_id: 'a', node_id: 'b1', connected_node: 'a' });
      await one({ node_id: 'el-a', connected_node: 'intro' });
      await one({ video_id: 'b', node_id: 'b1', connected_node: 'a' });
      await unchanged(
        async () => [
          await attacker.interactions({
            events: Array.from({ length: 100 }, (_, i) => attacker.event({ node_id: `fake-${i}`, connected_node: `https://phish.example/${i}` })),
          }),
        ],
        [202],
      );
    });

    it('invented targets, and one branch’s target on another', async () => {
      await one({ node_id: 'b1', connected_node: 'https://phish.example/login' });
      await one({ node_id: 'b1', connected_node: 'not-a-video' });
      await one({ node_id: 'b1', connected_node: 'b' });
      await one({ node_id: 'b1', connected_node: 'timestamp:30' });
      await one({ node_id: 'b1', connected_node: 'A' });
      await one({ node_id: 'b3', connected_node: 'timestamp:31' });
      await one({ node_id: 'b3', connected_node: 'a' });
      await one({ node_id: 'b4', connected_node: 'https://example.com/offer?ref=other' });
      await one({ node_id: 'b4', connected_node: `${OFFER_HREF}#x` });
      await one({ node_id: 'b4', connected_node: 'b' });
      await one({ video_id: 'a', node_id: 'back', connected_node: 'a' });
      // Without a target where the node names several.
      await one({ node_id: 'el-1' });
      await one({ node_id: 'el-1', connected_node: null });
    });

    it('an inaction the element does not default to, or the default with another target', async () => {
      await one({ node_id: 'b1', connected_node: 'a', type: 'inaction' });
      await one({ node_id: 'b2', connected_node: 'a', type: 'inaction' });
      await one({ video_id: 'a', node_id: 'back', connected_node: 'intro', type: 'inaction' });
    });

    it('oversized strings: refused at the edge when longer than any field, dropped when merely invented', async () => {
      await one({ node_id: 'x'.repeat(65), connected_node: 'a' }, 422);
      await one({ video_id: 'v'.repeat(65), node_id: 'b1', connected_node: 'a' }, 422);
      await one({ node_id: 'b1', connected_node: 'a'.repeat(8193) }, 422);
      await one({ node_id: 'b1', connected_node: `https://phish.example/${'a'.repeat(5000)}` });
      await one({ node_id: 'b4', connected_node: `${OFFER_HREF}${'&x=1'.repeat(600)}` });
      await unchanged(async () => [await attacker.update({ editor_id: 'i'.repeat(65), last_watch_time: 1 })], [422]);
    });

    it('times a viewer could not have reached: past the video’s end, negative, or more watched than the view has lasted', async () => {
      await one({ node_id: 'b1', connected_node: 'a', player_time: 5000 });
      await one({ node_id: 'b1', connected_node: 'a', player_time: 61 + 30 });
      await one({ node_id: 'b1', connected_node: 'a', player_time: -1 }, 422);
      const update = (body: Record<string, unknown>, status = 200) => unchanged(async () => [await attacker.update({ editor_id: 'intro', ...body })], [status]);
      await update({ last_watch_time: 1, watch_time: 864_000 });
      await update({ last_watch_time: 1, watch_time: 600 });
      await update({ last_watch_time: 5000, watch_time: 0 });
      await update({ last_watch_time: 2000, duration: 3000 });
      await update({ last_watch_time: -1 }, 422);
      await update({ last_watch_time: 1, watch_time: -5 }, 422);
      // A duration the library knows is not the player's to change (a 1 s video "completed").
      await update({ last_watch_time: 1, duration: 1 });
      await unchanged(async () => [await attacker.update({ editor_id: 'a', last_watch_time: 1000, duration: 2000 })], [200]);
    });

    it('replays of event ids already used, whatever they now say', async () => {
      const click = realEvents[3]!;
      const inaction = realEvents[2]!;
      await unchanged(async () => [await attacker.interactions(click), await attacker.interactions({ events: [click] })], [202, 202]);
      // The same ids with other (real) branches, types or views: stored once as first sent, announced once.
      await one({ ...inaction, view_id: attacker.view_id, view_token: attacker.view_token, type: 'branch' });
      await one({ ...click, view_id: attacker.view_id, view_token: attacker.view_token, node_id: 'b2', connected_node: 'b' });
      await one({ ...click, view_id: attacker.view_id, view_token: attacker.view_token, type: 'inaction', node_id: 'b2', connected_node: 'b' });
      // A view's id used again: no second view, no second announcement.
      await unchanged(async () => [await attacker.http.post(`/api/funnels/${funnel.identifier}/views`, { event_id: real.start_event })], [201]);
    });
  });

  it('logs what it dropped, with counts, for the operator', async () => {
    const other = await integrityFunnel();
    const viewer = await startViewer(other.funnel.identifier);
    const from = logLength();
    const sent = await viewer.interactions({
      events: [viewer.event({ node_id: 'invented', connected_node: 'a' }), viewer.event({ node_id: 'b1', connected_node: 'b' })],
    });
    expect(sent.status).toBe(202);
    expect(sent.body.data).toEqual({ accepted: 0 });
    const lines = (await loggedSince(from, other.funnel.identifier)).join('\n');
    expect(lines).toMatch(/dropped/);
    expect(lines).toMatch(/unknown_branch[^0-9]*1\b/);
    expect(lines).toMatch(/wrong_target[^0-9]*1\b/);
  });

  it('still counts the next real viewer', async () => {
    const before = (await snapshot(owner, funnel)).report as unknown as Report;
    const next = await startViewer(funnel.identifier);
    const sent = await next.interactions({
      events: [next.event({ node_id: 'b1', connected_node: 'a' }), next.event({ node_id: 'el-1', connected_node: 'b' })],
    });
    expect(sent.status).toBe(202);
    const after = (await snapshot(owner, funnel)).report as unknown as Report;
    expect(after.views.total).toBe(before.views.total + 1);
    expect(edge(after, 'b1')!.viewers).toBe(edge(before, 'b1')!.viewers + 1);
  });
});

describe('one event never takes the others of its batch down', () => {
  /** 100 viewers' clicks and `odd` sent at once: group commit writes them in shared batches. */
  const inParallel = async (reference: string, odd: (viewer: Awaited<ReturnType<typeof startViewer>>) => Record<string, unknown>) => {
    const viewers = await Promise.all(Array.from({ length: 101 }, () => startViewer(reference)));
    const events = viewers.map((v, i) => (i === 50 ? odd(v) : v.event({ node_id: 'b1', connected_node: 'a' })));
    const answers = await Promise.all(viewers.map((v, i) => v.interactions(events[i]!)));
    return { events, answers };
  };

  it('stores a click on a branch whose link is as long as the editor allows, with 100 other viewers’ clicks', async () => {
    const long = `https://example.com/${'a'.repeat(2048 - 'https://example.com/'.length)}`;
    expect(long).toHaveLength(2048);
    const { owner, funnel } = await integrityFunnel([{ id: 'long', onclick: 'url', externalLink: long, standard: { text: 'Long' } }]);
    const { events, answers } = await inParallel(funnel.identifier, (v) => v.event({ node_id: 'long', connected_node: long }));
    expect(answers.map((a) => a.status)).toEqual(events.map(() => 202));
    const stored = await suite
      .db('branchify_funnel_interactions')
      .whereIn(
        'event_id',
        events.map((e) => e.event_id as string),
      )
      .select('event_id', 'connected_node');
    expect(stored).toHaveLength(101);
    expect(stored.find((s: { connected_node: string }) => s.connected_node === long)).toBeTruthy();
    const report = (await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: day(), to: day() }, owner.token)).body.data as Report;
    expect(edge(report, 'long')).toMatchObject({ viewers: 1, in_funnel: true });
    expect(edge(report, 'b1')).toMatchObject({ viewers: 100 });
  });

  it('drops and counts a row the database refuses, and stores and acknowledges every other', async () => {
    const { owner, funnel } = await integrityFunnel();
    const poisoned = uuid();
    // The database refuses this one row, as it would a value that breaks one of its rules.
    if (isPostgres()) {
      await suite.db.raw(
        `CREATE OR REPLACE FUNCTION refuse_row_for_test() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test' USING ERRCODE = 'check_violation'; END $$`,
      );
      await suite.db.raw(
        `CREATE TRIGGER refuse_row_for_test BEFORE INSERT ON branchify_funnel_interactions FOR EACH ROW WHEN (NEW.event_id = '${poisoned}') EXECUTE FUNCTION refuse_row_for_test()`,
      );
    } else {
      await suite.db.raw(
        `CREATE TRIGGER refuse_row_for_test BEFORE INSERT ON branchify_funnel_interactions WHEN NEW.event_id = '${poisoned}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
      );
    }
    const from = logLength();
    try {
      const { events, answers } = await inParallel(funnel.identifier, (v) => ({ ...v.event({ node_id: 'b2', connected_node: 'b' }), event_id: poisoned }));
      expect(answers.map((a) => a.status)).toEqual(events.map(() => 202));
      const stored = await suite
        .db('branchify_funnel_interactions')
        .whereIn(
          'event_id',
          events.map((e) => e.event_id as string),
        )
        .pluck('event_id');
      expect(stored.sort()).toEqual(
        events
          .map((e) => e.event_id as string)
          .filter((id) => id !== poisoned)
          .sort(),
      );
      const report = (await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: day(), to: day() }, owner.token)).body.data as Report;
      expect(edge(report, 'b1')).toMatchObject({ viewers: 100 });
      expect(edge(report, 'b2')).toMatchObject({ viewers: 0 });
      expect((await loggedSince(from, 'refused_by_the_database')).join('\n')).toMatch(/refused by the test/);
    } finally {
      await suite.db.raw('DROP TRIGGER IF EXISTS refuse_row_for_test' + (isPostgres() ? ' ON branchify_funnel_interactions' : ''));
      if (isPostgres()) await suite.db.raw('DROP FUNCTION IF EXISTS refuse_row_for_test()');
    }
  });
});
