import { env } from '@branchify/shared/node';
import { installId } from '../operations/install-id';
import { seal, unseal } from '../utils/secret-box';
import { query, UID, type Strapi } from '../utils/strapi';
import { StripeConnect, StripeGateway } from './gateway';
import { createStripeClient, type StripeClient } from './stripe-client';

export interface StripeCredentials {
  secretKey: string | null;
  publishableKey: string | null;
  clientId: string | null;
  webhookSecret: string | null;
  accountId: string | null;
}

export interface StripeSettingsRow {
  id: number;
  client_id: string | null;
  secret_encrypted: string | null;
  publishable_key: string | null;
  webhook_secret_encrypted: string | null;
  account_id: string | null;
  connected_at: string | Date | null;
}

const SECRET = 'stripe.secret';
const WEBHOOK = 'stripe.webhook-secret';

/**
 * The card provider configuration: what the admin saved (secrets sealed with the
 * app's encryption key), falling back to the environment. Builds the SDK client and gateway.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const rows = () => query(strapi, UID.stripeSetting);
  let cached: { secret: string; client: StripeClient } | null = null;

  const row = async (): Promise<StripeSettingsRow | null> => rows().findOne({});

  const credentials = async (): Promise<StripeCredentials> => {
    const r = await row();
    const e = env();
    const open = (value: string | null | undefined, purpose: string) => {
      if (!value) return null;
      try {
        return unseal(value, purpose);
      } catch {
        strapi.log.error('[billing] a stored Stripe secret cannot be decrypted (was ENCRYPTION_KEY changed?)');
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

  const client = (secret: string): StripeClient => {
    if (!cached || cached.secret !== secret) cached = { secret, client: createStripeClient(secret) };
    return cached.client;
  };

  return {
    credentials,

    async configured(): Promise<boolean> {
      const c = await credentials();
      return Boolean(c.secretKey && c.publishableKey);
    },

    redirectUrl(): string {
      return `${env().PUBLIC_URL}/api/stripe/oauth/callback`;
    },

    /** The gateway for this installation (keyed by its install id), or null when payments are not configured. */
    async gateway(): Promise<StripeGateway | null> {
      const c = await credentials();
      return c.secretKey ? new StripeGateway(client(c.secretKey), c.accountId, await installId(strapi)) : null;
    },

    async connect(): Promise<StripeConnect | null> {
      const c = await credentials();
      return c.secretKey ? new StripeConnect(client(c.secretKey), await installId(strapi)) : null;
    },

    async save(input: { client_id?: string | null; secret?: string | null; publishable_key?: string | null; webhook_secret?: string | null }) {
      const data: Record<string, unknown> = {};
      if (input.client_id !== undefined) data.client_id = input.client_id || null;
      if (input.publishable_key !== undefined) data.publishable_key = input.publishable_key || null;
      if (input.secret) data.secret_encrypted = seal(input.secret, SECRET);
      if (input.webhook_secret) data.webhook_secret_encrypted = seal(input.webhook_secret, WEBHOOK);
      const existing = await row();
      if (existing) await rows().update({ where: { id: existing.id }, data });
      else await rows().create({ data });
    },

    async setAccount(accountId: string | null): Promise<void> {
      const existing = await row();
      const data = { account_id: accountId, connected_at: accountId ? new Date() : null };
      if (existing) await rows().update({ where: { id: existing.id }, data });
      else await rows().create({ data });
    },

    async publicView() {
      const r = await row();
      const c = await credentials();
      return {
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
    },
  };
};
