// @serial: changes outgoing webhooks for the whole install (tests/harness/groups.js)
import crypto from 'node:crypto';
import fs from 'node:fs';
import { ANONYMOUS_EVENTS_PER_ADDRESS, CLICKS_ANNOUNCED_PER_VIEW } from '../../plugins/branchify/server/src/webhooks/bounds';
import { day, edge, mapFunnel, type Report } from '../api/support/analytics';
import { uuid } from '../api/support/content';
import { client, type Client } from '../api/support/http';
import { logLength } from '../api/support/log';
import { useApiSuite } from '../api/support/suite';
import type { Session } from '../api/support/users';
import { createEndpoint, receiver, removeEndpoints, type Endpoint } from '../api/support/webhooks';
import { record } from './summary';

/**
 * Clicks need a view (issue 39, F4): an interaction, and a view update, counts only in a view the
 * server started on that funnel, proven by the view token `POST …/views` handed out with it. Random
 * view ids, forged tokens, another view's or another funnel's token, and a token for a view that
 * was never stored on the funnel change nothing the owner sees (the report, the map) and queue no
 * webhook delivery; a real viewer's events still count and are delivered. What anonymous viewers
 * can have announced is bounded per view and per client address.
 */
const suite = useApiSuite();
let endpoint: Endpoint;

beforeAll(async () => {
  endpoint = await createEndpoint(suite.admin);
});
afterAll(async () => {
  await removeEndpoints(suite.admin);
});

/** A token of the right shape that the server never handed out. */
const forgedToken = () => crypto.randomBytes(32).toString('base64url');

/** A view started as the player starts it, from its own client address. */
const startViewer = async (reference: string, http: Client = client(), eventId = uuid()) => {
  const start = await http.post(`/api/funnels/${reference}/views`, { event_id: eventId });
  expect(start.status).toBe(201);
  const view_id = start.body.data.view_id as string;
  const view_token = start.body.data.view_token as string;
  const viewer_token = start.body.data.viewer_token as string;
  return {
    http,
    view_id,
    view_token,
    viewer_token,
    /** A click on b1 (intro → a), in this view unless `e` says otherwise. */
    click: (e: Record<string, unknown> = {}) => ({
      event_id: uuid(),
      view_id,
      view_token,
      video_id: 'intro',
      node_id: 'b1',
      connected_node: 'a',
      type: 'branch',
      player_time: 5,
      ...e,
    }),
    interactions: (body: object) => http.post(`/api/funnels/${reference}/interactions`, body),
    update: (body: Record<string, unknown>) => http.put(`/api/funnels/${reference}/views`, { view_id, view_token, viewer_token, ...body }),
  };
};
type Viewer = Awaited<ReturnType<typeof startViewer>>;

/** The queued deliveries of the suite's endpoint: type and the view they announce. */
const deliveries = async (): Promise<Array<{ type: string; view_id: unknown }>> => {
  const rows: Array<{ type: string; payload: unknown }> = await suite
    .db('branchify_webhook_deliveries')
    .where({ endpoint_id: endpoint.id })
    .orderBy('id')
    .select('type', 'payload');
  return rows.map((r) => {
    const payload = (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as { data: { view_id?: unknown } };
    return { type: r.type, view_id: payload.data.view_id };
  });
};

/** What the owner and the receivers would see of a funnel: its report (with the map), its stored rows, the deliveries queued. */
const snapshot = async (owner: Session, funnel: { id: number }) => {
  const report = await owner.http.post(`/api/funnels/${funnel.id}/analytics`, { from: day(), to: day() }, owner.token);
  expect(report.status).toBe(200);
  const count = async (table: string) => Number((await suite.db(table).where({ funnel_id: funnel.id }).count({ n: '*' }))[0]!.n);
  return {
    report: report.body.data as Report & { clicks: Array<{ node_id: string; clicks: number }> },
    interactions: await count('branchify_funnel_interactions'),
    views: await count('branchify_funnel_views'),
    deliveries: (await deliveries()).length,
  };
};

/** Lines the server logged since `from` that mention `text`. */
const loggedSince = async (from: number, text: string): Promise<string[]> => {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const lines = fs
      .readFileSync(process.env.LOG_FILE!, 'utf8')
      .split('\n')
      .slice(from)
      .filter((l) => l.includes(text));
    if (lines.length) return lines;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return [];
};

describe('an interaction counts only in a view the server started', () => {
  let owner: Session;
  let funnel: { id: number; identifier: string };
  let other: { id: number; identifier: string };
  let real: Viewer;
  let cases = 0;
  const genuine = new Set<string>();

  beforeAll(async () => {
    ({ owner, funnel } = await mapFunnel(suite.admin));
    ({ funnel: other } = await mapFunnel(suite.admin));
  });
  afterAll(() => record('ingest-cases', cases));

  it("counts and delivers a real viewer's clicks, and hands out a token per view", async () => {
    real = await startViewer(funnel.identifier);
    genuine.add(real.view_id);
    expect(real.view_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sent = await real.interactions({ events: [real.click(), real.click({ node_id: 'b3', connected_node: 'timestamp:30' })] });
    expect(sent.status).toBe(202);
    expect(sent.body.data).toEqual({ accepted: 2 });
    expect((await real.update({ editor_id: 'a', last_watch_time: 2, watch_time: 2 })).status).toBe(200);

    const { report, interactions } = await snapshot(owner, funnel);
    expect(report.views.total).toBe(1);
    expect(edge(report, 'b1', 'button')).toMatchObject({ viewers: 1 });
    expect(edge(report, 'b3', 'timestamp')).toMatchObject({ viewers: 1 });
    expect(interactions).toBe(2);
    expect((await deliveries()).filter((d) => d.view_id === real.view_id).map((d) => d.type)).toEqual(['funnel.viewed', 'branch.clicked', 'branch.clicked']);
    // The receiver gets them, signed as every delivery is.
    await receiver.waitFor(endpoint.url, 2, (r) => JSON.parse(r.body).type === 'branch.clicked');

    // Another view gets another token; a retried start of the same view the same one.
    const second = await startViewer(funnel.identifier);
    genuine.add(second.view_id);
    expect(second.view_token).not.toBe(real.view_token);
    const retried = await client().post(`/api/funnels/${funnel.identifier}/views`, { event_id: real.view_id });
    expect(retried.body.data.view_token).toBe(real.view_token);
  });

  describe('changes nothing anyone sees, and queues no webhook, for', () => {
    /** Sends what `attack` sends; the answers must be `statuses`; the report, the rows and the deliveries stay as they were. */
    const unchanged = async (attack: () => Promise<Array<{ status: number; body: { data?: unknown } }>>, statuses: number[], accepted?: number) => {
      const before = await snapshot(owner, funnel);
      const answers = await attack();
      expect(answers.map((a) => a.status)).toEqual(statuses);
      if (accepted !== undefined) for (const a of answers) expect(a.body.data).toEqual({ accepted });
      cases += answers.length;
      expect(await snapshot(owner, funnel)).toEqual(before);
    };
    const post = (body: object) => real.interactions(body);

    it('interactions without a view or without its token: refused on the field', async () => {
      const { view_id: _v, view_token: _t, ...viewless } = real.click();
      const noView = await post(viewless);
      expect(noView.status).toBe(422);
      expect(Object.keys(noView.body.errors).sort()).toEqual(['view_id', 'view_token']);
      const { view_token: _u, ...tokenless } = real.click();
      const noToken = await post({ events: [tokenless] });
      expect(noToken.body.errors).toEqual({ 'events.0.view_token': ['The view token is invalid: send the view_token the view was started with.'] });
      await unchanged(
        async () => [
          await post(viewless),
          await post({ events: [tokenless] }),
          await post(real.click({ view_id: null })),
          await post(real.click({ view_token: null })),
          await post(real.click({ view_token: 'short' })),
          await post(real.click({ view_token: `${real.view_token}=` })),
        ],
        [422, 422, 422, 422, 422, 422],
      );
    });

    it('random view ids, as the red team sent them: 10 requests of 100 clicks', async () => {
      await unchanged(
        async () =>
          Promise.all(
            Array.from({ length: 10 }, () => post({ events: Array.from({ length: 100 }, () => real.click({ view_id: uuid(), view_token: forgedToken() })) })),
          ),
        Array.from({ length: 10 }, () => 202),
        0,
      );
    });

    it('a real view with a forged token, another view’s token, its own token from another funnel', async () => {
      const sameIdElsewhere = await startViewer(other.identifier, client(), real.view_id);
      const otherView = await startViewer(funnel.identifier);
      genuine.add(otherView.view_id);
      await unchanged(
        async () => [
          await post(real.click({ view_token: forgedToken() })),
          await post(real.click({ view_token: otherView.view_token })),
          await post(real.click({ view_token: sameIdElsewhere.view_token })),
          // Upper case: a token is compared exactly.
          await post(real.click({ view_token: real.view_token.toUpperCase() })),
          await post({ events: [real.click({ view_token: forgedToken() }), real.click({ view_token: otherView.view_token })] }),
        ],
        [202, 202, 202, 202, 202],
        0,
      );
    });

    it('a view of another funnel, with its own token or with one this funnel handed out for its id (a view never stored here)', async () => {
      const elsewhere = await startViewer(other.identifier);
      // A retried start of that id on this funnel answers a token, but no view of this funnel has the id.
      const claimed = await client().post(`/api/funnels/${funnel.identifier}/views`, { event_id: elsewhere.view_id });
      expect(claimed.status).toBe(201);
      const claimedToken = claimed.body.data.view_token as string;
      await unchanged(
        async () => [
          await post(real.click({ view_id: elsewhere.view_id, view_token: elsewhere.view_token })),
          await post(real.click({ view_id: elsewhere.view_id, view_token: claimedToken })),
          await post({ events: Array.from({ length: 20 }, () => real.click({ view_id: elsewhere.view_id, view_token: claimedToken })) }),
        ],
        [202, 202, 202],
        0,
      );
      // The other funnel did not get them either.
      const theirs = await suite.db('branchify_funnel_interactions').where({ funnel_id: other.id }).count({ n: '*' });
      expect(Number(theirs[0]!.n)).toBe(0);
    });

    it('view updates with a forged or another view’s token (no progress, no completion), and without one', async () => {
      const otherView = await startViewer(funnel.identifier);
      genuine.add(otherView.view_id);
      const move = { editor_id: 'a', last_watch_time: 9, watch_time: 2, duration: 10 };
      await unchanged(
        async () => [
          await real.update({ ...move, view_token: forgedToken() }),
          await real.update({ ...move, view_token: otherView.view_token }),
          // sendBeacon's POST is the same update.
          await real.http.post(`/api/funnels/${funnel.identifier}/views`, {
            view_id: real.view_id,
            view_token: forgedToken(),
            viewer_token: real.viewer_token,
            ...move,
          }),
        ],
        [200, 200, 200],
      );
      await unchanged(async () => [await real.update({ ...move, view_token: undefined })], [422]);
      const row = await suite.db('branchify_funnel_views').where({ event_id: real.view_id }).first();
      expect(Number(row.last_watch_time)).toBe(2);
    });
  });

  it('keeps the genuine events of a batch that mixes them with forged ones', async () => {
    const mixed = await startViewer(funnel.identifier);
    genuine.add(mixed.view_id);
    const elsewhere = await startViewer(other.identifier);
    const before = await snapshot(owner, funnel);
    const sent = await mixed.interactions({
      events: [
        mixed.click({ view_token: forgedToken() }),
        mixed.click({ view_id: uuid(), view_token: forgedToken() }),
        mixed.click(),
        mixed.click({ view_id: elsewhere.view_id, view_token: elsewhere.view_token }),
        mixed.click({ node_id: 'b3', connected_node: 'timestamp:30', view_id: real.view_id, view_token: mixed.view_token }),
      ],
    });
    expect(sent.status).toBe(202);
    expect(sent.body.data).toEqual({ accepted: 1 });
    cases += 4;
    const after = await snapshot(owner, funnel);
    expect(after.report.views).toEqual(before.report.views);
    expect(edge(after.report, 'b1', 'button')!.viewers).toBe(edge(before.report, 'b1', 'button')!.viewers + 1);
    expect(edge(after.report, 'b3', 'timestamp')!.viewers).toBe(edge(before.report, 'b3', 'timestamp')!.viewers);
    expect(after.interactions).toBe(before.interactions + 1);
    // Its one genuine click, after the view's start.
    expect(after.deliveries).toBe(before.deliveries + 1);
    expect((await deliveries()).filter((d) => d.view_id === mixed.view_id).map((d) => d.type)).toEqual(['funnel.viewed', 'branch.clicked']);
  });

  it('logs what it dropped for the operator: a forged token, a token for a view never stored here', async () => {
    const { funnel: fresh } = await mapFunnel(suite.admin);
    const elsewhere = await startViewer(other.identifier);
    const claimed = await client().post(`/api/funnels/${fresh.identifier}/views`, { event_id: elsewhere.view_id });
    const from = logLength();
    const sent = await client().post(`/api/funnels/${fresh.identifier}/interactions`, {
      events: [
        {
          event_id: uuid(),
          view_id: elsewhere.view_id,
          view_token: claimed.body.data.view_token,
          video_id: 'intro',
          node_id: 'b1',
          connected_node: 'a',
          player_time: 5,
        },
        { event_id: uuid(), view_id: uuid(), view_token: forgedToken(), video_id: 'intro', node_id: 'b1', connected_node: 'a', player_time: 5 },
      ],
    });
    expect(sent.body.data).toEqual({ accepted: 0 });
    cases += 2;
    const lines = (await loggedSince(from, fresh.identifier)).join('\n');
    expect(lines).toMatch(/unknown_view[^0-9]*1\b/);
    expect(lines).toMatch(/forged_view_token[^0-9]*1\b/);
  });

  it('the receiver only ever hears of genuine views', async () => {
    await receiver.waitFor(endpoint.url, genuine.size, (r) => JSON.parse(r.body).type === 'funnel.viewed');
    const heard = (await receiver.requests(endpoint.url)).map((r) => JSON.parse(r.body) as { type: string; data: { view_id?: string } });
    const clicks = heard.filter((b) => b.type === 'branch.clicked');
    expect(clicks.length).toBeGreaterThan(0);
    for (const b of clicks) expect(genuine.has(b.data.view_id!)).toBe(true);
  });
});

describe('webhooks anonymous viewers trigger are bounded', () => {
  let owner: Session;
  let funnel: { id: number; identifier: string };
  beforeAll(async () => {
    ({ owner, funnel } = await mapFunnel(suite.admin));
  });
  const announced = async (views: ReadonlySet<string>, type?: string) =>
    (await deliveries()).filter((d) => views.has(d.view_id as string) && (!type || d.type === type)).length;

  it(`per view: its first ${CLICKS_ANNOUNCED_PER_VIEW} clicks are announced, every click is counted`, async () => {
    const viewer = await startViewer(funnel.identifier);
    const over = 10;
    const events = Array.from({ length: CLICKS_ANNOUNCED_PER_VIEW + over }, () => viewer.click({ node_id: 'b3', connected_node: 'timestamp:30' }));
    const first = await viewer.interactions({ events: events.slice(0, 40) });
    const second = await viewer.interactions({ events: events.slice(40) });
    expect([first.body.data, second.body.data]).toEqual([{ accepted: 40 }, { accepted: CLICKS_ANNOUNCED_PER_VIEW + over - 40 }]);
    // A retry of them all announces nothing more.
    await viewer.interactions({ events: events.slice(0, 40) });
    await viewer.interactions({ events: events.slice(40) });
    expect(await announced(new Set([viewer.view_id]), 'branch.clicked')).toBe(CLICKS_ANNOUNCED_PER_VIEW);
    const { report } = await snapshot(owner, funnel);
    expect(report.clicks.find((c) => c.node_id === 'b3')?.clicks).toBe(CLICKS_ANNOUNCED_PER_VIEW + over);
    expect(edge(report, 'b3', 'timestamp')).toMatchObject({ viewers: 1 });
  });

  it(`per client address: ${ANONYMOUS_EVENTS_PER_ADDRESS} announced events per window, whatever views it starts; another address still gets its own`, async () => {
    const http = client();
    const views = new Set<string>();
    let clicks = 0;
    // Views started (one event each) and their clicks (up to each view's cap) until past the address's budget.
    while (views.size + clicks <= ANONYMOUS_EVENTS_PER_ADDRESS + CLICKS_ANNOUNCED_PER_VIEW) {
      const viewer = await startViewer(funnel.identifier, http);
      views.add(viewer.view_id);
      const sent = await viewer.interactions({ events: Array.from({ length: CLICKS_ANNOUNCED_PER_VIEW }, () => viewer.click()) });
      expect(sent.body.data).toEqual({ accepted: CLICKS_ANNOUNCED_PER_VIEW });
      clicks += CLICKS_ANNOUNCED_PER_VIEW;
    }
    expect(await announced(views)).toBe(ANONYMOUS_EVENTS_PER_ADDRESS);
    // Past the budget every view and click is still stored and counted.
    const { report } = await snapshot(owner, funnel);
    expect(report.views.total).toBeGreaterThanOrEqual(views.size);
    const stored = await suite
      .db('branchify_funnel_interactions')
      .whereIn('view_id', [...views])
      .count({ n: '*' });
    expect(Number(stored[0]!.n)).toBe(clicks);

    const neighbour = await startViewer(funnel.identifier);
    await neighbour.interactions(neighbour.click());
    expect(
      (await deliveries())
        .filter((d) => d.view_id === neighbour.view_id)
        .map((d) => d.type)
        .sort(),
    ).toEqual(['branch.clicked', 'funnel.viewed']);
  });
});
