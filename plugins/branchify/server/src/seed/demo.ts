import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createUserSchema, createVideoSchema, grantsAccess, planSchema } from '@branchify/shared';
import { env, ROOT_DIR } from '@branchify/shared/node';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { DEMO_MEDIA_PATH } from './media';
import { readImport } from '../funnels/import-body';
import type { FunnelRow } from '../content-types/funnel';
import type { PlanRow } from '../content-types/plan';

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
  /** The funnel, as an export file: the seed imports it as any creator imports a file. */
  funnelFile: path.join(ROOT_DIR, 'database', 'seed', 'demo-funnel.json'),
} as const;

/** What the seed reads of the file itself: the funnel's title and the clips' addresses. */
interface DemoFile {
  funnel: { title: string };
  library: Array<{ url: string; title?: string | null }>;
}

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

/** The demo file with each clip at this install's address (the file names them at localhost). */
const demoFile = async (): Promise<DemoFile> => {
  const file = JSON.parse(await fs.readFile(DEMO.funnelFile, 'utf8')) as DemoFile;
  for (const entry of file.library) entry.url = `${publicUrl()}${DEMO_MEDIA_PATH}${path.posix.basename(new URL(entry.url).pathname)}`;
  return file;
};

/** A clip added by an earlier run follows PUBLIC_URL when it changed (generic videos hold absolute URLs). */
const refreshClip = async (strapi: Strapi, ownerId: number, entry: DemoFile['library'][number], { updated }: Changes): Promise<void> => {
  const input = createVideoSchema.parse({ provider: 'generic', url: entry.url });
  const file = path.posix.basename(new URL(entry.url).pathname);
  const videos = query(strapi, UID.video);
  const existing = await videos.findOne({ where: { owner_id: ownerId, provider: 'generic', source_url: { $endsWith: `${DEMO_MEDIA_PATH}${file}` } } });
  if (!existing || existing.source_url === input.source.source_url) return;
  const { embed_url, source, source_url } = input.source;
  updated.push(`video '${existing.title}' now at ${source_url}`);
  await videos.update({ where: { id: existing.id }, data: { embed_url, source, source_url } });
};

/** The funnel, imported from its file unless the creator has it: clips already in the library are used, the others added. */
const ensureFunnel = async (strapi: Strapi, creator: Creator, file: DemoFile, { added }: Changes): Promise<FunnelRow> => {
  const funnel: FunnelRow | null = await query(strapi, UID.funnel).findOne({ where: { owner_id: creator.id, title: file.funnel.title } });
  if (funnel) return funnel;
  const imported = await readImport({ text: JSON.stringify(file) }, (read) =>
    getService(strapi, 'funnel-transfer').importFile(creator, read, { dryRun: false }),
  );
  added.push(...imported.plan.added.map((v) => `video '${v.title}'`), `funnel '${file.funnel.title}'`);
  return imported.funnel!;
};

const run = async (strapi: Strapi): Promise<DemoSeedResult> => {
  const changes: Changes = { added: [], updated: [] };
  const plan = await ensurePlan(strapi, changes);
  let creator = await ensureCreator(strapi, changes);
  if (!grantsAccess(await getService(strapi, 'billing').currentOf(creator))) {
    await subscribeCreator(strapi, creator, plan);
    changes.added.push(`subscription to '${plan.name}'`);
    // The import checks the plan the creator holds now.
    creator = (await getService(strapi, 'users').findRecord(creator.id))!;
  }

  const file = await demoFile();
  for (const entry of file.library) await refreshClip(strapi, creator.id, entry, changes);
  const funnel = await ensureFunnel(strapi, creator, file, changes);
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
 * funnel of three bundled clips served from this app (/demo-media/…), imported from its export
 * file (database/seed/demo-funnel.json), so a new install shows a working funnel without internet.
 * Idempotent: what exists is found and kept, never duplicated; only the clips' URLs follow
 * PUBLIC_URL when it changed.
 */
export default ({ strapi }: { strapi: Strapi }) => ({
  run: () => run(strapi),
});
