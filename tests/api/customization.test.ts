// @serial: changes branding for the whole install (tests/harness/groups.js)
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { baseUrl, client } from './support/http';
import { verifiedUser, type Session } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

// A real 2x2 PNG (the upload plugin checks that images decode).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPQVz/3H4QZYAwARtAIja84x1MAAAAASUVORK5CYII=',
  'base64',
);
const EVIL_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert('onload')">
  <script>alert('script')</script>
  <a xlink:href="javascript:alert('link')"><rect width="10" height="10" fill="#2f27ce" onclick="alert('click')"/></a>
  <foreignObject><iframe src="https://evil.example"></iframe></foreignObject>
</svg>`;

const upload = (session: Session | null, path: string) => {
  const req = request(baseUrl())
    .post(path)
    .set('X-Forwarded-For', session?.http.ip ?? client().ip)
    .set('Accept', 'application/json');
  return session ? req.set('Authorization', `Bearer ${session.token}`) : req;
};

const uploaded: string[] = [];
const remember = (url: unknown) => {
  if (typeof url === 'string' && url.startsWith('/uploads/')) uploaded.push(url);
};

const publicView = async () => (await client().get('/api/customizations')).body.data;

afterAll(async () => {
  // The suite's uploads (the upload plugin keeps them in cms/public/uploads).
  const uploads = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');
  for (const url of uploaded) fs.rmSync(path.join(uploads, path.basename(url)), { force: true });
  await suite.admin.http.post(
    '/api/admin/customizations',
    {
      app_name: 'branchify',
      app_description: null,
      app_support_url: null,
      app_logo_url: null,
      app_favicon_url: null,
      app_color_scheme: { primary: '#2f27ce', 'sidebar-width': '270px' },
    },
    suite.admin.token,
  );
});

describe('GET /api/customizations (public)', () => {
  it('answers the defaults with the RGB variants and the mail banner flag', async () => {
    const res = await client().get('/api/customizations');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({ app_name: 'branchify', mailer_configured: false });
    expect(res.body.data.app_color_scheme).toMatchObject({
      '--primary': '#2f27ce',
      '--primary-rgb': '47, 39, 206',
      '--accent': '#433bff',
      '--accent-rgb': '67, 59, 255',
      '--secondary': '#dedcff',
      '--secondary-rgb': '222, 220, 255',
      '--sidebar-width': '270px',
    });
    for (const name of ['white', 'dark', 'background']) expect(res.body.data.app_color_scheme[`--${name}-rgb`]).toMatch(/^\d+, \d+, \d+$/);
    expect(res.body.data).not.toHaveProperty('app_email_templates');
  });
});

describe('admin customization', () => {
  it('is admin only: 401 anonymous, 403 for a user', async () => {
    const user = await verifiedUser();
    const anonymous = client();
    expect((await anonymous.get('/api/admin/customizations')).status).toBe(401);
    expect((await anonymous.post('/api/admin/customizations', { app_name: 'x' })).status).toBe(401);
    expect((await upload(null, '/api/admin/customizations/images').attach('app_logo', PNG, 'logo.png')).status).toBe(401);
    expect((await user.http.get('/api/admin/customizations', user.token)).status).toBe(403);
    expect((await user.http.post('/api/admin/customizations', { app_name: 'x' }, user.token)).status).toBe(403);
    expect((await upload(user, '/api/admin/customizations/images').attach('app_logo', PNG, 'logo.png')).status).toBe(403);
    expect((await publicView()).app_name).toBe('branchify');
  });

  it('changes are visible in the public endpoint', async () => {
    const res = await suite.admin.http.post(
      '/api/admin/customizations',
      {
        app_name: 'Acme Funnels',
        app_description: 'Branching videos for Acme',
        app_support_url: 'https://help.acme.test/support',
        app_color_scheme: { primary: '#ff0000', '--accent': '#0f0', 'sidebar-width': '300px' },
      },
      suite.admin.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('App customization was updated successfully');
    const view = await publicView();
    expect(view).toMatchObject({ app_name: 'Acme Funnels', app_description: 'Branching videos for Acme', app_support_url: 'https://help.acme.test/support' });
    expect(view.app_color_scheme).toMatchObject({
      '--primary': '#ff0000',
      '--primary-rgb': '255, 0, 0',
      '--accent': '#0f0',
      '--accent-rgb': '0, 255, 0',
      '--secondary': '#dedcff',
      '--sidebar-width': '300px',
    });
  });

  it('answers 422 with field keys for bad input and changes nothing', async () => {
    const before = await publicView();
    const res = await suite.admin.http.post(
      '/api/admin/customizations',
      {
        app_name: '',
        app_support_url: 'javascript:alert(1)',
        app_logo_url: 'file:///etc/passwd',
        app_color_scheme: { primary: 'red;}</style><script>', '--primary-rgb': '1, 2, 3', 'sidebar-width': '1px; background: url(x)' },
      },
      suite.admin.token,
    );
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    // The derived --primary-rgb is ignored (it follows --primary), never an error of its own.
    expect(Object.keys(res.body.errors).sort()).toEqual(
      ['app_color_scheme.primary', 'app_color_scheme.sidebar-width', 'app_logo_url', 'app_name', 'app_support_url'].sort(),
    );
    expect(await publicView()).toEqual(before);
  });

  it('uploads a PNG logo under a random name and serves it', async () => {
    const res = await upload(suite.admin, '/api/admin/customizations/images').attach('app_logo', PNG, 'my logo.png');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('App customization was updated successfully');
    const url = res.body.data.app_logo_url as string;
    remember(url);
    expect(url).toMatch(/^\/uploads\/.+\.png$/);
    expect(url).not.toContain('my logo');
    expect((await publicView()).app_logo_url).toBe(url);
    const served = await request(baseUrl()).get(url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toContain('image/png');
  });

  it('accepts the images in the customization form itself (multipart)', async () => {
    const res = await upload(suite.admin, '/api/admin/customizations')
      .field('app_name', 'Multipart Co')
      .field('app_color_scheme', JSON.stringify({ secondary: '#123456' }))
      .attach('app_favicon', PNG, 'favicon.png');
    expect(res.status).toBe(200);
    const view = await publicView();
    remember(view.app_favicon_url);
    expect(view.app_name).toBe('Multipart Co');
    expect(view.app_favicon_url).toMatch(/^\/uploads\/.+\.png$/);
    expect(view.app_color_scheme['--secondary-rgb']).toBe('18, 52, 86');
  });

  it('stores an image sent with the form over the (old or empty) URL the form also holds for it', async () => {
    const res = await upload(suite.admin, '/api/admin/customizations')
      .field('app_name', 'Multipart Co')
      .field('app_logo_url', '')
      .attach('app_logo', PNG, 'logo.png');
    expect(res.status).toBe(200);
    const view = await publicView();
    remember(view.app_logo_url);
    expect(view.app_logo_url).toMatch(/^\/uploads\/.+\.png$/);
  });

  it("refuses other file types, and files whose content is not what the name says: 'invalid file type, please upload'", async () => {
    const before = await publicView();
    const cases: Array<[Buffer, string]> = [
      [Buffer.from('GIF89a....'), 'logo.gif'],
      [Buffer.from('#!/bin/sh\necho hi\n'), 'logo.png'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'logo.svg'],
      [PNG, 'logo.exe'],
    ];
    for (const [content, name] of cases) {
      const res = await upload(suite.admin, '/api/admin/customizations/images').attach('app_logo', content, name);
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ app_logo: ['invalid file type, please upload'] });
    }
    expect(await publicView()).toEqual(before);
  });

  it("refuses an image over the limit (1000 KB) and names that limit: 'File size must be lower than 1000kb'", async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(1001 * 1024)]);
    const res = await upload(suite.admin, '/api/admin/customizations/images').attach('app_favicon', big, 'big.png');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ app_favicon: ['File size must be lower than 1000kb'] });
  });

  it('tells the admin form the limit it applies, and a record sent back with it is accepted as it came', async () => {
    const served = await suite.admin.http.get('/api/admin/customizations', suite.admin.token);
    expect(served.body.data.image_upload_max_kb).toBe(1000);
    const back = await suite.admin.http.post('/api/admin/customizations', served.body.data, suite.admin.token);
    expect(back.status).toBe(200);
    expect(back.body.data.image_upload_max_kb).toBe(1000);
  });

  it('answers 422 when no image was sent', async () => {
    const res = await upload(suite.admin, '/api/admin/customizations/images').field('note', 'no file');
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['app_logo']);
  });

  it('stores an SVG with scripts only after removing everything that could run', async () => {
    const res = await upload(suite.admin, '/api/admin/customizations/images').attach('app_logo', Buffer.from(EVIL_SVG), 'logo.svg');
    expect(res.status).toBe(200);
    const url = res.body.data.app_logo_url as string;
    remember(url);
    expect(url).toMatch(/\.svg$/);
    const served = await request(baseUrl())
      .get(url)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString('utf8')));
        r.on('end', () => done(null, text));
      });
    expect(served.status).toBe(200);
    const svg = served.body as string;
    expect(svg).toContain('<svg');
    expect(svg).toContain('<rect');
    expect(svg).not.toMatch(/<script|onload|onclick|javascript:|foreignObject|iframe/i);
  });
});

describe('POST admin/customizations/email-preview', () => {
  const preview = (body: object, session: Session | null = suite.admin) =>
    session
      ? session.http.post('/api/admin/customizations/email-preview', body, session.token)
      : client().post('/api/admin/customizations/email-preview', body);

  it('is admin only', async () => {
    const user = await verifiedUser();
    expect((await preview({ template: 'password_reset' }, null)).status).toBe(401);
    expect((await preview({ template: 'password_reset' }, user)).status).toBe(403);
  });

  it('renders the unsaved subject and body with sample values, escaping HTML in values like the mail itself', async () => {
    const res = await preview({
      template: 'password_reset',
      subject: 'Reset for {{first_name}} at {{app_name}}',
      body: '<p>Hello {{first_name}} {{last_name}}</p><a href="{{reset_link}}">Reset</a>',
      app_name: 'Acme <Funnels>',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.subject).toBe('Reset for Jane at Acme <Funnels>');
    expect(res.body.data.html).toContain('<p>Hello Jane Doe</p>');
    expect(res.body.data.html).toContain('href="http://localhost:1337/password-reset?token=sample-token');
    expect(res.body.data.text).toContain('Hello Jane Doe');
    const named = await preview({ template: 'account_suspended', subject: '{{app_name}}', body: '<p>{{reason}} {{app_name}}</p>', app_name: '<b>x</b>' });
    expect(named.body.data.html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });

  it('uses the saved app name when none is given', async () => {
    const res = await preview({ template: 'new_user_welcome', subject: 'Welcome to {{app_name}}', body: '' });
    expect(res.status).toBe(200);
    expect(res.body.data.subject).toBe(`Welcome to ${(await publicView()).app_name}`);
  });

  it('refuses an unknown template and placeholders the template lacks (422 keyed like the form)', async () => {
    const unknown = await preview({ template: 'email_verification', subject: 'x', body: 'y' });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(['template']);
    const bad = await preview({ template: 'new_user_welcome', subject: 'Hi {{reset_link}}', body: '<p>{{password}}</p>' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['body', 'subject']);
    expect(bad.body.errors.body[0]).toContain('{{password}}');
  });
});
