import { createHash } from 'node:crypto';
import { stripeKeyMode, type StripeProblem } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { installId } from '../operations/install-id';
import { seal, unseal } from '../utils/secret-box';
import { query, UID, type Strapi } from '../utils/strapi';
import { StripeConnect, StripeGateway } from './gateway';
import { classifyStripeError, createStripeClient, type StripeClient } from './stripe-client';
import type { StripeSettingsRow } from '../content-types/stripe-setting';

interface StripeCredentials {
  secretKey: string | null;
  publishableKey: string | null;
  clientId: string | null;
  webhookSecret: string | null;
  accountId: string | null;
}

/** Whether payments can work with the keys in use, and why not. */
interface PaymentState {
  ready: boolean;
  problem: StripeProblem | null;
}

/** A refused or unreachable check is asked again after this long (a key fixed at Stripe, Stripe back). */
const RECHECK_MS = 60_000;

/** The keys Stripe accepted, as a digest: the keys themselves are never stored in the clear. */
const fingerprintOf = (secret: string, publishable: string) => createHash('sha256').update(`${secret}\n${publishable}`).digest('hex');

const SECRET = 'stripe.secret';
const WEBHOOK = 'stripe.webhook-secret';

/** What the service keeps between calls: the SDK client, the last failed check, checks under way. */
interface Context {
  strapi: Strapi;
  cached: { secret: string; client: StripeClient } | null;
  /** The last failed check, so a page of plans does not ask Stripe on every read. */
  lastFailure: { fingerprint: string; problem: StripeProblem; at: number } | null;
  checking: Map<string, Promise<StripeProblem | null>>;
}

type SaveInput = {
  client_id?: string | null;
  secret?: string | null;
  publishable_key?: string | null;
  webhook_secret?: string | null;
  verified_fingerprint?: string | null;
};

const rows = (ctx: Context) => query(ctx.strapi, UID.stripeSetting);

const row = async (ctx: Context): Promise<StripeSettingsRow | null> => rows(ctx).findOne({});

const credentials = async (ctx: Context): Promise<StripeCredentials> => {
  const r = await row(ctx);
  const e = env();
  const open = (value: string | null | undefined, purpose: string) => {
    if (!value) return null;
    try {
      return unseal(value, purpose);
    } catch {
      ctx.strapi.log.error('[billing] a stored Stripe secret cannot be decrypted (was ENCRYPTION_KEY changed?)');
      return null;
    }
  };
  return {
    secretKey: open(r?.secret_encrypted, SECRET) ?? e.STRIPE_SECRET_KEY ?? null,
    publishableKey: r?.publishable_key || e.STRIPE_PUBLISHABLE_KEY || null,
    clientId: r?.client_id || e.STRIPE_CLIENT_ID || null,
    webhookSecret: open(r?.webhook_secret_encrypted, WEBHOOK) ?? e.STRIPE_WEBHOOK_SECRET ?? null,
    accountId: r?.account_id || null,
  };
};

const client = (ctx: Context, secret: string): StripeClient => {
  if (!ctx.cached || ctx.cached.secret !== secret) ctx.cached = { secret, client: createStripeClient(secret) };
  return ctx.cached.client;
};

/**
 * Asks Stripe whether it accepts the keys (a read with the secret key; a publishable key of the
 * other mode is refused without asking). Null when they work.
 */
const check = async (ctx: Context, secret: string, publishable: string): Promise<StripeProblem | null> => {
  if (stripeKeyMode(secret) !== stripeKeyMode(publishable)) return 'mismatch';
  try {
    await new StripeGateway(client(ctx, secret), null, await installId(ctx.strapi)).checkKey();
    return null;
  } catch (error) {
    const { kind, message } = classifyStripeError(error);
    ctx.strapi.log.warn(`[billing] Stripe did not accept the keys: ${message}`);
    return kind === 'unavailable' || kind === 'other' ? 'unreachable' : 'refused';
  }
};

/** Whether payments can work with the keys in use: accepted once, they stay so until they change. */
const paymentState = async (ctx: Context): Promise<PaymentState> => {
  const c = await credentials(ctx);
  if (!c.secretKey || !c.publishableKey) return { ready: false, problem: 'missing' };
  const fingerprint = fingerprintOf(c.secretKey, c.publishableKey);
  const r = await row(ctx);
  if (r?.verified_fingerprint === fingerprint) return { ready: true, problem: null };
  if (ctx.lastFailure?.fingerprint === fingerprint && Date.now() - ctx.lastFailure.at < RECHECK_MS) return { ready: false, problem: ctx.lastFailure.problem };
  // Reads arriving together (a page asks for the plans and the checklist at once) share one check.
  let pending = ctx.checking.get(fingerprint);
  if (!pending) {
    const { secretKey, publishableKey } = c;
    pending = (async () => {
      const problem = await check(ctx, secretKey, publishableKey);
      if (problem) ctx.lastFailure = { fingerprint, problem, at: Date.now() };
      else await markVerified(ctx, fingerprint);
      return problem;
    })().finally(() => ctx.checking.delete(fingerprint));
    ctx.checking.set(fingerprint, pending);
  }
  const problem = await pending;
  return { ready: !problem, problem };
};

const markVerified = async (ctx: Context, fingerprint: string) => {
  ctx.lastFailure = null;
  const existing = await row(ctx);
  if (existing) await rows(ctx).update({ where: { id: existing.id }, data: { verified_fingerprint: fingerprint } });
  else await rows(ctx).create({ data: { verified_fingerprint: fingerprint } });
};

const checkBeforeSave = async (
  ctx: Context,
  next: { secret: string | null; publishable: string | null },
): Promise<{ problem: StripeProblem | null; fingerprint: string | null }> => {
  if (!next.secret || !next.publishable) return { problem: null, fingerprint: null };
  const problem = await check(ctx, next.secret, next.publishable);
  if (problem) return { problem, fingerprint: null };
  const fingerprint = fingerprintOf(next.secret, next.publishable);
  // Accepted just now: an earlier failed check of the same keys is no longer the answer.
  if (ctx.lastFailure?.fingerprint === fingerprint) ctx.lastFailure = null;
  return { problem: null, fingerprint };
};

const save = async (ctx: Context, input: SaveInput) => {
  const data: Record<string, unknown> = {};
  if (input.verified_fingerprint !== undefined) data.verified_fingerprint = input.verified_fingerprint;
  if (input.client_id !== undefined) data.client_id = input.client_id || null;
  if (input.publishable_key !== undefined) data.publishable_key = input.publishable_key || null;
  if (input.secret) data.secret_encrypted = seal(input.secret, SECRET);
  if (input.webhook_secret) data.webhook_secret_encrypted = seal(input.webhook_secret, WEBHOOK);
  const existing = await row(ctx);
  if (existing) await rows(ctx).update({ where: { id: existing.id }, data });
  else await rows(ctx).create({ data });
};

const setAccount = async (ctx: Context, accountId: string | null): Promise<void> => {
  const existing = await row(ctx);
  const data = { account_id: accountId, connected_at: accountId ? new Date() : null };
  if (existing) await rows(ctx).update({ where: { id: existing.id }, data });
  else await rows(ctx).create({ data });
};

const publicView = async (ctx: Context) => {
  const r = await row(ctx);
  const c = await credentials(ctx);
  const state = await paymentState(ctx);
  return {
    ready: state.ready,
    problem: state.problem,
    client_id: c.clientId ?? '',
    publishable_key: c.publishableKey ?? '',
    redirect_url: `${env().PUBLIC_URL}/api/stripe/oauth/callback`,
    has_secret: Boolean(c.secretKey),
    has_webhook_secret: Boolean(c.webhookSecret),
    configured: Boolean(c.secretKey && c.publishableKey),
    connected: Boolean(c.accountId),
    account_id: c.accountId,
    connected_at: r?.connected_at ? new Date(r.connected_at).toISOString() : null,
  };
};

/**
 * The card provider configuration: what the admin saved (secrets sealed with the
 * app's encryption key), falling back to the environment. Builds the SDK client and gateway.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const ctx: Context = { strapi, cached: null, lastFailure: null, checking: new Map() };

  return {
    credentials: () => credentials(ctx),

    async configured(): Promise<boolean> {
      const c = await credentials(ctx);
      return Boolean(c.secretKey && c.publishableKey);
    },

    paymentState: () => paymentState(ctx),

    /** Whether payments can work: keys set and accepted by Stripe. */
    async ready(): Promise<boolean> {
      return (await paymentState(ctx)).ready;
    },

    /**
     * Checks the keys a save would leave in use before anything is written: refused, of mixed
     * modes or unverifiable keys are not saved. Keys not both set yet are saved unchecked.
     */
    checkBeforeSave: (next: { secret: string | null; publishable: string | null }) => checkBeforeSave(ctx, next),

    redirectUrl(): string {
      return `${env().PUBLIC_URL}/api/stripe/oauth/callback`;
    },

    /** The gateway for this installation (keyed by its install id), or null when payments are not configured. */
    async gateway(): Promise<StripeGateway | null> {
      const c = await credentials(ctx);
      return c.secretKey ? new StripeGateway(client(ctx, c.secretKey), c.accountId, await installId(strapi)) : null;
    },

    async connect(): Promise<StripeConnect | null> {
      const c = await credentials(ctx);
      return c.secretKey ? new StripeConnect(client(ctx, c.secretKey), await installId(strapi)) : null;
    },

    save: (input: SaveInput) => save(ctx, input),

    setAccount: (accountId: string | null) => setAccount(ctx, accountId),

    publicView: () => publicView(ctx),
  };
};
