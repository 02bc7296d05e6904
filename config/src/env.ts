import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { CMS_DIR, ENV_FILE } from './paths';
import { loadEnvFile } from './secrets';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' }).transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: 'must be a whole number' })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { message: `must be between ${min} and ${max}` });
const url = z.string().refine((v) => /^https?:\/\/[^\s]+$/i.test(v), { message: 'must be an http(s) URL' });

/**
 * Every environment variable the application reads, with its default. Nothing else in the code
 * base reads process.env (README "Configuration" lists these).
 */
const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: int(1, 65535).default(1337),
    PUBLIC_URL: url.default('http://localhost:1337'),
    LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly']).default('info'),
    LOG_FILE: z.string().min(1).optional(),

    DATABASE_URL: z
      .string()
      .refine((v) => /^postgres(ql)?:\/\//.test(v), { message: 'must be a postgres:// URL' })
      .optional(),
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, { message: 'must be a lowercase SQL identifier' })
      .default('public'),
    DATABASE_POOL_MIN: int(0, 100).default(0),
    DATABASE_POOL_MAX: int(1, 200).default(10),
    DATABASE_SSL: bool.default(false),
    DATABASE_FILENAME: z
      .string()
      .min(1)
      .default(path.join(CMS_DIR, '.tmp', 'data.db')),

    APP_KEYS: z
      .string()
      .min(1)
      .transform((v) =>
        v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean),
      ),
    API_TOKEN_SALT: z.string().min(16),
    ADMIN_JWT_SECRET: z.string().min(16),
    TRANSFER_TOKEN_SALT: z.string().min(16),
    JWT_SECRET: z.string().min(16),
    ENCRYPTION_KEY: z.string().min(16),

    ACCESS_TOKEN_TTL_SECONDS: int(30, 86400).default(900),
    REFRESH_TOKEN_TTL_DAYS: int(1, 365).default(30),
    VERIFICATION_LINK_TTL_MINUTES: int(1, 10080).default(60),
    PASSWORD_RESET_TTL_MINUTES: int(1, 1440).default(60),

    RATE_LIMIT_WINDOW_SECONDS: int(1, 86400).default(60),
    RATE_LIMIT_IP_MAX: int(1, 1_000_000).default(20),
    RATE_LIMIT_ACCOUNT_MAX: int(1, 1_000_000).default(5),
    /** Creators' image uploads per account and per client address per window. */
    UPLOAD_RATE_LIMIT_MAX: int(1, 1_000_000).default(30),
    /** Funnel saves per account and per client address per window (the editor saves on demand). */
    EDIT_RATE_LIMIT_MAX: int(1, 1_000_000).default(120),
    /** Integrator API requests per API token per window. */
    INTEGRATOR_RATE_LIMIT_MAX: int(1, 1_000_000).default(300),

    CORS_ORIGINS: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      )
      .pipe(z.array(url))
      .optional(),

    PROXY_ENABLED: bool.default(false),
    PROXY_MAX_IPS_COUNT: int(1, 10).default(1),

    // Graceful shutdown (SIGTERM/SIGINT): how long in-flight requests and open connections may
    // take to finish before they are cut.
    SHUTDOWN_GRACE_MS: int(0, 600_000).default(10_000),
    // The longest a billing action waits for a customer's lock held by another process before it
    // answers 503 (a lock that is never released must not hang requests forever).
    BILLING_LOCK_WAIT_MS: int(100, 600_000).default(30_000),
    // Rate-limit counters live in Redis when set (redis:// or rediss://), in the database otherwise.
    REDIS_URL: z
      .string()
      .refine((v) => /^rediss?:\/\//.test(v), { message: 'must be a redis:// or rediss:// URL' })
      .optional(),
    /** Prefix of every key Branchify writes to Redis (installs sharing one Redis need their own). */
    REDIS_KEY_PREFIX: z.string().min(1).max(100).default('branchify:'),

    SERVE_ADMIN_PANEL: bool.default(true),
    /** Lets the first visitor claim Strapi's /cms super admin over HTTP: only for a deliberate, supervised setup. */
    CMS_ADMIN_REGISTRATION: bool.default(false),

    // Stripe: keys may also be saved by an admin (stored encrypted); these are the fallbacks.
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_PUBLISHABLE_KEY: z.string().optional(),
    STRIPE_CLIENT_ID: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    // Where the SDK sends requests (tests point it at tests/fakes/stripe).
    STRIPE_API_HOST: z.string().optional(),
    STRIPE_API_PORT: int(1, 65535).optional(),
    STRIPE_API_PROTOCOL: z.enum(['http', 'https']).default('https'),
    STRIPE_TIMEOUT_MS: int(100, 120_000).default(20_000),
    STRIPE_MAX_NETWORK_RETRIES: int(0, 5).default(2),

    // Player: how long a node may serve a cached funnel payload before re-reading it (changes made
    // through this node drop it at once), and the per-IP ceiling on view/interaction events.
    PLAYER_CACHE_TTL_SECONDS: int(0, 3600).default(5),
    // How often a node looks at the cache version in the database (a change made through any node
    // bumps it, and every node then drops its cached payloads).
    CACHE_VERSION_CHECK_MS: int(0, 60_000).default(500),
    INGEST_RATE_LIMIT_IP_MAX: int(1, 10_000_000).default(600),

    // Mail outbox: retries back off exponentially from the base, capped; a row is given up
    // (status 'failed', kept) only after MAIL_MAX_ATTEMPTS.
    MAIL_RETRY_BASE_MS: int(10, 86_400_000).default(30_000),
    MAIL_RETRY_MAX_MS: int(10, 86_400_000).default(3_600_000),
    MAIL_MAX_ATTEMPTS: int(1, 1000).default(25),
    MAIL_WORKER_INTERVAL_MS: int(10, 3_600_000).default(5_000),
    /** Sent mail is deleted from the outbox after this many days. */
    MAIL_RETENTION_DAYS: int(1, 3650).default(30),
    MAIL_SMTP_TIMEOUT_MS: int(100, 300_000).default(30_000),

    // Outgoing webhooks: retries back off exponentially from the base, capped; a delivery is given up
    // (status 'failed', kept, resendable) after WEBHOOKS_MAX_ATTEMPTS.
    WEBHOOKS_RETRY_BASE_MS: int(10, 86_400_000).default(30_000),
    WEBHOOKS_RETRY_MAX_MS: int(10, 86_400_000).default(6 * 3_600_000),
    WEBHOOKS_MAX_ATTEMPTS: int(1, 100).default(12),
    WEBHOOKS_WORKER_INTERVAL_MS: int(10, 3_600_000).default(5_000),
    WEBHOOKS_TIMEOUT_MS: int(100, 120_000).default(10_000),
    /** How long a node may use its cached list of enabled endpoints (changes made through it apply at once). */
    WEBHOOKS_ENDPOINT_CACHE_SECONDS: int(0, 3600).default(5),
    /** Finished deliveries (and their attempts) are deleted after this many days. */
    WEBHOOKS_RETENTION_DAYS: int(1, 3650).default(30),
    /**
     * IP addresses webhooks may reach although they are private or loopback (an operator's explicit
     * exception, e.g. an internal receiver); every other such address is refused.
     */
    WEBHOOKS_ALLOWED_PRIVATE_ADDRESSES: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().refine((a) => isIP(a) !== 0, { message: 'must list IP addresses' })))
      .optional(),
    /** A PEM bundle of extra certificate authorities webhook receivers may present (besides the system's). */
    WEBHOOKS_CA_FILE: z.string().min(1).optional(),

    // Logo and favicon uploads (the spec's default image limit).
    IMAGE_UPLOAD_MAX_KB: int(1, 102_400).default(1000),
    /** Where multipart uploads are written while their request runs (one folder per request, removed with it). */
    UPLOAD_TMP_DIR: z
      .string()
      .min(1)
      .default(path.join(CMS_DIR, '.tmp', 'upload-tmp')),

    // Uploads on S3 (or an S3-compatible store) when S3_BUCKET is set, local disk otherwise. A set
    // bucket needs S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).optional(),
    /** An S3-compatible store's address (MinIO, R2, …); unset means AWS. */
    S3_ENDPOINT: url.optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** The address files are served from (a CDN or the bucket's public URL); unset: the store's own URL. */
    S3_PUBLIC_URL: url.optional(),
    /** `<endpoint>/<bucket>/<key>` addresses instead of `<bucket>.<endpoint>/<key>` (most S3-compatible stores). */
    S3_FORCE_PATH_STYLE: bool.default(false),
    /** The canned ACL sent with each object; `none` for buckets with ACLs disabled (public through a bucket policy). */
    S3_ACL: z.enum(['public-read', 'none']).default('public-read'),

    // Application updates: the feed that answers the latest version for a license key, and the
    // Ed25519 public key (PEM, or base64 of the raw 32-byte key or of the DER) packages are signed with.
    UPDATE_FEED_URL: url.optional(),
    UPDATE_PUBLIC_KEY: z.string().min(1).optional(),
    UPDATES_DIR: z
      .string()
      .min(1)
      .default(path.join(CMS_DIR, '.tmp', 'updates')),
    UPDATE_TIMEOUT_MS: int(100, 600_000).default(60_000),
    UPDATE_MAX_PACKAGE_MB: int(1, 10_000).default(500),
  })
  .superRefine((e, ctx) => {
    if (!e.S3_BUCKET) return;
    for (const name of ['S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!e[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required when S3_BUCKET is set' });
    }
  });

/** Variables whose value an error message never repeats. */
const SECRET_NAMES = /SECRET|SALT|APP_KEYS|ENCRYPTION_KEY/;

export type Env = z.output<typeof schema>;

/** Thrown when a variable is malformed; the message names the variable and what it must be. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const parseEnv = (source: NodeJS.ProcessEnv): Env => {
  // Empty strings count as "not set", so `FOO=` in a .env falls back to the default.
  const input = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    const what = issue.code === 'invalid_type' ? 'is required' : issue.message;
    const got = SECRET_NAMES.test(name) && source[name] ? 'a value, not shown' : JSON.stringify(source[name] ?? null);
    return `  ${name} ${what} (got ${got})`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
};

let cached: Env | undefined;

/** The validated configuration; loads the env file (generating secrets) the first time. */
export const env = (): Env => {
  if (!cached) {
    loadEnvFile(ENV_FILE);
    cached = parseEnv(process.env);
  }
  return cached;
};
