import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { addVideo, branchElement, createFunnel, freePlan, subscribedUser } from './support/content';
import { baseUrl, client } from './support/http';
import { registerUser, verifiedUser, type Session } from './support/users';
import { privatePngChunk } from './support/png';
import { useApiSuite } from './support/suite';

const UPLOADS_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');
const ROUTE = '/api/uploads/images';
const KB = 1024;
/** The suite runs with the default UPLOAD_RATE_LIMIT_MAX: 30 uploads per account and address per window. */
const UPLOAD_MAX = 30;

// Real images (the upload plugin decodes every image it stores).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);
const JPG = Buffer.from(
  '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCSAK8I/9k=',
  'base64',
);
const WEBP = Buffer.from('UklGRjgAAABXRUJQVlA4ICwAAABwAQCdASoCAAIAAUAmJaACdAFAAAD+91kv/uyf//bJ//9sn/yaWHJtcxAAAA==', 'base64');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#2f27ce"/></svg>';
const EVIL_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert('onload')">
  <script>alert('script')</script>
  <rect width="10" height="10" fill="#2f27ce" onclick="alert('click')"/>
</svg>`;

/** The PNG above, grown to exactly `total` bytes with a private ancillary chunk decoders skip. */
const pngOfSize = (total: number): Buffer => {
  const iendAt = PNG.length - 12;
  const data = Buffer.alloc(total - PNG.length - 12, 0x20);
  const png = Buffer.concat([PNG.subarray(0, iendAt), privatePngChunk(data), PNG.subarray(iendAt)]);
  expect(png.length).toBe(total);
  return png;
};

const upload = (session: Session | null, content?: Buffer, name?: string, http = session?.http ?? client()) => {
  const req = request(baseUrl()).post(ROUTE).set('X-Forwarded-For', http.ip).set('Accept', 'application/json');
  if (session) req.set('Authorization', `Bearer ${session.token}`);
  return content ? req.attach('image', content, name) : req;
};

/** A served file's bytes, whatever its content type. */
const fetchRaw = (url: string) =>
  request(baseUrl())
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

const onDisk = (url: string) => fs.existsSync(path.join(UPLOADS_DIR, path.basename(url)));

const suite = useApiSuite();
let creator: Session;
/** Users this suite made that still own uploads: deleted at the end, which removes their files. */
const owners: Session[] = [];

beforeAll(async () => {
  creator = await verifiedUser();
  owners.push(creator);
});
afterAll(async () => {
  for (const owner of owners) await suite.admin.http.delete(`/api/admin/users/${owner.id}`, suite.admin.token);
});

describe('POST /api/uploads/images', () => {
  it.each([
    ['png', PNG, 'button.png', 'image/png'],
    ['jpg', JPG, 'photo.jpg', 'image/jpeg'],
    ['jpeg', JPG, 'photo.jpeg', 'image/jpeg'],
    ['webp', WEBP, 'overlay.webp', 'image/webp'],
    ['svg', Buffer.from(SVG), 'shape.svg', 'image/svg+xml'],
  ])('accepts a %s, records it for its owner and serves it at the returned URL', async (_kind, content, name, type) => {
    const res = await upload(creator, content, name);
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const url = res.body.data.url as string;
    expect(Object.keys(res.body.data)).toEqual(['url']);
    // Our own name, never the client's.
    expect(url).toMatch(/^\/uploads\/[A-Za-z0-9._-]+$/);
    expect(url).not.toContain(name.split('.')[0]);
    const row = await suite.db('branchify_creator_images').where({ url }).first();
    expect(row).toMatchObject({ owner_id: creator.id });
    expect(Number(row.size)).toBeGreaterThan(0);
    const served = await fetchRaw(url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toContain(type);
  });

  it("refuses a file whose content is not what its name says, and other types: 'invalid file type, please upload'", async () => {
    const before = await suite.db('branchify_creator_images').where({ owner_id: creator.id }).count({ n: '*' });
    for (const [content, name] of [
      [JPG, 'looks-like.png'],
      [Buffer.from('just some text\n'), 'notes.txt'],
      [PNG, 'image.gif'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'page.svg'],
      [Buffer.from(SVG), 'shape.png'],
    ] as Array<[Buffer, string]>) {
      const res = await upload(creator, content, name);
      expect({ name, status: res.status }).toEqual({ name, status: 422 });
      expect(res.body).toEqual({ success: false, message: 'invalid file type, please upload', errors: { image: ['invalid file type, please upload'] } });
    }
    expect(await suite.db('branchify_creator_images').where({ owner_id: creator.id }).count({ n: '*' })).toEqual(before);
  });

  it("accepts 2000 KB and refuses 2001 KB: 'File size must be lower than 2000kb'", async () => {
    const over = await upload(creator, pngOfSize(2001 * KB), 'big.png');
    expect(over.status).toBe(422);
    expect(over.body).toEqual({
      success: false,
      message: 'File size must be lower than 2000kb',
      errors: { image: ['File size must be lower than 2000kb'] },
    });
    const atLimit = await upload(creator, pngOfSize(2000 * KB), 'limit.png');
    expect(atLimit.status).toBe(201);
    const row = await suite.db('branchify_creator_images').where({ url: atLimit.body.data.url }).first();
    expect(Number(row.size)).toBe(2000 * KB);
  });

  it('stores an SVG only after removing scripts and event handlers', async () => {
    const res = await upload(creator, Buffer.from(EVIL_SVG), 'evil.svg');
    expect(res.status).toBe(201);
    const served = await fetchRaw(res.body.data.url);
    expect(served.status).toBe(200);
    const svg = (served.body as Buffer).toString('utf8');
    expect(svg).toContain('<svg');
    expect(svg).toContain('<rect');
    expect(svg).not.toMatch(/<script|onload|onclick|javascript:/i);
  });

  it('needs exactly one file in the image field', async () => {
    for (const req of [
      upload(creator).field('note', 'no file'),
      upload(creator).attach('file', PNG, 'wrong-field.png'),
      upload(creator).attach('image', PNG, 'one.png').attach('image', PNG, 'two.png'),
      creator.http.post(ROUTE, { image: 'https://example.com/a.png' }, creator.token),
    ]) {
      const res = await req;
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ success: false, message: 'Please choose an image to upload.', errors: { image: ['Please choose an image to upload.'] } });
    }
  });

  it('is for signed-in creators with a verified email (admins too): 401 anonymous, 403 unverified', async () => {
    const anonymous = await upload(null, PNG, 'a.png');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ success: false, message: 'Unauthenticated.' });
    const unverified = await registerUser();
    owners.push(unverified);
    const refused = await upload(unverified, PNG, 'a.png');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, message: 'Your email address is not verified.' });
    expect(await suite.db('branchify_creator_images').where({ owner_id: unverified.id })).toHaveLength(0);

    const byAdmin = await upload(suite.admin, PNG, 'admin.png');
    expect(byAdmin.status).toBe(201);
    const row = await suite.db('branchify_creator_images').where({ url: byAdmin.body.data.url }).first();
    expect(row).toMatchObject({ owner_id: suite.admin.id });
    // The admin is not deleted at the end: remove its upload the way the media library would.
    await suite.db('branchify_creator_images').where({ id: row.id }).delete();
    fs.rmSync(path.join(UPLOADS_DIR, path.basename(byAdmin.body.data.url)), { force: true });
  });

  it(`limits each account to ${UPLOAD_MAX} uploads per window (429 with Retry-After)`, async () => {
    const busy = await verifiedUser();
    owners.push(busy);
    // Refused attempts count too: the budget is for requests, not for stored files.
    for (let i = 0; i < UPLOAD_MAX; i += 1) expect((await upload(busy).field('note', String(i))).status).toBe(422);
    const limited = await upload(busy, PNG, 'one-more.png');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, message: 'Too many attempts. Please wait a minute and try again.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another creator is not affected.
    expect((await upload(creator, PNG, 'still-fine.png')).status).toBe(201);
  });
});

describe('uploaded images in a funnel', () => {
  it('saves a funnel whose branch button and overlay use the uploaded image', async () => {
    const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    owners.push(owner);
    const url = (await upload(owner, PNG, 'button.png')).body.data.url as string;
    const video = await addVideo(owner);
    const funnel = await createFunnel(owner);
    const element = branchElement('el-1', 'a', null, {
      overlay: { enabled: true, type: 'image', image: { source: url, opacity: 0.5 } },
    });
    element.data.branches[0] = { ...element.data.branches[0]!, type: 'image', image: { source: url } } as never;
    const res = await owner.http.put(
      `/api/funnels/${funnel.id}`,
      { title: 'With images', videos: [{ id: video.id, editor_id: 'a', elements: [element] }] },
      owner.token,
    );
    expect(res.status).toBe(200);
    const saved = res.body.data.videos[0].elements[0].data;
    expect(saved.branches[0]).toMatchObject({ type: 'image', image: { source: url } });
    expect(saved.overlay).toMatchObject({ enabled: true, type: 'image', image: { source: url, opacity: 0.5 } });
    const player = await client().get(`/api/funnels/${funnel.identifier}/player`);
    expect(player.body.data.videos[0].elements[0].data.overlay.image.source).toBe(url);
  });
});

describe('deleting the owner', () => {
  it('removes their image rows and files, and leaves other creators’ images alone', async () => {
    const leaving = await verifiedUser();
    const urls: string[] = [];
    for (const [content, name] of [
      [PNG, 'a.png'],
      [pngOfSize(600 * KB), 'b.png'],
      [Buffer.from(SVG), 'c.svg'],
    ] as Array<[Buffer, string]>) {
      const res = await upload(leaving, content, name);
      expect(res.status).toBe(201);
      urls.push(res.body.data.url);
    }
    const stays = (await upload(creator, PNG, 'stays.png')).body.data.url as string;
    expect(await suite.db('branchify_creator_images').where({ owner_id: leaving.id })).toHaveLength(3);
    for (const url of urls) expect(onDisk(url)).toBe(true);

    const res = await suite.admin.http.delete(`/api/admin/users/${leaving.id}`, suite.admin.token);
    expect(res.status).toBe(200);
    expect(await suite.db('branchify_creator_images').where({ owner_id: leaving.id })).toHaveLength(0);
    for (const url of urls) {
      expect({ url, onDisk: onDisk(url) }).toEqual({ url, onDisk: false });
      // The upload plugin's own record goes too.
      expect(await suite.db('files').where({ url })).toHaveLength(0);
      expect((await request(baseUrl()).get(url)).status).toBe(404);
    }
    expect(onDisk(stays)).toBe(true);
    expect(await suite.db('branchify_creator_images').where({ url: stays })).toHaveLength(1);
  });
});
