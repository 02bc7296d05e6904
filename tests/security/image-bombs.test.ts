// @serial: changes the install's logo for the whole install (tests/harness/groups.js)
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import zlib from 'node:zlib';
import { CONTENT_LIMITS, MESSAGES } from '@branchify/shared';
import request from 'supertest';
import { call, spawnApp, type SpawnedApp } from '../api/support/spawn';
import { baseUrl } from '../api/support/http';
import { adminSession, verifiedUser, type Session } from '../api/support/users';
import { pngChunk } from '../api/support/png';
import { record } from './summary';

/**
 * An image is judged by the dimensions its header declares before anything decodes it: a small
 * file that unpacks to a huge bitmap (a decompression bomb) is refused with a field error, and the
 * server's memory stays bounded while several arrive at once beside legitimate uploads.
 */

const EDGE = 16000;
const UPLOADS_DIR = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');
const TOO_LARGE = { success: false, message: MESSAGES.imageTooManyPixels, errors: { image: [MESSAGES.imageTooManyPixels] } };

const ihdr = (width: number, height: number, bitDepth: number, colorType: number) => {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data.writeUInt8(bitDepth, 8);
  data.writeUInt8(colorType, 9);
  return pngChunk('IHDR', data);
};
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let madeBomb: Promise<Buffer> | null = null;
/** A complete, valid PNG of EDGE × EDGE black RGB pixels (made once): tiny compressed, huge decoded. */
const theBomb = () => (madeBomb ??= pngBomb(EDGE, EDGE));

/** A complete, valid PNG of width × height black RGB pixels. */
const pngBomb = async (width: number, height: number): Promise<Buffer> => {
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const row = Buffer.alloc(1 + width * 3);
  for (let y = 0; y < height; y += 1) if (!deflate.write(row)) await once(deflate, 'drain');
  deflate.end();
  await once(deflate, 'end');
  return Buffer.concat([PNG_SIGNATURE, ihdr(width, height, 8, 2), pngChunk('IDAT', Buffer.concat(parts)), pngChunk('IEND', Buffer.alloc(0))]);
};

/** A valid PNG (1-bit grey), for legitimate uploads of a given size. */
const png = (width: number, height: number): Buffer => {
  const row = Buffer.alloc(1 + Math.ceil(width / 8));
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([PNG_SIGNATURE, ihdr(width, height, 1, 0), pngChunk('IDAT', zlib.deflateSync(raw)), pngChunk('IEND', Buffer.alloc(0))]);
};

// Small real images whose headers are rewritten to claim EDGE × EDGE (their bodies stay tiny).
const JPG = Buffer.from(
  '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAACAAIDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABAf/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCSAK8I/9k=',
  'base64',
);
const WEBP = Buffer.from('UklGRjgAAABXRUJQVlA4ICwAAABwAQCdASoCAAIAAUAmJaACdAFAAAD+91kv/uyf//bJ//9sn/yaWHJtcxAAAA==', 'base64');

/** A PNG header claiming width × height, with a two-pixel body. */
const pngClaiming = (width: number, height: number) => Buffer.concat([png(2, 2).subarray(0, 8), ihdr(width, height, 1, 0), png(2, 2).subarray(33)]);
/** The JPEG above, its frame header (SOF0) claiming width × height. */
const jpegClaiming = (width: number, height: number) => {
  const out = Buffer.from(JPG);
  const sof = out.indexOf(Buffer.from([0xff, 0xc0]));
  out.writeUInt16BE(height, sof + 5);
  out.writeUInt16BE(width, sof + 7);
  return out;
};
/** The lossy WebP above, its VP8 frame header claiming width × height (14 bits each). */
const webpClaiming = (width: number, height: number) => {
  const out = Buffer.from(WEBP);
  const start = out.indexOf(Buffer.from([0x9d, 0x01, 0x2a]));
  out.writeUInt16LE(width, start + 3);
  out.writeUInt16LE(height, start + 5);
  return out;
};

const CLAIMS: Array<[string, Buffer, string]> = [
  ['png', pngClaiming(EDGE, EDGE), 'bomb.png'],
  ['jpeg', jpegClaiming(EDGE, EDGE), 'bomb.jpg'],
  ['webp', webpClaiming(EDGE, EDGE), 'bomb.webp'],
  ['png, past the decoder’s own limit', pngClaiming(60000, 60000), 'bomb.png'],
  ['png, one long edge', pngClaiming(CONTENT_LIMITS.imageMaxEdgePx + 1, 1), 'strip.png'],
  ['png, too many pixels within the edges', pngClaiming(CONTENT_LIMITS.imageMaxEdgePx, CONTENT_LIMITS.imageMaxEdgePx), 'square.png'],
];

let bombs = 0;
afterAll(() => record('image-bombs', bombs));

describe('image dimensions', () => {
  let creator: Session;
  let admin: Session;
  beforeAll(async () => {
    creator = await verifiedUser();
    admin = await adminSession();
  });
  afterAll(async () => {
    await admin.http.delete(`/api/admin/users/${creator.id}`, admin.token);
  });

  const upload = (session: Session, route: string, field: string, content: Buffer, name: string) =>
    request(baseUrl()).post(route).set('X-Forwarded-For', session.http.ip).set('Authorization', `Bearer ${session.token}`).attach(field, content, name);

  it('says the limits it enforces', () => {
    expect(MESSAGES.imageTooManyPixels).toContain(`${CONTENT_LIMITS.imageMaxEdgePx} pixels`);
    expect(MESSAGES.imageTooManyPixels).toContain(`${CONTENT_LIMITS.imageMaxPixels / 1_000_000} megapixels`);
  });

  it.each(CLAIMS)('a creator image whose header claims too many pixels (%s) is refused before decoding', async (_kind, content, name) => {
    const res = await upload(creator, '/api/uploads/images', 'image', content, name);
    bombs += 1;
    expect({ status: res.status, body: res.body }).toEqual({ status: 422, body: TOO_LARGE });
  });

  it.each(CLAIMS)('a logo or favicon whose header claims too many pixels (%s) is refused before decoding', async (_kind, content, name) => {
    for (const field of ['app_logo', 'app_favicon']) {
      const res = await upload(admin, '/api/admin/customizations/images', field, content, name);
      bombs += 1;
      expect({ field, status: res.status, body: res.body }).toEqual({
        field,
        status: 422,
        body: { success: false, message: MESSAGES.imageTooManyPixels, errors: { [field]: [MESSAGES.imageTooManyPixels] } },
      });
    }
  });

  it('an image at the limit is accepted, a complete bomb refused', async () => {
    const edge = CONTENT_LIMITS.imageMaxEdgePx;
    const atLimit = await upload(creator, '/api/uploads/images', 'image', png(edge, Math.floor(CONTENT_LIMITS.imageMaxPixels / edge)), 'wide.png');
    expect(atLimit.status).toBe(201);
    const bomb = await upload(creator, '/api/uploads/images', 'image', await theBomb(), 'bomb.png');
    bombs += 1;
    expect({ status: bomb.status, body: bomb.body }).toEqual({ status: 422, body: TOO_LARGE });
  });
});

/** Resident memory of a process, in MB (Linux). */
const rssMb = (pid: number): number => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
};

describe('memory under several bombs at once', () => {
  let app: SpawnedApp;
  /** What the spawned app stored under the shared public/uploads (its database goes with it, the files do not). */
  const stored: string[] = [];
  afterAll(async () => {
    await app?.cleanUp();
    for (const url of stored) fs.rmSync(path.join(UPLOADS_DIR, path.basename(url)), { force: true });
  });

  it('stays bounded while bombs and legitimate uploads arrive together', async () => {
    app = await spawnApp({ UPLOAD_RATE_LIMIT_MAX: '1000' });
    const owner = await call(`${app.base}/api/auth/register`, {
      method: 'POST',
      body: { first_name: 'Bo', last_name: 'Mb', email: 'bombs@example.test', password: 'correct-horse-42', password_confirmation: 'correct-horse-42' },
    });
    expect(owner.status).toBe(201);
    const token = (owner.body.data as { access_token: string }).access_token;
    const send = async (content: Buffer, name: string, route = '/api/uploads/images', field = 'image') => {
      const res = await request(app.base).post(route).set('Authorization', `Bearer ${token}`).attach(field, content, name);
      if (typeof res.body?.data?.url === 'string') stored.push(res.body.data.url);
      return res;
    };

    const legit = png(1200, 800);
    const bomb = await theBomb();
    // Warm: the image code paths loaded once before the baseline is read.
    expect((await send(legit, 'warm.png')).status).toBe(201);
    const pid = app.child.pid!;
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 25);
    const answers = await Promise.all([
      ...[1, 2, 3].map(() => send(bomb, 'bomb.png')),
      send(bomb, 'logo.png', '/api/admin/customizations/images', 'app_logo'),
      ...CLAIMS.slice(0, 3).map(([, content, name]) => send(content, name)),
      ...[1, 2, 3, 4].map((n) => send(legit, `legit-${n}.png`)),
    ]).finally(() => clearInterval(sampler));
    peak = Math.max(peak, rssMb(pid));
    bombs += 7;

    console.log(`image bombs: server RSS ${before.toFixed(0)} MB before, ${peak.toFixed(0)} MB at most while 7 bombs and 4 uploads ran`);
    expect({
      statuses: answers.map((a) => a.status),
      refusals: answers.slice(0, 7).map((a) => a.body.message),
      growthMb: Math.round(peak - before),
      bounded: peak - before < 300,
    }).toEqual({
      statuses: [422, 422, 422, 422, 422, 422, 422, 201, 201, 201, 201],
      refusals: Array(7).fill(MESSAGES.imageTooManyPixels),
      growthMb: Math.round(peak - before),
      bounded: true,
    });
    // A hang guard for a test that starts a server of its own, not a performance assertion.
  }, 600_000);
});
