// @serial: changes branding and the mailer for the whole install (tests/harness/groups.js)
import { configureMailer, linkIn, removeMailer, sink, verifiedUserByMail, type SinkMessage } from './support/mail';
import { client } from './support/http';
import { registerUser } from './support/users';
import { useApiSuite } from './support/suite';

const suite = useApiSuite();

/** The suite server's PUBLIC_URL: the address mails link to. */
const PUBLIC_URL = 'http://localhost:1337';
const BRAND = { app_name: 'Acme Funnels', app_color_scheme: { primary: '#0a6e31' } };

beforeAll(async () => {
  await configureMailer(suite.admin);
  const res = await suite.admin.http.post('/api/admin/customizations', BRAND, suite.admin.token);
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await suite.admin.http.post('/api/admin/customizations', { app_name: 'branchify', app_color_scheme: { primary: '#2f27ce' } }, suite.admin.token);
  await removeMailer();
});

/** The mail's `<a>` tags: their href (entities decoded as a mail client reads it), class, style and label. */
const anchors = (html: string) =>
  [...html.matchAll(/<a\s([^>]*)>([\s\S]*?)<\/a>/gi)].map(([, attrs, label]) => {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs!)?.[1] ?? null;
    return { href: attr('href')?.replace(/&amp;/g, '&') ?? null, cls: attr('class'), style: attr('style'), label: label!.trim() };
  });

/** What a reader of the HTML part sees: a page in English, the app's name and colour, and the body. */
const expectLayout = (mail: SinkMessage) => {
  expect(mail.html).toMatch(/^<!doctype html>\s*<html lang="en">/);
  expect(mail.html).toContain(`<title>${mail.subject}</title>`);
  expect(mail.html).toContain('Acme Funnels');
  expect(mail.html).toContain('border-top: 6px solid #0a6e31');
  expect(mail.text).toContain('This email was sent by Acme Funnels.');
  expect(mail.html).not.toMatch(/\{\{\s*\w+\s*\}\}/);
  expect(mail.text).not.toMatch(/<[a-z]/i);
};

/** The button a mail's text speaks of: a styled link in the app's colour, and its address in the text part. */
const expectButton = (mail: SinkMessage, label: string, href: string | RegExp) => {
  const button = anchors(mail.html).find((a) => a.label === label);
  expect(button).toBeDefined();
  if (typeof href === 'string') expect(button!.href).toBe(href);
  else expect(button!.href).toMatch(href);
  expect(button!.cls).toBe('button');
  expect(button!.style).toContain('display: inline-block');
  expect(button!.style).toContain('background-color: #0a6e31');
  // White on this green is well above 4.5:1.
  expect(button!.style).toContain('color: #ffffff');
  expect(button!.style).toContain('padding: 12px 24px');
  expect(mail.text).toContain(`${label} (${button!.href})`);
  return button!.href!;
};

describe('the default mails, as the SMTP sink receives them', () => {
  it('verification: the button the text names is a styled link, and the text part has its address', async () => {
    const user = await registerUser();
    const [mail] = await sink.waitFor(user.email, (m) => m.subject === 'Verify your Acme Funnels email address');
    expectLayout(mail!);
    const href = expectButton(mail!, 'Verify email address', new RegExp(`^${PUBLIC_URL}/email-verify\\?`));
    expect(mail!.text).toContain('If the button does not work, copy this address into your browser:');
    expect(linkIn(mail!, '/email-verify')).toBe(href);
  });

  it('password reset: a button to the reset page, the same address in the text part', async () => {
    const user = await registerUser();
    await client().post('/api/auth/password/forgot', { email: user.email });
    const [mail] = await sink.waitFor(user.email, (m) => m.subject === 'Reset your Acme Funnels password');
    expectLayout(mail!);
    const href = expectButton(mail!, 'Reset your password', new RegExp(`^${PUBLIC_URL}/password-reset\\?token=`));
    expect(mail!.text).toContain(`copy this address into your browser: ${href}`);
  });

  it('welcome: says to sign in, with a button to the sign-in page', async () => {
    const user = await verifiedUserByMail();
    const [mail] = await sink.waitFor(user.email, (m) => m.subject === 'Welcome to Acme Funnels');
    expectLayout(mail!);
    expectButton(mail!, 'Sign in to Acme Funnels', `${PUBLIC_URL}/login`);
    expect(mail!.text).toContain(`Welcome to Acme Funnels! Your email address ${user.email} is now verified.`);
  });

  it('every default mail that mentions a button has one, and every link is a real address', async () => {
    const templates = (await suite.admin.http.get('/api/admin/customizations', suite.admin.token)).body.data.app_email_templates as Record<
      string,
      { default_body: string; variables: Array<{ placeholder: string }> }
    >;
    for (const [key, template] of Object.entries(templates)) {
      const links = anchors(template.default_body);
      if (/button/i.test(template.default_body.replace(/<a\s[^>]*>/gi, ''))) expect([key, links.some((a) => a.cls === 'button')]).toEqual([key, true]);
      // Each link goes to a placeholder the template offers (an address filled in when sent).
      for (const link of links) {
        const placeholder = /^\{\{\w+\}\}/.exec(link.href ?? '')?.[0];
        expect([key, template.variables.some((v) => v.placeholder === placeholder)]).toEqual([key, true]);
      }
    }
  });
});
