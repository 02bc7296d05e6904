import type { Knex } from 'knex';
import { client, type Client } from './http';
import { addVideo, createFunnel, freePlan, subscribedUser, uuid } from './content';
import type { Session } from './users';

/** A funnel with branches, viewers playing it through the public API, and the report's shape, for the analytics suites. */

export const DAY_MS = 86_400_000;
export const day = (offset = 0): string => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * intro → a ('Take A'), intro → b ('+Take B', also the inaction default), intro jumps to 0:30
 * ('Again'); a and b end the funnel. The intro's title needs quoting and formula escaping in CSV.
 */
export const mapFunnel = async (admin: Session) => {
  const owner = await subscribedUser(admin, (await freePlan(admin)).id);
  const intro = await addVideo(owner, { title: '=Intro, the "start"' });
  const a = await addVideo(owner, { title: 'Path A' });
  const b = await addVideo(owner, { title: 'Path B' });
  const funnel = await createFunnel(owner);
  const saved = await owner.http.put(
    `/api/funnels/${funnel.id}`,
    {
      title: 'Map funnel',
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
                  { id: 'b2', onclick: 'branch', video: 'b', standard: { text: '+Take B' } },
                  { id: 'b3', onclick: 'timestamp', timestamp: { hours: 0, minutes: 0, seconds: 30 }, standard: { text: 'Again' } },
                ],
                settings: { inaction: 'b2' },
              },
            },
          ],
        },
        { id: a.id, editor_id: 'a', elements: [] },
        { id: b.id, editor_id: 'b', elements: [] },
      ],
    },
    owner.token,
  );
  expect(saved.status).toBe(200);
  return { owner, funnel };
};

/** One viewer playing the funnel through the public API as the player does. */
export const viewer = (reference: string) => {
  const http: Client = client();
  let token: string | undefined;
  return {
    async view(steps: Array<{ node: string; to: string; type?: 'branch' | 'inaction'; from?: string }>, endOn?: string) {
      const start = await http.post(`/api/funnels/${reference}/views`, { event_id: uuid(), ...(token ? { viewer_token: token } : {}) });
      expect(start.status).toBe(201);
      token = start.body.data.viewer_token as string;
      const viewId = start.body.data.view_id as string;
      const viewToken = start.body.data.view_token as string;
      if (steps.length) {
        const events = steps.map((s) => ({
          event_id: uuid(),
          view_id: viewId,
          view_token: viewToken,
          video_id: s.from ?? 'intro',
          node_id: s.node,
          connected_node: s.to,
          type: s.type ?? 'branch',
          player_time: 5,
        }));
        expect((await http.post(`/api/funnels/${reference}/interactions`, { events })).status).toBe(202);
      }
      if (endOn) {
        const put = await http.put(`/api/funnels/${reference}/views`, {
          view_id: viewId,
          view_token: viewToken,
          viewer_token: token,
          editor_id: endOn,
          last_watch_time: 3,
          watch_time: 3,
        });
        expect(put.status).toBe(200);
      }
      return viewId;
    },
  };
};

/**
 * The view token of a stored view (one loaded in bulk, say): a retried start of the view answers
 * with its token, as the first start did.
 */
export const viewTokenOf = async (reference: string, viewId: string, http: Client = client()): Promise<string> => {
  const start = await http.post(`/api/funnels/${reference}/views`, { event_id: viewId });
  expect(start.status).toBe(201);
  return start.body.data.view_token as string;
};

export type Report = {
  views: { total: number; unique: number };
  map: {
    nodes: Array<{ editor_id: string; title: string; root: boolean; reached: number; drop_off: number; drop_off_rate: number }>;
    edges: Array<{ from: string; branch: string; to: string | null; kind: string; label: string; viewers: number; share: number; in_funnel: boolean }>;
  };
};

export const edge = (report: Report, branch: string, kind: string) => report.map.edges.find((e) => e.branch === branch && e.kind === kind);
export const node = (report: Report, id: string) => report.map.nodes.find((n) => n.editor_id === id);

/** The funnel's rows as if stored before counters existed: no counters, no marks, no row flagged counted. */
export const dropCounters = async (db: Knex, funnelId: number): Promise<void> => {
  await db('branchify_analytics_daily').where({ funnel_id: funnelId }).delete();
  await db('branchify_analytics_marks').where({ funnel_id: funnelId }).delete();
  for (const table of ['branchify_funnel_views', 'branchify_funnel_interactions']) await db(table).where({ funnel_id: funnelId }).update({ counted: null });
};
