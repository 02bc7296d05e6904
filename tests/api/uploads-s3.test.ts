import request from 'supertest';
import { startFakeS3, type FakeS3 } from '../fakes/s3';
import { call, spawnApp, type SpawnedApp } from './support/spawn';

/**
 * With S3_BUCKET set, uploads go to the bucket through Strapi's aws-s3 provider (here the
 * S3-compatible fake of tests/fakes/s3, which checks every request's SigV4 signature): the answer
 * carries the public URL, the bucket holds the exact bytes, deleting the owner deletes the object,
 * and a wrong secret fails the upload without leaving a row or showing the secret. Runs on SQLite
 * (each app is started on a fresh database of its own).
 */
const describeSqlite = process.env.DATABASE_URL ? describe.skip : describe;

const BUCKET = 'branchify-uploads';
const PASSWORD = 'correct-horse-42';
// An SVG already in the form the sanitiser writes, so the bytes stored are exactly these (rasters
// may be re-encoded smaller by the upload plugin's size optimisation).
const SVG = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#2f27ce"></circle></svg>',
);
// A real PNG (the upload plugin decodes every image it stores).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);

interface Account {
  id: number;
  token: string;
}

/** Registers an account on the given app (an install's first account is its verified admin). */
const register = async (app: SpawnedApp, email: string): Promise<Account> => {
  const res = await call(`${app.base}/api/auth/register`, {
    method: 'POST',
    body: { first_name: 'Test', last_name: 'User', email, password: PASSWORD, password_confirmation: PASSWORD },
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  const data = res.body.data as { user: { id: number }; access_token: string };
  return { id: data.user.id, token: data.access_token };
};

/** A later account, verified through the link the product logs when no mailer is configured. */
const verifiedCreator = async (app: SpawnedApp, email: string): Promise<Account> => {
  const account = await register(app, email);
  const prefix = `link for ${email}: `;
  let link: string | undefined;
  for (let i = 0; i < 50 && !link; i += 1) {
    const at = app.log().indexOf(prefix);
    if (at >= 0) link = /^\S+/.exec(app.log().slice(at + prefix.length))?.[0];
    else await new Promise((r) => setTimeout(r, 100));
  }
  if (!link) throw new Error(`no verification link logged for ${email}`);
  const verified = await call(`${app.base}/api/auth/verify-email`, { method: 'POST', body: Object.fromEntries(new URL(link).searchParams) });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${JSON.stringify(verified.body)}`);
  return account;
};

const s3Env = (s3: FakeS3, secret = s3.secretAccessKey): Record<string, string> => ({
  S3_BUCKET: BUCKET,
  S3_REGION: s3.region,
  S3_ENDPOINT: s3.url,
  S3_FORCE_PATH_STYLE: 'true',
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: secret,
  S3_PUBLIC_URL: `${s3.url}/${BUCKET}`,
  // Outside production the product logs verification links (no mailer here).
  NODE_ENV: 'test',
});

/** The object key a public URL names. */
const keyOf = (s3: FakeS3, url: string) => url.slice(`${s3.url}/${BUCKET}/`.length);

describeSqlite('uploads on S3', () => {
  let s3: FakeS3;
  let app: SpawnedApp | null = null;

  beforeAll(async () => {
    s3 = await startFakeS3({ buckets: [BUCKET] });
  });
  afterEach(async () => {
    await app?.cleanUp();
    app = null;
  });
  afterAll(async () => {
    await s3.stop();
  });

  it("stores creators' images and the admin's logo in the bucket, and deletes them with their owner", async () => {
    app = await spawnApp(s3Env(s3));
    const admin = await register(app, 's3-admin@example.test');
    const creator = await verifiedCreator(app, 's3-creator@example.test');

    const res = await request(app.base).post('/api/uploads/images').set('Authorization', `Bearer ${creator.token}`).attach('image', SVG, 'button.svg');
    expect(res.status).toBe(201);
    const url = res.body.data.url as string;
    expect(url).toMatch(new RegExp(`^${s3.url}/${BUCKET}/image[_-][0-9a-f]{16}_[0-9a-f]+\\.svg$`));
    const stored = s3.object(BUCKET, keyOf(s3, url));
    expect(stored?.body.toString()).toBe(SVG.toString());
    expect(stored).toMatchObject({ contentType: 'image/svg+xml', acl: 'public-read' });
    // Every request the app made was signed with the configured key (unsigned ones are refused).
    expect(s3.requests.filter((r) => r.method === 'PUT').every((r) => r.signed)).toBe(true);
    // Served from the public URL as a browser would fetch it.
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(SVG)).toBe(true);

    const db = app.openDb();
    try {
      expect(await db('branchify_creator_images').where({ owner_id: creator.id, url }).first()).toBeTruthy();
      expect(await db('files').where({ url, provider: 'aws-s3' }).first()).toBeTruthy();
    } finally {
      await db.destroy();
    }

    const logo = await request(app.base)
      .post('/api/admin/customizations/images')
      .set('Authorization', `Bearer ${admin.token}`)
      .attach('app_logo', PNG, 'logo.png');
    expect(logo.status).toBe(200);
    const logoUrl = logo.body.data.app_logo_url as string;
    expect(logoUrl.startsWith(`${s3.url}/${BUCKET}/`)).toBe(true);
    const storedLogo = s3.object(BUCKET, keyOf(s3, logoUrl));
    expect(storedLogo?.contentType).toBe('image/png');
    expect(storedLogo?.body.subarray(0, 8).equals(PNG.subarray(0, 8))).toBe(true);

    const deleted = await call(`${app.base}/api/admin/users/${creator.id}`, { method: 'DELETE', token: admin.token });
    expect(deleted.status).toBe(200);
    expect(s3.object(BUCKET, keyOf(s3, url))).toBeUndefined();
    expect(s3.requests.some((r) => r.method === 'DELETE' && r.key === keyOf(s3, url))).toBe(true);
    // The logo is the install's, not the deleted user's.
    expect(s3.object(BUCKET, keyOf(s3, logoUrl))).toBeDefined();

    expect(app.log()).not.toContain(s3.secretAccessKey);
  });

  it('answers an error and keeps no row when the store refuses the credentials', async () => {
    const wrongSecret = 'not-the-secret-the-store-knows-000000000';
    app = await spawnApp(s3Env(s3, wrongSecret));
    await register(app, 's3-admin2@example.test');
    const creator = await verifiedCreator(app, 's3-creator2@example.test');
    const before = s3.objects().length;

    const res = await request(app.base).post('/api/uploads/images').set('Authorization', `Bearer ${creator.token}`).attach('image', PNG, 'button.png');
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.body.success).toBe(false);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(wrongSecret);
    expect(text).not.toMatch(/SignatureDoesNotMatch|at .*\.js:\d+/);
    expect(s3.objects().length).toBe(before);

    const db = app.openDb();
    try {
      expect(await db('branchify_creator_images').where({ owner_id: creator.id })).toEqual([]);
      expect(await db('files')).toEqual([]);
    } finally {
      await db.destroy();
    }
    expect(app.log()).not.toContain(wrongSecret);
  });
});
