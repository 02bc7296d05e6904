import { randomUUID } from 'node:crypto';
import type { Session } from './users';
import { verifiedUser } from './users';

let seq = 0;

/** A free plan with the given limits, created as an admin would. */
export const freePlan = async (
  admin: Session,
  limits: { max_funnel?: number | null; max_branch_per_funnel?: number | null; video_sources?: string[] | null } = {},
) => {
  seq += 1;
  const res = await admin.http.post(
    '/api/admin/plans',
    {
      name: `Content plan ${seq}-${Math.random().toString(36).slice(2, 6)}`,
      price: '0',
      currency: 'usd',
      payment_schedule: 'free',
      managed_by: 'platform',
      max_funnel: null,
      max_branch_per_funnel: null,
      video_sources: null,
      ...limits,
    },
    admin.token,
  );
  if (res.status !== 201) throw new Error(`plan create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number };
};

/** A verified user on a free plan (added by the admin, so no payment provider is involved). */
export const subscribedUser = async (admin: Session, planId: number): Promise<Session> => {
  const user = await verifiedUser();
  const res = await admin.http.post('/api/admin/subscriptions', { user_id: user.id, plan_id: planId, status: 'active', managed_by: 'platform' }, admin.token);
  if (res.status !== 201) throw new Error(`subscription failed: ${res.status} ${JSON.stringify(res.body)}`);
  return user;
};

export const addVideo = async (user: Session, body: Record<string, unknown> = {}) => {
  const res = await user.http.post('/api/videos', { provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', ...body }, user.token);
  if (res.status !== 201) throw new Error(`video failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; embed_url: string; provider: string };
};

export const createFunnel = async (user: Session, body: Record<string, unknown> = {}) => {
  const res = await user.http.post(
    '/api/funnels',
    { title: 'My funnel', description: 'About it', settings: { enable_resume_play: true }, ...body },
    user.token,
  );
  if (res.status !== 201) throw new Error(`funnel failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { id: number; identifier: string };
};

/** A branch element on `from` that jumps to `to` (editor ids). */
export const branchElement = (id: string, from: string, to: string | null, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'branch',
  belongsTo: from,
  showAt: 1,
  hideAt: 8,
  data: {
    branches: [
      {
        id: `${id}-b1`,
        name: 'Branch 1',
        type: 'standard',
        onclick: to ? 'branch' : 'url',
        video: to,
        externalLink: to ? null : 'https://example.com/offer',
        standard: { text: 'Go on' },
      },
    ],
    settings: { pauseVideo: { enabled: true, duration: 12 } },
    ...extra,
  },
});

export const textElement = (id: string, on: string, title = 'Hello <b>viewer</b>') => ({
  id,
  type: 'text',
  belongsTo: on,
  showAt: 0,
  hideAt: 5,
  data: { title },
});

/** A two-video funnel: the first branches to the second. */
export const twoVideoDocument = (a: number, b: number, title = 'Two videos') => ({
  title,
  description: 'Branching',
  settings: { enable_resume_play: true },
  videos: [
    { id: a, editor_id: 'intro', elements: [branchElement('el-1', 'intro', 'second'), textElement('el-2', 'intro')] },
    { id: b, editor_id: 'second', elements: [] },
  ],
});

/** A subscribed owner with a saved two-video funnel (a YouTube intro branching to a Vimeo video). */
export const publishedFunnel = async (admin: Session) => {
  const owner = await subscribedUser(admin, (await freePlan(admin)).id);
  const a = await addVideo(owner, { title: 'Intro' });
  const b = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Second' });
  const funnel = await createFunnel(owner);
  const saved = await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), owner.token);
  if (saved.status !== 200) throw new Error(`saving the funnel answered ${saved.status}`);
  return { owner, funnel, a, b };
};

export const uuid = (): string => randomUUID();
