import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { MESSAGES, messageTemplates } from '@branchify/shared';
import { addVideo, createFunnel, freePlan, subscribedUser, uuid } from '../api/support/content';
import { client } from '../api/support/http';
import { adminSession, type Session } from '../api/support/users';
import { expectConsoleErrors, failedRequest, launch, loginViaUi, openApp, shot, shotAtBothWidths, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

/**
 * The editor's rough edges, from the creator's side: the resume offer (the creator's own place,
 * never a viewer's, never blocking), new elements' length and colour, a bad condition named once,
 * Export from the editor, and a funnel that is not there.
 */

const DESKTOP = { width: 1440, height: 900 };

describeBrowser('the funnel editor, round two', () => {
  let browser: Browser;
  let admin: Session;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A creator with one 12 s library video ("Intro", editor id `intro`) in a saved funnel. */
  const creatorWithFunnel = async (settings: { enable_resume_play: boolean }, title = 'Round two') => {
    const user = await subscribedUser(admin, (await freePlan(admin, { max_branch_per_funnel: 20 })).id);
    const video = await addVideo(user, { provider: 'generic', url: hostedMediaUrl(`round-two-${uuid().slice(0, 8)}`), title: 'Intro', duration: 12 });
    const funnel = await createFunnel(user);
    const res = await user.http.put(`/api/funnels/${funnel.id}`, { title, settings, videos: [{ id: video.id, editor_id: 'intro', elements: [] }] }, user.token);
    if (res.status !== 200) throw new Error(`funnel save failed: ${res.status}`);
    return { user, funnel: funnel as { id: number; identifier: string } };
  };

  const signedIn = async (user: Session): Promise<Page> => {
    const { page, context } = await openApp(browser);
    await page.setViewportSize(DESKTOP);
    await routeMediaHost(context);
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    return page;
  };

  const videoEditor = (page: Page) => page.locator('[data-modal="funnel-video-editor"]');
  const openIntro = async (page: Page) => {
    await page.getByRole('button', { name: 'Edit Intro' }).click();
    await videoEditor(page).locator('.bf-player[data-state="ready"]').waitFor();
    return videoEditor(page);
  };
  const editorTime = (page: Page) =>
    videoEditor(page)
      .locator('video')
      .evaluate((v: HTMLVideoElement) => v.currentTime);

  it("offers the creator's own place only (not a viewer's), never when resume is off, without blocking the map", async () => {
    const { user, funnel } = await creatorWithFunnel({ enable_resume_play: true });
    // An anonymous viewer watched the funnel elsewhere, up to 0:07.
    const viewer = client();
    const start = await viewer.post(`/api/funnels/${funnel.identifier}/views`, { event_id: uuid() });
    expect(start.status).toBe(201);
    const { view_id, view_token, viewer_token } = start.body.data as Record<string, string>;
    const update = await viewer.put(`/api/funnels/${funnel.identifier}/views`, {
      view_id,
      view_token,
      viewer_token,
      editor_id: 'intro',
      last_watch_time: 7,
      watch_time: 1,
      duration: 12,
    });
    expect(update.status).toBe(200);

    const page = await signedIn(user);
    await page.goto(`/funnels/${funnel.id}/edit`);
    // Nothing is offered from the viewer's place, and the map opens at once.
    await page.getByRole('button', { name: 'Show map' }).click();
    await page.getByRole('region', { name: 'Funnel map' }).waitFor();
    expect(await page.getByTestId('resume-offer').count()).toBe(0);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('button', { name: 'Hide map' }).click();

    // The creator leaves the Intro's timeline at 0:04.
    const editor = await openIntro(page);
    await editor.getByRole('slider', { name: 'Playhead' }).focus();
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
    await until(async () => Math.abs((await editorTime(page)) - 4) < 0.3, 'the playhead at 0:04');
    await editor.getByRole('button', { name: 'Done' }).click();
    await editor.waitFor({ state: 'detached' });

    // Opened again: the offer names the video and the place, and blocks nothing.
    await page.reload();
    const offer = page.getByTestId('resume-offer');
    await offer.getByText(messageTemplates.editorResumeOffer('Intro', '0:04')).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await shotAtBothWidths(page, 'editor-resume-offer');
    await page.getByRole('button', { name: 'Show map' }).click();
    await page.getByRole('region', { name: 'Funnel map' }).waitFor();
    // Escape lets it go.
    await page.keyboard.press('Escape');
    await offer.waitFor({ state: 'detached' });

    // Yes opens the video there.
    await page.reload();
    await offer.getByRole('button', { name: 'Yes, resume' }).click();
    await videoEditor(page).locator('.bf-player').first().waitFor();
    await until(async () => (await editorTime(page)) >= 3.7, 'the video at 0:04');
    await videoEditor(page).getByRole('button', { name: 'Done' }).click();

    // With resume off, nothing is offered.
    await page.getByLabel('Let viewers resume where they left off').uncheck();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('saved').waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Show map' }).waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByTestId('resume-offer').count()).toBe(0);
    await page.context().close();
  });

  it("gives a new element 5 s (or up to the video's end) and a new button the brand's primary colour", async () => {
    const served = (await admin.http.get('/api/admin/customizations', admin.token)).body.data as { app_color_scheme: Record<string, string> };
    const original = served.app_color_scheme['--primary'];
    const brand = '#0f766e';
    const saved = await admin.http.post(
      '/api/admin/customizations',
      { ...served, app_color_scheme: { ...served.app_color_scheme, '--primary': brand } },
      admin.token,
    );
    expect(saved.status).toBe(200);
    try {
      const { user, funnel } = await creatorWithFunnel({ enable_resume_play: false });
      const page = await signedIn(user);
      await page.goto(`/funnels/${funnel.id}/edit`);
      const editor = await openIntro(page);
      await until(async () => (await editor.getByTestId('timeline').innerText()).includes('/ 0:12'), 'the real duration');
      const panel = editor.getByTestId('element-panel');

      // At 0:00: five seconds.
      await editor.getByRole('button', { name: 'Add text element' }).click();
      expect([await panel.getByLabel('Show at').inputValue(), await panel.getByLabel('Hide at').inputValue()]).toEqual(['0:00', '0:05']);
      await panel.getByRole('button', { name: 'Back' }).click();

      // At 0:09 of a 12 s video: up to its end.
      await editor.getByRole('slider', { name: 'Playhead' }).focus();
      for (let i = 0; i < 9; i += 1) await page.keyboard.press('ArrowRight');
      await until(async () => Math.abs((await editorTime(page)) - 9) < 0.3, 'the playhead at 0:09');
      await editor.getByRole('button', { name: 'Add branch element' }).click();
      expect([await panel.getByLabel('Show at').inputValue(), await panel.getByLabel('Hide at').inputValue()]).toEqual(['0:09', '0:12']);

      // The new button wears the brand's colour, and so does one added to it.
      await panel.getByRole('tab', { name: 'Buttons' }).click();
      await panel.getByRole('button', { name: 'Add branch' }).click();
      const buttons = editor.locator('[data-branch-id]');
      await buttons.nth(1).waitFor();
      for (const button of await buttons.all()) {
        expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(15, 118, 110)');
      }
      await shot(page, 'editor-round-two-new-elements');
      await page.context().close();
    } finally {
      const current = (await admin.http.get('/api/admin/customizations', admin.token)).body.data as { app_color_scheme: Record<string, string> };
      await admin.http.post('/api/admin/customizations', { ...current, app_color_scheme: { ...current.app_color_scheme, '--primary': original } }, admin.token);
    }
  });

  it('names a bad condition once, at its field, with no generic toast on top', async () => {
    const { user, funnel } = await creatorWithFunnel({ enable_resume_play: false });
    const page = await signedIn(user);
    await page.goto(`/funnels/${funnel.id}/edit`);
    const editor = await openIntro(page);
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    const panel = editor.getByTestId('element-panel');
    await panel.getByRole('tab', { name: 'Action' }).click();
    const condition = panel.getByRole('textbox', { name: 'Show this button only when', exact: true });
    await condition.fill('score >= 2');
    await panel.getByText("Condition at character 1: 'score' is not a variable of this funnel").waitFor();
    expect(await condition.getAttribute('aria-invalid')).toBe('true');
    await editor.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('save-errors').waitFor();
    // An absence is watched for a while (the wait is the point): a toast would come at once.
    await page.waitForTimeout(1500);
    expect(await page.getByTestId('alert').count()).toBe(0);
    expect(await page.getByText(MESSAGES.validationFailed).count()).toBe(0);
    await shot(page, 'editor-round-two-condition-error');
    await page.context().close();
  });

  it('says why viewers start where they do, also when a branch leads to every video', async () => {
    const { user, funnel } = await creatorWithFunnel({ enable_resume_play: false }, 'Looping funnel');
    const offer = await addVideo(user, { provider: 'generic', url: hostedMediaUrl(`round-two-${uuid().slice(0, 8)}`), title: 'Offer', duration: 12 });
    const stored = (await user.http.get(`/api/funnels/${funnel.id}`, user.token)).body.data as { videos: Array<{ id: number }> };
    const branchTo = (id: string, video: string) => ({
      id,
      type: 'branch',
      showAt: 0,
      hideAt: 5,
      data: { branches: [{ id: `${id}-b`, onclick: 'branch', video }] },
    });
    const save = async (offerElements: unknown[]) => {
      const videos = [
        { id: stored.videos[0]!.id, editor_id: 'intro', elements: [branchTo('to-offer', 'offer')] },
        { id: offer.id, editor_id: 'offer', elements: offerElements },
      ];
      const res = await user.http.put(`/api/funnels/${funnel.id}`, { title: 'Looping funnel', settings: { enable_resume_play: false }, videos }, user.token);
      if (res.status !== 200) throw new Error(`funnel save failed: ${res.status} ${JSON.stringify(res.body)}`);
    };
    await save([]);
    const page = await signedIn(user);
    await page.goto(`/funnels/${funnel.id}/edit`);
    const rule = page.getByTestId('root-rule');
    await rule.waitFor();
    expect(await rule.innerText()).toBe("Viewers start with 'Intro': the first video that no branch leads to.");
    // A branch back to Intro: every video is reached, so the start is the list's first.
    await save([branchTo('back', 'intro')]);
    await page.reload();
    await until(async () => (await rule.innerText()).includes('since a branch leads to every video'), 'the rule for a funnel without an unreached video');
    expect(await rule.innerText()).toBe("Viewers start with 'Intro': the first video in the list, since a branch leads to every video.");
    await shot(page, 'editor-round-two-root-rule');
    await page.context().close();
  });

  it("exports from the editor the same file as the dashboard's Export", async () => {
    const { user, funnel } = await creatorWithFunnel({ enable_resume_play: false }, 'Exported funnel');
    const page = await signedIn(user);
    const read = async (click: () => Promise<void>) => {
      const [download] = await Promise.all([page.waitForEvent('download'), click()]);
      const body = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as Record<string, unknown>;
      delete body.exported_at;
      return { name: download.suggestedFilename(), body };
    };
    const fromDashboard = await read(() => page.getByRole('button', { name: 'Export Exported funnel' }).click());
    await page.goto(`/funnels/${funnel.id}/edit`);
    await page.getByRole('button', { name: 'Export', exact: true }).waitFor();
    await shot(page, 'editor-round-two-export');
    const fromEditor = await read(() => page.getByRole('button', { name: 'Export', exact: true }).click());
    expect(fromEditor).toEqual(fromDashboard);
    expect(fromEditor.name).toMatch(/\.json$/);
    await page.context().close();
  });

  it("says a missing funnel does not exist (or is not the creator's) with a way back; Retry only where it helps", async () => {
    const { user, funnel } = await creatorWithFunnel({ enable_resume_play: false });
    const other = await creatorWithFunnel({ enable_resume_play: false }, 'Not yours');
    const page = await signedIn(user);
    expectConsoleErrors(page, failedRequest(404, '/api/funnels/'), "the funnels asked for are missing or another account's: the API answers 404");
    expectConsoleErrors(page, failedRequest(500, '/api/funnels/'), 'the server fails the first loads below on purpose');

    for (const id of [99_999_999, other.funnel.id]) {
      await page.goto(`/funnels/${id}/edit`);
      await page.getByText(MESSAGES.editorFunnelMissing).waitFor();
      expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    }
    await shot(page, 'editor-round-two-missing');
    await page.getByRole('link', { name: 'Back to funnels' }).click();
    await waitForPath(page, '/funnels');

    // A failure a retry can fix (the server failing for a moment) offers Retry, which loads the funnel.
    let failing = true;
    await page.route(`**/api/funnels/${funnel.id}`, (route) =>
      failing ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: MESSAGES.serverError }) }) : route.continue(),
    );
    await page.goto(`/funnels/${funnel.id}/edit`);
    const retry = page.getByRole('button', { name: 'Retry' });
    await retry.waitFor();
    expect(await page.getByText(MESSAGES.editorFunnelMissing).count()).toBe(0);
    failing = false;
    await retry.click();
    await page.getByRole('heading', { level: 1, name: 'Round two' }).waitFor();
    await page.context().close();
  });
});
