// @serial: changes branding, the mailer, plans for the whole install (tests/harness/groups.js)
import fc from 'fast-check';
import { MESSAGES } from '@branchify/shared';
import { addVideo, createFunnel, freePlan, subscribedUser, textElement, twoVideoDocument } from '../api/support/content';
import request from 'supertest';
import { baseUrl, client } from '../api/support/http';
import { configureMailer, removeMailer, sink, verifiedUserByMail } from '../api/support/mail';
import { PASSWORD, registerUser, uniqueEmail, type Session } from '../api/support/users';
import { record } from './summary';
import { useApiSuite } from '../api/support/suite';

/**
 * Arbitrary input at every edge that takes a document: the answer is a success or a 422 naming
 * fields, never a 500, and a refused document never reaches the database. Seeds are printed by
 * fast-check on failure (re-run with the same seed to reproduce).
 */
const RUNS = 60;
/** The funnel document is the richest input: more cases. */
const FUNNEL_RUNS = 100;
/** FUZZ_SEED=<n> replays a run; the seed is printed either way. */
const SEED = Number(process.env.FUZZ_SEED) || Date.now() % 2 ** 31;
fc.configureGlobal({ seed: SEED, numRuns: RUNS });
const suite = useApiSuite();
let creator: Session;
let funnelId: number;
let identifier: string;
let base: ReturnType<typeof twoVideoDocument>;
/** Saves have a budget per account (EDIT_RATE_LIMIT_MAX a window): the fuzzed saves go round these owners' funnels. */
const SEATS = 3;
let seats: Array<{ owner: Session; funnelId: number; identifier: string; videoIds: Map<number, number> }> = [];

beforeAll(async () => {
  console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it)`);
  creator = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
  const [a, b] = [await addVideo(creator), await addVideo(creator)];
  const funnel = await createFunnel(creator);
  funnelId = funnel.id;
  identifier = funnel.identifier;
  base = twoVideoDocument(a.id, b.id);
  expect((await creator.http.put(`/api/funnels/${funnelId}`, base, creator.token)).status).toBe(200);
  seats = [];
  for (let i = 0; i < SEATS; i += 1) {
    const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const [c, d] = [await addVideo(owner), await addVideo(owner)];
    const made = await createFunnel(owner);
    expect((await owner.http.put(`/api/funnels/${made.id}`, twoVideoDocument(c.id, d.id), owner.token)).status).toBe(200);
    seats.push({
      owner,
      funnelId: made.id,
      identifier: made.identifier,
      videoIds: new Map([
        [a.id, c.id],
        [b.id, d.id],
      ]),
    });
  }
});

/** A fuzzed document for another owner: the base's video ids (where they still stand) become that owner's. */
const forSeat = (doc: unknown, videoIds: ReadonlyMap<number, number>): unknown => {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc) || !Array.isArray((doc as { videos?: unknown }).videos)) return doc;
  const videos = (doc as { videos: unknown[] }).videos.map((v) => {
    const id = v && typeof v === 'object' ? (v as { id?: unknown }).id : undefined;
    return typeof id === 'number' && videoIds.has(id) ? { ...(v as object), id: videoIds.get(id) } : v;
  });
  return { ...(doc as object), videos };
};

/** Every path into a JSON value (objects and arrays), the root included. */
const pathsOf = (value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> => {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(value.flatMap((v, i) => pathsOf(v, [...prefix, i])));
  if (value && typeof value === 'object') return here.concat(Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...prefix, k])));
  return here;
};
const replaceAt = (value: unknown, path: Array<string | number>, replacement: unknown): unknown => {
  if (!path.length) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head!] = replaceAt((value as Record<string | number, unknown>)[head!], rest, replacement);
  return copy;
};
const junk = fc.oneof(
  fc.anything({ maxDepth: 2, maxKeys: 4 }),
  fc.string({ maxLength: 300 }),
  fc.constantFrom(-1, 1e308, Number.MAX_SAFE_INTEGER + 2, '', '<script>alert(1)</script>', 'javascript:alert(1)', null, [], {}),
);
/** A valid document with one node replaced by junk. */
const mutatedDocument = (doc: unknown) =>
  fc.tuple(fc.nat(), junk).map(([n, value]) => {
    const paths = pathsOf(doc);
    return replaceAt(doc, paths[n % paths.length]!, value);
  });

/** A `__proto__` key anywhere in a body (an own key, as JSON sends it). */
const hasProtoKey = (value: unknown): boolean =>
  Boolean(value) &&
  typeof value === 'object' &&
  Object.keys(value as object).some((k) => k === '__proto__' || hasProtoKey((value as Record<string, unknown>)[k]));

const expectValidOrFieldErrors = (res: { status: number; body: { success?: boolean; message?: string; errors?: Record<string, unknown> } }, sent?: unknown) => {
  expect(res.status).toBeLessThan(500);
  if (hasProtoKey(sent)) {
    // A prototype key is refused before anything reads the body.
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: MESSAGES.forbiddenBodyKey });
  } else if (res.status === 422) {
    expect(res.body.success).toBe(false);
    expect(Object.keys(res.body.errors ?? {}).length).toBeGreaterThan(0);
  } else {
    expect([200, 201]).toContain(res.status);
  }
};

describe('fuzzing the inputs', () => {
  it('the funnel document: a 422 with field keys leaves the stored funnel as it was', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(mutatedDocument(base), async (fuzzed) => {
        const { owner: creator, funnelId, identifier, videoIds } = seats[run++ % SEATS]!;
        const doc = forSeat(fuzzed, videoIds);
        const before = await suite.db('branchify_funnels').where({ id: funnelId }).first();
        // Any JSON at all, the root included (a number, a string, null).
        const res = await request(baseUrl())
          .put(`/api/funnels/${funnelId}`)
          .set('Authorization', `Bearer ${creator.token}`)
          .set('X-Forwarded-For', creator.http.ip)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(doc) ?? 'null');
        const isObject = Boolean(doc) && typeof doc === 'object' && !Array.isArray(doc);
        // A body that is not a JSON object has no fields to name: refused as a whole (400 or 422).
        if (isObject) expectValidOrFieldErrors(res, doc);
        else expect([400, 422]).toContain(res.status);
        const after = await suite.db('branchify_funnels').where({ id: funnelId }).first();
        if (res.status !== 200) expect(after).toEqual(before);
        else {
          // What was stored is itself a document the server accepts.
          const stored = (await creator.http.get(`/api/funnels/${funnelId}`, creator.token)).body.data;
          const again = await creator.http.put(
            `/api/funnels/${funnelId}`,
            { title: stored.title, description: stored.description, settings: stored.settings, videos: stored.videos },
            creator.token,
          );
          expect({ status: again.status, errors: again.body.errors }).toEqual({ status: 200, errors: undefined });
        }
        // A refused or accepted document, the public player still answers.
        expect((await client().get(`/api/funnels/${identifier}/player`)).status).toBeLessThan(500);
      }),
      { numRuns: FUNNEL_RUNS },
    );
    record('fuzz', FUNNEL_RUNS);
  });

  it('the video input', async () => {
    const video = fc.record(
      { provider: fc.oneof(fc.constantFrom('youtube', 'vimeo', 'adilo', 'generic'), junk), url: fc.oneof(fc.webUrl(), junk), title: junk },
      { requiredKeys: [] },
    );
    const created: number[] = [];
    await fc.assert(
      fc.asyncProperty(video, async (body) => {
        const res = await creator.http.post('/api/videos', body as object, creator.token);
        expect(res.status).toBeLessThan(500);
        if (res.status === 201) {
          expect(res.body.data.embed_url).toMatch(/^https?:\/\//);
          created.push(res.body.data.id);
        } else expectValidOrFieldErrors(res, body);
      }),
    );
    // What was stored reads back whole.
    const library = await creator.http.get('/api/videos?per_page=100', creator.token);
    expect(library.status).toBe(200);
    for (const v of library.body.data.data as Array<{ id: number; embed_url: string }>) {
      if (created.includes(v.id)) expect(v.embed_url).toMatch(/^https?:\/\//);
    }
    record('fuzz', RUNS);
  });

  it('the plan input', async () => {
    const plan = fc.record(
      {
        name: fc.oneof(fc.string({ maxLength: 40 }), junk),
        price: fc.oneof(fc.constantFrom('0', '9.99', '-1', '1e9', 'abc'), junk),
        currency: fc.oneof(fc.constantFrom('usd', 'eur', 'USD', 'xx'), junk),
        payment_schedule: fc.oneof(fc.constantFrom('monthly', 'yearly', 'one-time', 'free', 'weekly'), junk),
        managed_by: fc.oneof(fc.constantFrom('platform', 'self', 'nobody'), junk),
        max_funnel: fc.oneof(fc.integer(), junk),
        video_sources: fc.oneof(fc.array(fc.constantFrom('youtube', 'vimeo', 'x')), junk),
      },
      { requiredKeys: [] },
    );
    const created: number[] = [];
    await fc.assert(
      fc.asyncProperty(plan, async (body) => {
        const res = await suite.admin.http.post('/api/admin/plans', body as object, suite.admin.token);
        expectValidOrFieldErrors(res, body);
        if (res.status === 201) created.push(res.body.data.id);
      }),
    );
    // What was stored reads back, for the admin and on the public plan list.
    for (const id of created)
      expect({ id, status: (await suite.admin.http.get(`/api/admin/plans/${id}`, suite.admin.token)).status }).toEqual({ id, status: 200 });
    expect((await client().get('/api/plans')).status).toBe(200);
    record('fuzz', RUNS);
  });

  it('the user inputs (create and edit)', async () => {
    const target = await suite.admin.http.post(
      '/api/admin/users',
      { first_name: 'Fuzz', last_name: 'Target', email: uniqueEmail('fuzz-target'), password: PASSWORD, password_confirmation: PASSWORD },
      suite.admin.token,
    );
    const user = fc.record(
      {
        first_name: fc.oneof(fc.string({ maxLength: 80 }), junk),
        last_name: fc.oneof(fc.string({ maxLength: 80 }), junk),
        email: fc.oneof(fc.emailAddress(), junk),
        password: fc.oneof(fc.string({ minLength: 8, maxLength: 30 }), junk),
        is_admin: fc.oneof(fc.boolean(), junk),
        status: fc.oneof(fc.constantFrom('active', 'suspended', 'banned'), junk),
        status_note: junk,
      },
      { requiredKeys: [] },
    );
    const created: number[] = [];
    await fc.assert(
      fc.asyncProperty(user, async (body) => {
        const res = await suite.admin.http.post(
          '/api/admin/users',
          { ...(body as object), password_confirmation: (body as { password?: unknown }).password },
          suite.admin.token,
        );
        expectValidOrFieldErrors(res, body);
        if (res.status === 201) created.push(res.body.data.id);
        const edit = await suite.admin.http.put(`/api/admin/users/${target.body.data.id}`, body as object, suite.admin.token);
        // Making someone an admin after creation is refused on the field, like any other bad value.
        expectValidOrFieldErrors(edit, body);
      }),
    );
    const row = await suite.db('up_users').where({ id: target.body.data.id }).first();
    expect(Boolean(row.is_admin)).toBe(false);
    // What was stored reads back whole, never with a secret.
    for (const id of [target.body.data.id, ...created]) {
      const read = await suite.admin.http.get(`/api/admin/users/${id}`, suite.admin.token);
      expect({ id, status: read.status }).toEqual({ id, status: 200 });
      expect(read.text).not.toMatch(/"password"|\$2[aby]\$/);
    }
    record('fuzz', RUNS * 2);
  });

  it('the customization input: every wrong value is a 422 on its field, and nothing changes', async () => {
    const before = (await suite.admin.http.get('/api/admin/customizations', suite.admin.token)).body.data;
    const notAString = fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string(), { minLength: 1 }), fc.dictionary(fc.string(), fc.string(), { minKeys: 1 }));
    const wrong = fc.oneof(
      fc.record({ app_name: fc.oneof(notAString, fc.string({ minLength: 256, maxLength: 400 })) }),
      fc.record({ app_support_url: fc.oneof(notAString, fc.constantFrom('javascript:alert(1)', 'data:text/html,x', 'ftp://x', 'not a url')) }),
      fc.record({ app_logo_url: fc.oneof(notAString, fc.constantFrom('javascript:alert(1)', '/etc/passwd', 'file:///x')) }),
      fc.record({
        app_color_scheme: fc.oneof(
          notAString.filter((v) => typeof v !== 'object' || Array.isArray(v)),
          fc.constantFrom({ '--primary': 'red; }' }, { '--accent': 'rgb(1, 2, 3)' }, { 'bad name': '#fff' }),
        ),
      }),
      fc.record({
        app_email_templates: fc.constantFrom({ nope: null }, { password_reset: { subject: 7 } }, { password_reset: { body: '{{ secret_key }}' } }, 'x'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(wrong, async (body) => {
        const res = await suite.admin.http.post('/api/admin/customizations', body, suite.admin.token);
        if (hasProtoKey(body)) return expectValidOrFieldErrors(res, body);
        expect(res.status).toBe(422);
        const field = Object.keys(body)[0]!;
        expect(Object.keys(res.body.errors).some((k) => k === field || k.startsWith(`${field}.`))).toBe(true);
      }),
    );
    expect((await suite.admin.http.get('/api/admin/customizations', suite.admin.token)).body.data).toEqual(before);
    record('fuzz', RUNS);
  });
});

/** A raw JSON body, exactly as given (supertest would re-encode an object). */
const rawJson = (method: 'post' | 'put', path: string, body: string, session?: Session) => {
  const agent = request(baseUrl());
  const req = (method === 'post' ? agent.post(path) : agent.put(path))
    .set('X-Forwarded-For', session?.http.ip ?? client().ip)
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json');
  if (session) req.set('Authorization', `Bearer ${session.token}`);
  return req.send(body);
};

describe('bodies', () => {
  it('refuses an oversized body without a server error, signed in or not', async () => {
    const huge = JSON.stringify({ title: 'x'.repeat(6 * 1024 * 1024), description: '', settings: { enable_resume_play: false } });
    for (const res of [await rawJson('post', '/api/funnels', huge, creator), await rawJson('post', '/api/auth/login', huge)]) {
      expect([413, 422]).toContain(res.status);
      expect(res.body.success).toBe(false);
    }
  });

  it('refuses malformed and deeply nested JSON without a server error', async () => {
    const deep = `{"title":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    for (const body of ['{"title": "x",', '{"title": "x"} trailing', deep, '[]', 'null', '"x"']) {
      const res = await rawJson('put', `/api/funnels/${funnelId}`, body, creator);
      expect({ body: body.slice(0, 30), status: res.status, refused: [400, 413, 422].includes(res.status) }).toMatchObject({
        body: body.slice(0, 30),
        refused: true,
      });
    }
  });

  it('ignores fields a caller may not set (authority, prototype keys, ownership)', async () => {
    const register = (email: string, extra: string) =>
      rawJson(
        'post',
        '/api/auth/register',
        JSON.stringify({ first_name: 'Mass', last_name: 'Assign', email, password: PASSWORD, password_confirmation: PASSWORD }).replace(/}$/, `,${extra}}`),
      );
    const authority = uniqueEmail('assign');
    const reg = await register(
      authority,
      '"is_admin":true,"status":"active","email_verified_at":"2020-01-01T00:00:00.000Z","confirmed":true,"token_version":7,"subscription_id":1,"role":1',
    );
    expect(reg.status).toBe(201);
    const polluted = uniqueEmail('proto');
    const proto = await register(polluted, '"__proto__":{"is_admin":true,"email_verified_at":"2020-01-01"},"constructor":{"prototype":{"is_admin":true}}');
    expect([201, 400, 422]).toContain(proto.status);
    expect(proto.body.success).toBe(proto.status === 201);
    for (const email of [authority, polluted]) {
      const user = await suite.db('up_users').where({ email }).first();
      if (!user) continue;
      expect({ email, admin: Boolean(user.is_admin), verified: user.email_verified_at }).toEqual({ email, admin: false, verified: null });
    }
    // The server itself was not polluted: someone registered afterwards is no admin either.
    const someone = await registerUser();
    const me = (await someone.http.get('/api/auth/user', someone.token)).body.data;
    expect({ is_admin: me.is_admin, email_verified_at: me.email_verified_at }).toEqual({ is_admin: false, email_verified_at: null });

    // A funnel cannot be handed to someone else or given another public identifier.
    const before = await suite.db('branchify_funnels').where({ id: funnelId }).first();
    const moved = await creator.http.put(
      `/api/funnels/${funnelId}`,
      { ...base, user_id: someone.id, owner_id: someone.id, identifier: 'chosen-by-me', id: funnelId + 1000 },
      creator.token,
    );
    expect([200, 422]).toContain(moved.status);
    const after = await suite.db('branchify_funnels').where({ id: funnelId }).first();
    expect(after.identifier).toBe(before.identifier);
    expect(after.owner_id).toBe(before.owner_id);
  });
});

describe('markup stays text', () => {
  const EVIL = '</script><script>alert(1)</script><img src=x onerror=alert(2)><!--';
  const scripts = (html: string) => ({ open: html.split(/<script/i).length - 1, close: html.split(/<\/script/i).length - 1 });

  it('in the player page: funnel, video and element texts cannot leave the inlined payload', async () => {
    const plain = await client().get(`/player/${identifier}`).set('Accept', 'text/html');
    expect(plain.status).toBe(200);

    const [a, b] = [await addVideo(creator, { title: EVIL }), await addVideo(creator, { title: `${EVIL} 2` })];
    const doc = twoVideoDocument(a.id, b.id, EVIL);
    doc.description = EVIL;
    doc.videos[0]!.elements.push(textElement('el-evil', 'intro', EVIL));
    const saved = await creator.http.put(`/api/funnels/${funnelId}`, doc, creator.token);
    expect(saved.status).toBe(200);

    const page = await client().get(`/player/${identifier}`).set('Accept', 'text/html');
    expect(page.status).toBe(200);
    // As many script elements as the page always has: the texts opened and closed none.
    expect(scripts(page.text)).toEqual(scripts(plain.text));
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).not.toContain('<img src=x onerror');
    expect(page.text).not.toContain('<!--');
    // The <title> carries it escaped.
    expect(page.text).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
    // The inlined payload reads back to exactly what was saved.
    const inlined = /<script id="branchify-funnel" type="application\/json">([\s\S]*?)<\/script>/.exec(page.text)?.[1];
    expect(inlined).toBeDefined();
    const payload = JSON.parse(inlined!);
    expect(payload.title).toBe(EVIL);
    expect(JSON.stringify(payload)).toContain(JSON.stringify(EVIL).slice(1, -1));
  });

  it('in mail: a user named <b>x</b> is written &lt;b&gt;x&lt;/b&gt;', async () => {
    await configureMailer(suite.admin);
    try {
      const user = await verifiedUserByMail({ first_name: '<b>x</b>', last_name: '<img src=x onerror=alert(1)>' });
      const mails = await sink.waitFor(user.email, (m) => /welcome/i.test(m.subject));
      for (const mail of await sink.to(user.email)) {
        expect(mail.html).not.toContain('<b>x</b>');
        expect(mail.html).not.toContain('<img src=x');
      }
      expect(mails[0]!.html).toContain('&lt;b&gt;x&lt;/b&gt;');
      expect(mails[0]!.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    } finally {
      await removeMailer();
    }
  });
});
