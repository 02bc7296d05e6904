import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { MESSAGES, messageTemplates } from '@branchify/shared';
import { client } from '../api/support/http';
import { adminSession, type Session } from '../api/support/users';
import { adminInBrowser, atTop, resizeTo } from './support/admin-browser';
import { expectAlert, expectConsoleErrors, launch, failedRequest, shot } from './support/app';
import { describeBrowser } from './support/browser';

const LOGO_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32"><rect width="120" height="32" rx="6" fill="#0b6e4f"/><text x="60" y="21" font-size="14" text-anchor="middle" fill="#ffffff" font-family="sans-serif">ACME</text></svg>',
);
const TEMPLATES = [
  'password_reset',
  'new_subscription',
  'new_user_welcome',
  'account_suspended',
  'subscription_renewal_failed',
  'subscription_renewal_succeeded',
];

/**
 * Save, as the admin clicks it: waits for the server's answer to this click, then for the success
 * alert (an alert from an earlier save may still be on screen).
 */
const saveForm = async (page: Page): Promise<void> => {
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/admin/customizations');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await answered).status()).toBe(200);
  await expectAlert(page, MESSAGES.appCustomizationUpdated);
};

/** The app bar is fully in, and Save is what a click at its centre reaches (not the app bar over it). */
const saveBarInSight = (page: Page) =>
  page.waitForFunction(() => {
    const appBar = document.querySelector('header');
    const save = [...document.querySelectorAll('button[type="submit"]')].find((b) => b.textContent === 'Save');
    if (!appBar || !save || appBar.getBoundingClientRect().top !== 0) return false;
    const box = save.getBoundingClientRect();
    return save.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
  });

/** The installation back to its default branding (other suites expect it). */
const restoreDefaults = async (admin: Session) => {
  const res = await admin.http.post(
    '/api/admin/customizations',
    {
      app_name: 'branchify',
      app_description: null,
      app_support_url: null,
      app_logo_url: null,
      app_favicon_url: null,
      app_color_scheme: { primary: '#2f27ce', secondary: '#dedcff', accent: '#433bff', background: '#fbfbfe', white: '#ffffff', dark: '#050315' },
      app_email_templates: Object.fromEntries(TEMPLATES.map((t) => [t, null])),
    },
    admin.token,
  );
  if (res.status !== 200) throw new Error(`restore failed: ${res.status} ${JSON.stringify(res.body)}`);
};

/** The colour a contained button is painted with. */
const buttonColour = (page: Page, name: string) => page.getByRole('button', { name, exact: true }).evaluate((el) => getComputedStyle(el).backgroundColor);

/** Images the suite uploaded (the upload plugin keeps them in cms/public/uploads), removed afterwards. */
const uploaded = new Set<string>();
const trackUploads = (page: Page) =>
  page.on('response', (res) => {
    if (!/\/api\/admin\/customizations(\/images)?$/.test(res.url()) || res.status() !== 200) return;
    void res.json().then((body: { data?: Record<string, unknown> }) => {
      for (const key of ['app_logo_url', 'app_favicon_url']) {
        const url = body.data?.[key];
        if (typeof url === 'string' && url.startsWith('/uploads/')) uploaded.add(url);
      }
    });
  });

describeBrowser('admin: app customization', () => {
  let browser: Browser;
  let admin: Session;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
    await restoreDefaults(admin);
  });
  afterAll(async () => {
    await browser?.close();
    if (admin) await restoreDefaults(admin);
    const dir = path.join(__dirname, '..', '..', 'cms', 'public', 'uploads');
    for (const url of uploaded) fs.rmSync(path.join(dir, path.basename(url)), { force: true });
  });

  it('brands the app: refusals, live preview with a contrast check, logo, a mail template, and the theme follows without a reload', async () => {
    const { page, context } = await adminInBrowser(browser);
    expectConsoleErrors(page, failedRequest(422, '/api/admin/customizations/'), 'a placeholder this template does not offer: the API refuses the preview');
    trackUploads(page);
    await page.getByRole('menuitem', { name: 'App Customizations' }).click();
    await page.getByRole('heading', { name: 'App Customizations', level: 1 }).waitFor();
    await page.getByLabel('App name (required)').waitFor();
    expect(await page.getByLabel('App name (required)').inputValue()).toBe('branchify');
    expect(await page.getByLabel('Primary hex').inputValue()).toBe('#2f27ce');
    await atTop(page);
    await shot(page, '170-customization');

    // Refusals: a colour that is not hex, a support URL that is not a link. Nothing is saved.
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/admin/customizations')) saves.push(r.url());
    });
    await page.getByLabel('Primary hex').fill('#12345');
    await page.getByLabel('Support URL').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('--primary must be a hex colour such as #2f27ce.').waitFor();
    await page.getByText('The app support url must be an http(s) or mailto: link.').waitFor();
    expect(await page.getByLabel('Primary hex').getAttribute('aria-invalid')).toBe('true');
    await atTop(page);
    await shot(page, '171-customization-refusals');
    expect(saves).toEqual([]);

    // The preview follows the picker; a primary that white text cannot be read on is flagged.
    const preview = page.getByTestId('theme-preview');
    await page.getByLabel('Primary hex').fill('#1a8cff');
    await page.getByTestId('contrast-warning').filter({ hasText: 'Text on the primary colour has a contrast of 3.3:1' }).waitFor();
    const mockButton = preview.getByText('Create funnel');
    expect(await mockButton.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(26, 140, 255)');
    await atTop(page);
    await shot(page, '172-customization-contrast-warning');
    await page.getByLabel('Primary hex').fill('#0b6e4f');
    await page.getByTestId('contrast-warning').waitFor({ state: 'detached' });
    expect(await mockButton.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(11, 110, 79)');
    // The colour input and the hex field are one value.
    expect(await page.locator('#color-primary').inputValue()).toBe('#0b6e4f');
    await page.getByLabel('Support URL').fill('https://help.acme.test/support');
    await page.getByLabel('App name (required)').fill('Acme Funnels');

    // Images: a type outside the rules is refused in the browser; a chosen SVG shows at once and is stored with Save.
    const logo = page.getByTestId('image-app_logo');
    await logo.locator('input[type=file]').setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a....') });
    expect(await expectAlert(page, MESSAGES.invalidFileType)).toBe('error');
    await atTop(page);
    await shot(page, '173-customization-bad-image');
    await logo.locator('input[type=file]').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: LOGO_SVG });
    await logo.locator('img[src^="blob:"]').waitFor();
    await page.getByTestId('theme-preview').locator('img[src^="blob:"]').waitFor();
    await logo.getByRole('button', { name: 'Remove logo' }).waitFor();
    expect(saves).toEqual([]);

    // A mail template: its variables, a click inserts one at the cursor, the preview renders it.
    await page.getByRole('tab', { name: 'Welcome' }).click();
    const variables = page.getByTestId('template-variables');
    await variables.getByText("The user's first name").waitFor();
    await variables.getByText('The application name (App customization)').waitFor();
    const subject = page.getByLabel('Subject', { exact: true });
    await subject.fill('Welcome aboard, !');
    await subject.press('End');
    await subject.press('ArrowLeft');
    await variables.getByRole('button', { name: '{{first_name}}' }).click();
    expect(await subject.inputValue()).toBe('Welcome aboard, {{first_name}}!');
    const mail = page.getByTestId('mail-preview');
    await mail.getByTestId('mail-preview-subject').filter({ hasText: 'Welcome aboard, Jane!' }).waitFor();
    // The preview uses the unsaved app name too.
    const body = page.getByLabel('Body (HTML)');
    await body.fill('<p>Hello {{first_name}}, welcome to <strong>{{app_name}}</strong>.</p>');
    const frame = page.frameLocator('iframe[title="Email preview"]');
    await frame.getByText('Hello Jane, welcome to Acme Funnels.').waitFor();
    await atTop(page);
    await shot(page, '174-customization-email-template');

    // A placeholder this template does not offer: the preview and the save both say so.
    await body.fill('<p>Your password is {{password}}</p>');
    await mail.getByText('This template has no {{password}}.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('#input-app_email_templates\\.new_user_welcome\\.body-helper-text').filter({ hasText: '{{password}}' }).waitFor();
    expect(saves).toEqual([]);
    await body.fill('<p>Hello {{first_name}}, welcome to <strong>{{app_name}}</strong>.</p>');

    // Save: the message, and the app's theme and name follow without a reload.
    await page.mouse.move(1, 1);
    // Off the button, its hover colour fades back to the saved primary.
    await page
      .waitForFunction(
        () => {
          const save = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Save');
          return save && getComputedStyle(save).backgroundColor === 'rgb(47, 39, 206)';
        },
        undefined,
        { timeout: 5000 },
      )
      .catch(() => undefined);
    expect(await buttonColour(page, 'Save')).toBe('rgb(47, 39, 206)');
    await saveForm(page);
    await page.mouse.move(1, 1);
    await page.waitForFunction(() => getComputedStyle(document.documentElement).getPropertyValue('--primary').trim() === '#0b6e4f');
    await page.waitForFunction(() => {
      const save = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Save');
      return save && getComputedStyle(save).backgroundColor === 'rgb(11, 110, 79)';
    });
    await page.getByText('You have unsaved changes.').waitFor({ state: 'detached' });
    // The logo went with the same Save.
    await logo.locator('img[src^="/uploads/"]').waitFor();
    await atTop(page);
    await shot(page, '175-customization-saved');
    expect(saves.length).toBe(1);

    // Stored: what every visitor loads, and the template the mailer will use.
    const shown = (await client().get('/api/customizations')).body.data;
    expect(shown).toMatchObject({ app_name: 'Acme Funnels', app_support_url: 'https://help.acme.test/support' });
    expect(shown.app_logo_url).toMatch(/^\/uploads\//);
    expect(shown.app_color_scheme).toMatchObject({ '--primary': '#0b6e4f', '--primary-rgb': '11, 110, 79' });
    const templates = (await admin.http.get('/api/admin/customizations', admin.token)).body.data.app_email_templates;
    expect(templates.new_user_welcome.subject).toBe('Welcome aboard, {{first_name}}!');

    // A reload shows what was saved.
    await page.reload();
    await page.getByLabel('App name (required)').waitFor();
    expect(await page.getByLabel('App name (required)').inputValue()).toBe('Acme Funnels');
    expect(await page.getByLabel('Primary hex').inputValue()).toBe('#0b6e4f');
    await context.close();
  });

  it('a chosen logo is part of the form: "Discard changes" drops it, Save stores it, Remove takes it away on save', async () => {
    await restoreDefaults(admin);
    const { page, context } = await adminInBrowser(browser, 'Ida');
    trackUploads(page);
    await page.goto('/admin/app-customization');
    const logo = page.getByTestId('image-app_logo');
    const discard = page.getByRole('button', { name: 'Discard changes' });
    await page.getByLabel('App name (required)').waitFor();
    expect(await discard.isDisabled()).toBe(true);

    // Chosen, not stored: the form has an unsaved change, and Discard drops the image.
    await logo.locator('input[type=file]').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: LOGO_SVG });
    await logo.locator('img[src^="blob:"]').waitFor();
    await page.getByText('You have unsaved changes.').waitFor();
    for (const width of [1440, 390]) {
      await resizeTo(page, width);
      await atTop(page);
      await shot(page, `179-customization-logo-unsaved-${width}`);
    }
    await resizeTo(page, 1440);
    expect((await client().get('/api/customizations')).body.data.app_logo_url).toBeNull();
    await discard.click();
    await logo.locator('img').waitFor({ state: 'detached' });
    await page.getByText('You have unsaved changes.').waitFor({ state: 'detached' });
    expect((await client().get('/api/customizations')).body.data.app_logo_url).toBeNull();

    // A logo and a favicon with one Save.
    await logo.locator('input[type=file]').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: LOGO_SVG });
    const favicon = page.getByTestId('image-app_favicon');
    await favicon.locator('input[type=file]').setInputFiles({ name: 'icon.svg', mimeType: 'image/svg+xml', buffer: LOGO_SVG });
    await saveForm(page);
    await logo.locator('img[src^="/uploads/"]').waitFor();
    await favicon.locator('img[src^="/uploads/"]').waitFor();
    const stored = (await client().get('/api/customizations')).body.data;
    expect(stored.app_logo_url).toMatch(/^\/uploads\//);
    expect(stored.app_favicon_url).toMatch(/^\/uploads\//);
    expect(await discard.isDisabled()).toBe(true);

    await logo.getByRole('button', { name: 'Remove logo' }).click();
    await logo.locator('img').waitFor({ state: 'detached' });
    await atTop(page);
    await shot(page, '176-customization-logo-removed');
    await saveForm(page);
    expect((await client().get('/api/customizations')).body.data.app_logo_url).toBeNull();
    await context.close();
  });

  it('keyboard: the template tabs move with the arrow keys', async () => {
    const { page, context } = await adminInBrowser(browser, 'Kim');
    await page.goto('/admin/app-customization');
    const first = page.getByRole('tab', { name: 'Password reset' });
    await first.waitFor();
    await first.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('tab', { name: 'New subscription' }).getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('template-variables').getByRole('button', { name: '{{subscription_plan}}' }).waitFor();
    await context.close();
  });

  it('a template names its required variables, refuses a body without them, and restores its default', async () => {
    await restoreDefaults(admin);
    // A stored override to go back from.
    const custom = await admin.http.post(
      '/api/admin/customizations',
      { app_email_templates: { password_reset: { subject: 'Your reset link', body: '<p><a href="{{reset_link}}">Reset</a></p>' } } },
      admin.token,
    );
    expect(custom.status).toBe(200);
    const defaults = (await admin.http.get('/api/admin/customizations', admin.token)).body.data.app_email_templates.password_reset;
    const { page, context } = await adminInBrowser(browser, 'Rae');
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/admin/customizations')) saves.push(r.url());
    });
    await page.goto('/admin/app-customization');
    await page.getByRole('tab', { name: 'Password reset' }).waitFor();
    await page.getByTestId('template-required').filter({ hasText: 'Required in the body: {{reset_link}}.' }).waitFor();
    const variables = page.getByTestId('template-variables');
    await variables.getByRole('listitem').filter({ hasText: '{{reset_link}}' }).getByText('Required', { exact: true }).waitFor();
    expect(await variables.getByRole('listitem').filter({ hasText: '{{first_name}}' }).getByText('Required', { exact: true }).count()).toBe(0);

    // A body without the link: refused in the form, nothing sent.
    const body = page.getByLabel('Body (HTML)');
    await body.fill('<p>Hello {{first_name}}, follow the instructions.</p>');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const refusal = messageTemplates.templateMissingRequired(['{{reset_link}}']);
    await page.locator('#input-app_email_templates\\.password_reset\\.body-helper-text').filter({ hasText: refusal }).waitFor();
    expect(await body.getAttribute('aria-invalid')).toBe('true');
    expect(saves).toEqual([]);
    for (const width of [1440, 390]) {
      await resizeTo(page, width);
      await body.scrollIntoViewIfNeeded();
      await shot(page, `177-customization-template-required-${width}`);
    }

    // Restore default: the default subject and body are back in the form, and Save keeps them.
    const restore = page.getByRole('button', { name: 'Restore default' });
    await restore.click();
    await page.getByRole('status').filter({ hasText: 'The default subject and body are back in the form. Save to keep them.' }).waitFor();
    expect(await body.inputValue()).toBe(defaults.default_body);
    expect(await page.getByLabel('Subject', { exact: true }).inputValue()).toBe(defaults.default_subject);
    expect(await restore.isDisabled()).toBe(true);
    await page.locator('#input-app_email_templates\\.password_reset\\.body-helper-text').filter({ hasText: refusal }).waitFor({ state: 'detached' });
    for (const width of [1440, 390]) {
      await resizeTo(page, width);
      await restore.scrollIntoViewIfNeeded();
      await shot(page, `178-customization-template-restored-${width}`);
    }
    await resizeTo(page, 1440);
    // Scrolled back up, the app bar slides in again: the save bar moves down under it, still clickable.
    await page.mouse.wheel(0, 400);
    await page.mouse.wheel(0, -200);
    await saveBarInSight(page);
    await saveForm(page);
    const stored = (await admin.http.get('/api/admin/customizations', admin.token)).body.data.app_email_templates.password_reset;
    expect(stored).toMatchObject({ subject: defaults.default_subject, body: defaults.default_body });
    expect(saves.length).toBe(1);

    // Every template has the button; a template at its default says so.
    for (const tab of ['New subscription', 'Welcome', 'Account suspended', 'Renewal failed', 'Renewal succeeded']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('status').filter({ hasText: 'This template is the default.' }).waitFor();
      expect(await page.getByRole('button', { name: 'Restore default' }).isDisabled()).toBe(true);
    }
    await context.close();
  });
});
