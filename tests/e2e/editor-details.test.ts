import type { Browser, Page } from 'playwright-core';
import { addVideo, createFunnel, freePlan, subscribedUser } from '../api/support/content';
import { baseUrl } from '../api/support/http';
import { adminSession, type Session } from '../api/support/users';
import { launch, loginViaUi, openApp, shot, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { SAFE_AREA } from '../../frontend/src/creator/editor/timeline-math';
import { hostedMediaUrl, plainHttpMediaUrl, routeMediaHost } from './support/media-server';

/**
 * The video editor's details: what the stage accepts, where new elements land, the colour
 * picker, and the texts around them.
 */

const until = async (fn: () => Promise<boolean>, what: string, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describeBrowser('video editor details', () => {
  let browser: Browser;
  let admin: Session;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A user whose funnel holds one library video (given by its source), signed in on the funnel's editor. */
  const editorWith = async (video: Record<string, unknown>, viewport = { width: 1440, height: 900 }) => {
    const user = await subscribedUser(admin, (await freePlan(admin, { max_branch_per_funnel: 20 })).id);
    const added = await addVideo(user, video);
    const funnel = await createFunnel(user);
    const res = await user.http.put(
      `/api/funnels/${funnel.id}`,
      { title: 'Details', settings: { enable_resume_play: false }, videos: [{ id: added.id, editor_id: 'intro', elements: [] }] },
      user.token,
    );
    if (res.status !== 200) throw new Error(`funnel save failed: ${res.status} ${JSON.stringify(res.body)}`);
    const { page, context } = await openApp(browser);
    await page.setViewportSize(viewport);
    await routeMediaHost(context);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${funnel.id}/edit`);
    return { page, context, user, funnel, errors };
  };

  const openVideoEditor = async (page: Page, title: string) => {
    await page.getByRole('button', { name: `Edit ${title}` }).click();
    const editor = page.locator('[data-modal="funnel-video-editor"]');
    await editor.locator('.bf-player[data-state="ready"], .bf-player[data-state="error"]').first().waitFor();
    return editor;
  };

  it('plays a direct http: video on the stage, as the library and the player do', async () => {
    const { page, context, errors } = await editorWith({ provider: 'generic', url: plainHttpMediaUrl('plain-http'), title: 'Plain http' });
    const editor = await openVideoEditor(page, 'Plain http');
    expect(await editor.locator('.bf-player').getAttribute('data-state')).toBe('ready');
    // The stage reads the real length of the clip (12 s), not a stand-in minute.
    await until(async () => (await editor.getByTestId('timeline').innerText()).includes('/ 0:12'), 'the real duration on the timeline');
    expect(errors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await shot(page, 'editor-http-video-1440');
    await context.close();

    // One definition of media sources: the app's policy and the player page's name the same ones.
    const mediaSrc = async (path: string) => {
      const csp = (await fetch(`${baseUrl()}${path}`)).headers.get('content-security-policy') ?? '';
      return /(?:^|;)\s*media-src ([^;]*)/.exec(csp)?.[1]?.trim().split(/\s+/).sort();
    };
    const app = await mediaSrc('/funnels');
    expect(app).toEqual(expect.arrayContaining(['http:', 'https:']));
    expect(await mediaSrc('/player/NoSuchFunnelReference1')).toEqual(app);
  });

  it('places each new button where it overlaps nothing inside the safe area, on its default background', async () => {
    const { page, context } = await editorWith({ provider: 'generic', url: hostedMediaUrl('placement'), title: 'Placement', duration: 12 });
    const editor = await openVideoEditor(page, 'Placement');
    const panel = editor.getByTestId('element-panel');
    await editor.getByRole('button', { name: 'Add text element' }).click();
    await panel.getByRole('button', { name: 'Back' }).click();
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    await panel.getByRole('tab', { name: 'Prompt' }).click();
    await panel.getByLabel('Prompt text').fill('Where next?');
    await panel.getByRole('tab', { name: 'Buttons' }).click();
    for (let i = 0; i < 3; i += 1) await panel.getByRole('button', { name: 'Add branch' }).click();
    await editor.locator('[data-branch-id]').nth(3).waitFor();

    const layer = (await editor.getByTestId('edit-layer').boundingBox())!;
    const scale = layer.width / 640;
    await shot(page, 'editor-new-buttons-placed-1440');
    const parts = editor.getByTestId('edit-layer').locator('[data-element-id], [data-branch-id], [aria-label^="Prompt:"]');
    const boxes: Array<{ name: string; x: number; y: number; width: number; height: number }> = [];
    for (const part of await parts.all()) {
      const b = (await part.boundingBox())!;
      const name = (await part.getAttribute('aria-label')) ?? '';
      // In design pixels, relative to the video's corner.
      boxes.push({ name, x: (b.x - layer.x) / scale, y: (b.y - layer.y) / scale, width: b.width / scale, height: b.height / scale });
    }
    expect(boxes).toHaveLength(6);
    const overlaps = (a: (typeof boxes)[number], b: (typeof boxes)[number]) =>
      a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) expect(overlaps(a, b) ? `${a.name} overlaps ${b.name}` : '').toBe('');
      // Inside the safe area: clear of the edges and of the player's controls at the bottom.
      expect(a.x).toBeGreaterThanOrEqual(SAFE_AREA.left - 0.5);
      expect(a.y).toBeGreaterThanOrEqual(SAFE_AREA.top - 0.5);
      expect(a.x + a.width).toBeLessThanOrEqual(640 - SAFE_AREA.right + 0.5);
      expect(a.y + a.height).toBeLessThanOrEqual(360 - SAFE_AREA.bottom + 0.5);
    }
    // Each new button shows the default background (not transparent).
    for (const button of await editor.locator('[data-branch-id]').all()) {
      expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(47, 39, 206)');
    }
    await context.close();
  });
});
