// @serial: changes demo plans and users for the whole install (tests/harness/groups.js)
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { readPreviewTags } from './support/preview';
import { baseUrl, client } from './support/http';
import { login } from './support/users';
import { useApiSuite } from './support/suite';
import { runScript } from './support/run-script';

const root = path.join(__dirname, '..', '..');
const script = path.join(root, 'scripts', 'seed.js');
const DEMO_EMAIL = 'demo@example.com';
const DEMO_PASSWORD = 'branchify-demo';

/** `npm run seed -- <args>` against the run's database, with the server's address as PUBLIC_URL. */
const seed = (args: string[], publicUrl = baseUrl()) => runScript(script, args, { env: { ...process.env, PUBLIC_URL: publicUrl } });

const suite = useApiSuite();

suite.cleanUp(async () => {
  // The demo data goes again through the admin API, so the other suites see the install they expect.
  const user = await suite.db('up_users').where({ email: DEMO_EMAIL }).first();
  if (user) await suite.admin.http.delete(`/api/admin/users/${user.id}`, suite.admin.token);
  for (const plan of await suite.db('branchify_plans').where({ name: 'Demo', payment_schedule: 'free' })) {
    await suite.admin.http.delete(`/api/admin/plans/${plan.id}`, suite.admin.token);
  }
});

const demoRows = async () => {
  const user = await suite.db('up_users').where({ email: DEMO_EMAIL }).first();
  return {
    user,
    plans: await suite.db('branchify_plans').where({ name: 'Demo' }),
    subscriptions: user ? await suite.db('branchify_subscriptions').where({ user_id: user.id }) : [],
    videos: user ? await suite.db('branchify_videos').where({ owner_id: user.id }).orderBy('id') : [],
    funnels: user ? await suite.db('branchify_funnels').where({ owner_id: user.id }) : [],
    links: user ? await suite.db('branchify_funnel_videos').where({ owner_id: user.id }) : [],
  };
};

describe('npm run seed -- --demo', () => {
  it('adds a free plan, a verified creator on it and a three-video branching funnel; a second run adds nothing', async () => {
    const first = await seed(['--demo']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain("Demo data added: plan 'Demo' (not offered publicly), creator demo@example.com, subscription to 'Demo'");
    // The funnel comes from its export file, through the import: the clips are added by it.
    expect(first.stdout).toContain("video 'Demo: welcome', video 'Demo: the tour', video 'Demo: the plans', funnel 'Demo funnel'");
    expect(first.stdout).toContain(`Demo creator: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
    const reference = /\/player\/([A-Za-z0-9]{24})/.exec(first.stdout)?.[1];
    expect(first.stdout).toContain(`Demo funnel:  ${baseUrl()}/player/${reference}`);

    const rows = await demoRows();
    expect(rows.plans).toHaveLength(1);
    expect(rows.plans[0]).toMatchObject({ price: '0.00', payment_schedule: 'free', managed_by: 'platform' });
    // The demo account's plan: not offered to anyone else, and its text does not name the app.
    expect(Boolean(rows.plans[0].is_active)).toBe(false);
    expect(rows.plans[0].description).not.toMatch(/branchify/i);
    const offered = await client().get('/api/plans');
    expect(offered.body.data.map((p: { name: string }) => p.name)).not.toContain('Demo');
    expect(rows.user).toMatchObject({ status: 'active', first_name: 'Demo', last_name: 'Creator' });
    expect(Boolean(rows.user.is_admin)).toBe(false);
    expect(rows.user.email_verified_at).not.toBeNull();
    expect(rows.subscriptions).toHaveLength(1);
    expect(rows.subscriptions[0]).toMatchObject({ plan_id: rows.plans[0].id, status: 'active' });
    expect(rows.user.subscription_id).toBe(rows.subscriptions[0].id);
    expect(rows.videos.map((v: { provider: string; source_url: string }) => [v.provider, v.source_url])).toEqual(
      ['demo-intro', 'demo-tour', 'demo-plans'].map((name) => ['generic', `${baseUrl()}/demo-media/${name}.webm`]),
    );
    expect(rows.funnels).toHaveLength(1);
    expect(rows.funnels[0].identifier).toBe(reference);
    expect(rows.links).toHaveLength(3);

    // The intro offers two branches, one to each of the other two videos.
    const doc = typeof rows.funnels[0].videos === 'string' ? JSON.parse(rows.funnels[0].videos) : rows.funnels[0].videos;
    const intro = doc.find((v: { editor_id: string }) => v.editor_id === 'intro');
    const choices = intro.elements.find((e: { type: string }) => e.type === 'branch').data.branches;
    expect(choices.map((b: { onclick: string; video: string; standard: { text: string } }) => [b.standard.text, b.onclick, b.video])).toEqual([
      ['Show me around', 'branch', 'tour'],
      ['See the plans', 'branch', 'plans'],
    ]);
    expect(doc.map((v: { editor_id: string; id: number }) => [v.editor_id, v.id])).toEqual(
      rows.videos.map((v: { id: number }, i: number) => [['intro', 'tour', 'plans'][i], v.id]),
    );

    const second = await seed(['--demo']);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('Demo data already present: nothing added.');
    expect(second.stdout).toContain(`/player/${reference}`);
    const again = await demoRows();
    expect(again.plans).toHaveLength(1);
    expect(await suite.db('up_users').where({ email: DEMO_EMAIL })).toHaveLength(1);
    expect(again.subscriptions).toHaveLength(1);
    expect(again.videos).toHaveLength(3);
    expect(again.funnels).toHaveLength(1);
    expect(again.funnels[0].version).toBe(rows.funnels[0].version);
    expect(again.links).toHaveLength(3);
  });

  it('lets the demo creator sign in to a dashboard with the funnel, served publicly at /player', async () => {
    await seed(['--demo']);
    const session = await login(DEMO_EMAIL, DEMO_PASSWORD);
    const me = await session.http.get('/api/auth/user', session.token);
    expect(me.body.data).toMatchObject({ is_admin: false, subscription: { status: 'active', plan: { name: 'Demo', price_display: 'Free' } } });
    const funnels = await session.http.get('/api/funnels', session.token);
    expect(funnels.body.data.data.map((f: { title: string }) => f.title)).toEqual(['Demo funnel']);
    const reference = funnels.body.data.data[0].identifier;
    const page = await request(baseUrl()).get(`/player/${reference}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('/demo-media/demo-intro.webm');

    // A link to it previews itself: the funnel's title and description, and no indexing.
    const tags = readPreviewTags(page.text);
    const description = 'Three short videos: an intro with two buttons, each leading to its own video.';
    const url = `${(process.env.PUBLIC_URL ?? '').replace(/\/$/, '')}/player/${reference}`;
    expect(tags.canonical).toBe(url);
    expect(tags.meta).toMatchObject({
      description,
      robots: 'noindex',
      'og:type': 'video.other',
      'og:site_name': tags.meta['application-name'],
      'og:title': 'Demo funnel',
      'og:description': description,
      'og:url': url,
      'twitter:title': 'Demo funnel',
      'twitter:description': description,
    });
    expect(page.headers['x-robots-tag']).toBe('noindex');
  });

  it('follows a changed PUBLIC_URL: the clips move, nothing is added', async () => {
    await seed(['--demo']);
    const moved = await seed(['--demo'], 'http://demo.example.test:8080');
    expect(moved.status).toBe(0);
    expect(moved.stdout).toContain('Demo data already present: nothing added.');
    expect(moved.stdout).toContain("Updated: video 'Demo: welcome' now at http://demo.example.test:8080/demo-media/demo-intro.webm");
    let rows = await demoRows();
    expect(rows.videos.map((v: { source_url: string }) => new URL(v.source_url).origin)).toEqual(Array(3).fill('http://demo.example.test:8080'));
    await seed(['--demo']);
    rows = await demoRows();
    expect(rows.videos).toHaveLength(3);
    expect(rows.videos[0].source_url).toBe(`${baseUrl()}/demo-media/demo-intro.webm`);
  });

  it('takes the plan an earlier seed offered to everyone off "Choose a plan", once', async () => {
    await seed(['--demo']);
    const old = 'A free plan to try Branchify with the demo funnel.';
    await suite.db('branchify_plans').where({ name: 'Demo', payment_schedule: 'free' }).update({ description: old, is_active: true });
    const rerun = await seed(['--demo']);
    expect(rerun.status).toBe(0);
    expect(rerun.stdout).toContain("Updated: plan 'Demo' no longer offered publicly");
    const [plan] = (await demoRows()).plans;
    expect(Boolean(plan.is_active)).toBe(false);
    expect(plan.description).not.toBe(old);
    // An admin who offers it again on purpose is not overruled by the next run.
    await suite.db('branchify_plans').where({ id: plan.id }).update({ is_active: true });
    const again = await seed(['--demo']);
    expect(again.stdout).not.toContain('Updated: plan');
    expect(Boolean((await demoRows()).plans[0].is_active)).toBe(true);
    await suite.db('branchify_plans').where({ id: plan.id }).update({ is_active: false });
  });

  it('explains its usage without --demo', async () => {
    const res = await seed([]);
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('Usage: npm run seed -- --demo');
  });
});

describe('GET /demo-media/{file}', () => {
  const file = path.join(root, 'database', 'seed', 'demo-intro.webm');
  const bytes = fs.readFileSync(file);

  it('serves a bundled clip as video/webm, whole or by byte range (so the browser can seek)', async () => {
    const whole = await request(baseUrl())
      .get('/demo-media/demo-intro.webm')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('video/webm');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(Number(whole.headers['content-length'])).toBe(bytes.length);
    expect(Buffer.compare(whole.body as Buffer, bytes)).toBe(0);

    const part = await request(baseUrl()).get('/demo-media/demo-intro.webm').set('Range', 'bytes=100-199');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect(part.headers['content-length']).toBe('100');

    const tail = await request(baseUrl()).get('/demo-media/demo-intro.webm').set('Range', 'bytes=-10');
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${bytes.length - 10}-${bytes.length - 1}/${bytes.length}`);

    const open = await request(baseUrl())
      .get('/demo-media/demo-intro.webm')
      .set('Range', `bytes=${bytes.length - 5}-`);
    expect(open.headers['content-length']).toBe('5');

    const head = await request(baseUrl()).head('/demo-media/demo-tour.webm');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('video/webm');
    expect(Number(head.headers['content-length'])).toBe(fs.statSync(path.join(root, 'database', 'seed', 'demo-tour.webm')).size);
  });

  it('answers a range past the end with 416, and anything but a bundled clip with 404', async () => {
    const past = await request(baseUrl()).get('/demo-media/demo-intro.webm').set('Range', `bytes=${bytes.length}-`);
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${bytes.length}`);
    for (const p of [
      '/demo-media/nope.webm',
      '/demo-media/..%2Fpackage.json',
      '/demo-media/make-demo-media.sh',
      '/demo-media/',
      '/demo-media/%2e%2e/%2e%2e/package.json',
    ]) {
      expect((await request(baseUrl()).get(p)).status).toBe(404);
    }
  });

  it('keeps every clip small', () => {
    for (const name of ['demo-intro', 'demo-tour', 'demo-plans']) {
      expect(fs.statSync(path.join(root, 'database', 'seed', `${name}.webm`)).size).toBeLessThan(300 * 1024);
    }
  });
});
