import { createUserSchema, createVideoSchema, funnelDocumentSchema, grantsAccess, planSchema, type FunnelDocument } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { DEMO_MEDIA_PATH } from './media';
import type { FunnelRow } from '../content-types/funnel';
import type { PlanRow } from '../content-types/plan';
import type { VideoRow } from '../content-types/video';

/**
 * What the demo adds. The creator's credentials are documented in the README. The texts never name
 * the app: they are stored, and the app's name is the admin's to change (branding).
 */
const DEMO = {
  /** Held by the demo account only: not offered on "Choose a plan" (inactive plans are not). */
  plan: {
    name: 'Demo',
    description: "The demo account's plan: free, with the demo funnel.",
    price: '0',
    payment_schedule: 'free',
    managed_by: 'platform',
    max_funnel: 3,
    max_branch_per_funnel: 10,
    video_sources: null,
    is_active: false,
  },
  creator: { first_name: 'Demo', last_name: 'Creator', email: 'demo@example.com', password: 'branchify-demo' },
  funnel: { title: 'Demo funnel', description: 'Three short videos: an intro with two buttons, each leading to its own video.' },
  clips: [
    { editor_id: 'intro', file: 'demo-intro.webm', title: 'Demo: welcome', duration: 12 },
    { editor_id: 'tour', file: 'demo-tour.webm', title: 'Demo: the tour', duration: 10 },
    { editor_id: 'plans', file: 'demo-plans.webm', title: 'Demo: the plans', duration: 10 },
  ],
} as const;

type ClipId = (typeof DEMO.clips)[number]['editor_id'];

interface DemoSeedResult {
  email: string;
  password: string;
  reference: string;
  playerUrl: string;
  /** What this run added (a second run adds nothing). */
  added: string[];
  /** What this run brought up to date (the clips' URLs after PUBLIC_URL changed). */
  updated: string[];
}

const button = (id: string, text: string, video: ClipId, left: number, color: string) => ({
  id,
  name: text,
  type: 'standard' as const,
  onclick: 'branch' as const,
  video,
  standard: {
    text,
    fontSize: 1.25,
    color: '#ffffff',
    position: { top: 262, left },
    background: { enabled: true, color, edge: 'rounded' as const, padding: { top: 8, right: 20, bottom: 8, left: 20 } },
  },
});

const choice = (id: string, on: ClipId, showAt: number, hideAt: number, prompt: { text: string; left: number }, branches: ReturnType<typeof button>[]) => ({
  id,
  type: 'branch' as const,
  belongsTo: on,
  showAt,
  hideAt,
  position: { top: 0, left: 0 },
  player: { width: 640, height: 360 },
  data: {
    branches,
    prompt: {
      text: prompt.text,
      fontSize: 1.25,
      position: { top: 200, left: prompt.left },
      background: { enabled: true, color: 'rgba(0, 0, 0, 0.35)', edge: 'rounded' as const, padding: { top: 4, right: 12, bottom: 4, left: 12 } },
    },
    settings: { animation: 'fade-in-and-out' as const, equalize: true },
  },
});

const AGAIN = { text: 'Want to pick again?', left: 233 };

/** The funnel: the intro offers two paths; each path's video offers the way back. */
const document = (ids: Record<ClipId, number>): FunnelDocument =>
  funnelDocumentSchema.parse({
    title: DEMO.funnel.title,
    description: DEMO.funnel.description,
    settings: { enable_resume_play: false },
    videos: [
      {
        id: ids.intro,
        editor_id: 'intro',
        elements: [
          choice('demo-choice', 'intro', 3, 12, { text: 'Where would you like to go?', left: 203 }, [
            button('demo-to-tour', 'Show me around', 'tour', 96, '#0f766e'),
            button('demo-to-plans', 'See the plans', 'plans', 336, '#b45309'),
          ]),
        ],
      },
      {
        id: ids.tour,
        editor_id: 'tour',
        elements: [choice('demo-tour-back', 'tour', 5, 10, AGAIN, [button('demo-tour-restart', 'Back to the start', 'intro', 235, '#2f27ce')])],
      },
      {
        id: ids.plans,
        editor_id: 'plans',
        elements: [choice('demo-plans-back', 'plans', 5, 10, AGAIN, [button('demo-plans-restart', 'Back to the start', 'intro', 235, '#2f27ce')])],
      },
    ],
  });

/** Texts earlier versions of the seed stored, replaced on a re-run (they named the app). */
const OLD_DESCRIPTIONS = ['A free plan to try Branchify with the demo funnel.'];

/** What a run added and brought up to date, for its report. */
interface Changes {
  added: string[];
  updated: string[];
}

const publicUrl = () => env().PUBLIC_URL.replace(/\/$/, '');

/**
 * The demo plan, kept private: an earlier seed left it offered to everyone and naming the app,
 * so a re-run takes it off "Choose a plan" and replaces that text (the admin may offer it again).
 */
const ensurePlan = async (strapi: Strapi, { added, updated }: Changes): Promise<PlanRow> => {
  const plans = query(strapi, UID.plan);
  const existing = await plans.findOne({ where: { name: DEMO.plan.name, payment_schedule: 'free' } });
  if (!existing) {
    added.push(`plan '${DEMO.plan.name}' (not offered publicly)`);
    return getService(strapi, 'plans').create(planSchema.parse(DEMO.plan));
  }
  if (!OLD_DESCRIPTIONS.includes(existing.description ?? '')) return existing;
  updated.push(`plan '${existing.name}' no longer offered publicly`);
  return plans.update({ where: { id: existing.id }, data: { description: DEMO.plan.description, is_active: false } });
};

const ensureCreator = async (strapi: Strapi, { added }: Changes) => {
  const users = getService(strapi, 'users');
  const { email } = DEMO.creator;
  const found = await query(strapi, UID.user).findOne({ where: { email }, select: ['id'] });
  if (found) {
    const user = (await users.findRecord(found.id))!;
    if (user.is_admin) throw new Error(`${email} is an administrator account; the demo creator must be a regular user`);
    return user;
  }
  const { password } = DEMO.creator;
  const input = createUserSchema.parse({ ...DEMO.creator, password_confirmation: password, is_admin: false });
  added.push(`creator ${email}`);
  return users.create(input, { verified: true });
};

type Creator = Awaited<ReturnType<typeof ensureCreator>>;

/**
 * Puts the demo creator on the demo plan. Subscribing sells active plans only, so the private
 * plan is offered for the length of this one subscription and private again right after.
 */
const subscribeCreator = async (strapi: Strapi, creator: Creator, plan: PlanRow) => {
  const plans = query(strapi, UID.plan);
  const hidden = !plan.is_active;
  if (hidden) await plans.update({ where: { id: plan.id }, data: { is_active: true } });
  try {
    await getService(strapi, 'billing').subscribe(creator, { plan_id: plan.id }, 'admin');
  } finally {
    if (hidden) await plans.update({ where: { id: plan.id }, data: { is_active: false } });
  }
};

const ensureVideo = async (strapi: Strapi, ownerId: number, clip: (typeof DEMO.clips)[number], { added, updated }: Changes): Promise<VideoRow> => {
  const url = `${publicUrl()}${DEMO_MEDIA_PATH}${clip.file}`;
  const input = createVideoSchema.parse({ provider: 'generic', url, title: clip.title, duration: clip.duration });
  const videos = query(strapi, UID.video);
  const existing = await videos.findOne({
    where: { owner_id: ownerId, provider: 'generic', source_url: { $endsWith: `${DEMO_MEDIA_PATH}${clip.file}` } },
  });
  if (!existing) {
    added.push(`video '${clip.title}'`);
    return getService(strapi, 'videos').create(ownerId, input);
  }
  if (existing.source_url === input.source.source_url) return existing;
  const { embed_url, source, source_url } = input.source;
  updated.push(`video '${existing.title}' now at ${source_url}`);
  return videos.update({ where: { id: existing.id }, data: { embed_url, source, source_url } });
};

const ensureFunnel = async (strapi: Strapi, ownerId: number, ids: Record<ClipId, number>, { added }: Changes): Promise<FunnelRow> => {
  const funnel: FunnelRow | null = await query(strapi, UID.funnel).findOne({ where: { owner_id: ownerId, title: DEMO.funnel.title } });
  if (funnel) return funnel;
  const created = await getService(strapi, 'funnels').create(ownerId, document(ids));
  added.push(`funnel '${DEMO.funnel.title}'`);
  return created;
};

const run = async (strapi: Strapi): Promise<DemoSeedResult> => {
  const changes: Changes = { added: [], updated: [] };
  const plan = await ensurePlan(strapi, changes);
  const creator = await ensureCreator(strapi, changes);
  if (!grantsAccess(await getService(strapi, 'billing').currentOf(creator))) {
    await subscribeCreator(strapi, creator, plan);
    changes.added.push(`subscription to '${plan.name}'`);
  }

  const ids = {} as Record<ClipId, number>;
  for (const clip of DEMO.clips) ids[clip.editor_id] = (await ensureVideo(strapi, creator.id, clip, changes)).id;

  const funnel = await ensureFunnel(strapi, creator.id, ids, changes);
  return {
    email: creator.email,
    password: DEMO.creator.password,
    reference: funnel.identifier,
    playerUrl: `${publicUrl()}/player/${funnel.identifier}`,
    ...changes,
  };
};

/**
 * `npm run seed -- --demo`: a free demo plan, a verified demo creator on it, and a branching demo
 * funnel of three bundled clips served from this app (/demo-media/…), so a new install shows a
 * working funnel without internet. Idempotent: what exists is found and kept, never duplicated;
 * only the clips' URLs follow PUBLIC_URL when it changed.
 */
export default ({ strapi }: { strapi: Strapi }) => ({
  run: () => run(strapi),
});
