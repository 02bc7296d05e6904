import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { MESSAGES, messageTemplates } from '@branchify/shared';
import { freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { expectAlert, launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';

const SAMPLE = path.join(__dirname, '..', '..', 'database', 'seed', 'sample.webm');
// https: the app's Content-Security-Policy allows media from https origins only.
const SAMPLE_URL = 'https://media.example.test/sample.webm';

describeBrowser('web app: funnels and library', () => {
  let browser: Browser;
  let user: Session;
  let page: Page;
  beforeAll(async () => {
    browser = await launch();
    const admin = await adminSession();
    // YouTube and direct URLs only: Vimeo and Adilo show the plan's upgrade message.
    const plan = await freePlan(admin, { video_sources: ['youtube', 'generic'] });
    user = await subscribedUser(admin, plan.id);
    const app = await openApp(browser);
    page = app.page;
    // The bundled sample video, served as if from a media host.
    await app.context.route(SAMPLE_URL, (route) => route.fulfill({ status: 200, contentType: 'video/webm', body: fs.readFileSync(SAMPLE) }));
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('creates a funnel and opens its editor, then shares, duplicates and deletes it', async () => {
    await page.getByRole('button', { name: 'Create Funnel' }).click();
    const modal = page.locator('[data-modal="create-funnel"]');
    await modal.locator('input[name=title]').fill('Launch funnel');
    await modal.locator('textarea[name=description]').fill('For the launch');
    await shot(page, '20-create-funnel');
    await modal.getByRole('button', { name: 'Create' }).click();
    await waitForPath(page, /^\/funnels\/\d+\/edit$/);
    await expectAlert(page, MESSAGES.funnelSaved);
    await page.getByTestId('editor-empty').waitFor();

    await page.getByRole('link', { name: 'Funnels', exact: true }).click();
    await waitForPath(page, '/funnels');
    const row = page.getByTestId('funnel-row').filter({ hasText: 'Launch funnel' });
    await row.waitFor();
    await shot(page, '21-funnels-dashboard');

    await row.getByRole('button', { name: 'Share Launch funnel' }).click();
    const share = page.locator('[data-modal="share-funnel"]');
    const code = await share.getByTestId('embed-code').inputValue();
    const origin = new URL(page.url()).origin;
    expect(code).toMatch(new RegExp(`^<iframe src="${origin.replace(/[.]/g, '\\.')}/player/[A-Za-z0-9]{24}"`));
    await share.getByRole('button', { name: 'Copy', exact: true }).click();
    await share.getByText('Copied').waitFor();
    await shot(page, '22-share-funnel');
    // 'Copied' goes away after 1500 ms.
    await share.getByText('Copied').waitFor({ state: 'detached', timeout: 4000 });
    await share.getByRole('button', { name: 'Close', exact: true }).first().click();

    await row.getByRole('button', { name: 'Update Launch funnel' }).click();
    const update = page.locator('[data-modal="update-funnel"]');
    await update.locator('input[name=title]').fill('Launch funnel v2');
    await update.getByRole('button', { name: 'Update' }).click();
    await expectAlert(page, MESSAGES.funnelUpdated);
    const renamed = page.getByTestId('funnel-row').filter({ hasText: 'Launch funnel v2' }).first();
    await renamed.waitFor();

    await renamed.getByRole('button', { name: 'Duplicate Launch funnel v2' }).click();
    await page.getByTestId('funnel-row').filter({ hasText: 'Launch funnel v2 (copy)' }).waitFor();

    const copy = page.getByTestId('funnel-row').filter({ hasText: '(copy)' });
    await copy.getByRole('button', { name: /^Delete / }).click();
    const confirm = page.locator('[data-modal="quick-notice"]');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectAlert(page, MESSAGES.funnelDeleted);
    await copy.waitFor({ state: 'detached' });
  });

  const openAddVideo = async () => {
    await page.getByRole('button', { name: 'Add Video' }).click();
    const modal = page.locator('[data-modal="create-video"]');
    await modal.getByRole('tab', { name: 'YouTube' }).waitFor();
    return modal;
  };

  it('adds a YouTube video by id, with the placeholder and the plan upgrade message', async () => {
    await page.getByRole('link', { name: 'Library', exact: true }).click();
    await waitForPath(page, '/library');
    await page.getByTestId('library-empty').waitFor();
    const modal = await openAddVideo();
    const url = modal.locator('input[name=url]');
    expect(await modal.getByRole('tab', { selected: true }).textContent()).toBe('YouTube');
    expect(await url.getAttribute('placeholder')).toBe('Enter YouTube URL Or YouTube ID');

    await modal.getByRole('tab', { name: 'Vimeo' }).click();
    expect(await modal.getByTestId('upgrade-message').textContent()).toBe(messageTemplates.providerNotInPlan('Vimeo'));
    await shot(page, '30-create-video-upgrade');
    await modal.getByRole('tab', { name: 'Custom URL' }).click();
    expect(await modal.getByTestId('upgrade-message').count()).toBe(0);
    expect(await url.getAttribute('placeholder')).toBe('Enter a direct video URL');

    await modal.getByRole('tab', { name: 'YouTube' }).click();
    await url.fill('not a video');
    await modal.getByText(MESSAGES.invalidVideo).waitFor();
    await url.fill('dQw4w9WgXcQ');
    // The preview (the Branchify player) appears once the input settles (1000 ms debounce). Nothing
    // outside the test server is reachable, so YouTube's IFrame API fails to load: the spec's
    // message shows in place of the video (tests/e2e/app-preview.test.ts covers the player).
    const preview = modal.getByTestId('video-preview');
    await preview.locator('[data-provider="youtube"]').waitFor();
    await preview.getByRole('alert').filter({ hasText: MESSAGES.playerLoadFailed }).waitFor();
    await shot(page, '31-create-video-youtube');
    // Saved without a title: a readable default, not a timestamp.
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.videoAdded);
    await page.getByTestId('video-card').filter({ hasText: 'YouTube video dQw4w9WgXcQ' }).waitFor();
  });

  it('adds a direct video URL with its preview, renames and deletes it', async () => {
    const modal = await openAddVideo();
    await modal.getByRole('tab', { name: 'Custom URL' }).click();
    await modal.locator('input[name=url]').fill(SAMPLE_URL);
    const video = modal.getByTestId('video-preview').locator('video');
    await video.waitFor();
    await page.waitForFunction(() => {
      const v = document.querySelector('[data-modal="create-video"] video') as HTMLVideoElement | null;
      return Boolean(v && v.readyState >= 1 && v.duration > 0);
    });
    await shot(page, '32-create-video-generic');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.videoAdded);
    const card = page.getByTestId('video-card').filter({ hasText: 'sample.webm' }).first();
    await card.waitFor();
    await shot(page, '33-library');

    await card.getByRole('button', { name: /^Edit title of / }).click();
    const edit = page.locator('[data-modal="edit-video-title"]');
    await edit.locator('input[name=title]').fill('Sample clip');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectAlert(page, MESSAGES.videoUpdated);
    const renamed = page.getByTestId('video-card').filter({ hasText: 'Sample clip' });
    await renamed.waitFor();

    await page.locator('input[type=text]').first().fill('Sample');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="video-card"]').length === 1);

    await renamed.getByRole('button', { name: 'Delete Sample clip' }).click();
    await page.locator('[data-modal="quick-notice"]').getByRole('button', { name: 'Delete' }).click();
    await expectAlert(page, MESSAGES.videoDeleted);
    await renamed.waitFor({ state: 'detached' });
  });
});
