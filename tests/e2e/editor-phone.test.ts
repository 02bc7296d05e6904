import type { Browser, Locator, Page } from 'playwright-core';
import { MESSAGES, PROVIDER_LABELS } from '@branchify/shared';
import { addVideo, freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { expectAlert, launch, loginViaUi, openApp, shot, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { twoVideoFunnel } from './support/funnels';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

/**
 * The funnel editor and the library's dialogs on a phone (390 px) and a desktop (1440 px): the
 * funnel's page works on a phone (only the timeline asks for more room), every video source tab
 * can be reached, toasts keep clear of Save and Logout, and the caption upload form is in view.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const WIDTHS = [
  ['1440', DESKTOP],
  ['390', PHONE],
] as const;

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const boxOf = async (locator: Locator): Promise<Box> => {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
};

describeBrowser('the funnel editor and its dialogs on a phone', () => {
  let browser: Browser;
  let admin: Session;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const signedIn = async (user: Session, viewport: { width: number; height: number }): Promise<Page> => {
    const { page, context } = await openApp(browser);
    await page.setViewportSize(viewport);
    await routeMediaHost(context);
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    return page;
  };

  it('at 390 px edits the details, variables, video order and map; only the timeline says it needs a wider screen', async () => {
    const user = await subscribedUser(admin, (await freePlan(admin, { max_branch_per_funnel: 10 })).id);
    const { id } = await twoVideoFunnel(user, 'ph', 'Phone funnel');
    const page = await signedIn(user, PHONE);
    await page.goto(`/funnels/${id}/edit`);

    // The funnel's page, whole: its header, details, variables and videos.
    await page.getByRole('heading', { level: 1, name: 'Phone funnel' }).waitFor();
    const details = page.getByRole('region', { name: 'Funnel details' });
    await details.getByRole('textbox', { name: 'Title', exact: true }).fill('Edited on a phone');
    await details.getByRole('button', { name: 'Add variable' }).click();
    await details.getByTestId('variable').getByRole('textbox', { name: 'Name', exact: true }).fill('score');
    // Video order: the second moves up.
    await page.getByRole('button', { name: 'Move second up' }).click();
    const order = page.getByRole('list', { name: 'Funnel videos' }).getByRole('listitem');
    await until(async () => (await order.first().innerText()).includes('second'), 'the second video first');
    expect(await page.getByText(MESSAGES.timelineNeedsWiderScreen).count()).toBe(0);
    expect(await page.getByText('The video editor needs a wider screen', { exact: false }).count()).toBe(0);
    // Nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(1);
    await shot(page, 'editor-phone-390-funnel');

    // The map opens on the phone too.
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.getByRole('region', { name: 'Funnel map' });
    await map.locator('.react-flow__node[data-id="ph-second"]').waitFor();
    await shot(page, 'editor-phone-390-map');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('saved').waitFor();
    const stored = (await user.http.get(`/api/funnels/${id}`, user.token)).body.data as {
      title: string;
      variables: Array<{ name: string }>;
      videos: Array<{ editor_id: string }>;
    };
    expect(stored.title).toBe('Edited on a phone');
    expect(stored.variables.map((v) => v.name)).toEqual(['score']);
    expect(stored.videos.map((v) => v.editor_id)).toEqual(['ph-second', 'ph-first']);

    // Only the timeline (a video's elements) asks for a wider screen, and says so by name.
    await page.getByRole('button', { name: 'Edit first' }).click();
    const editor = page.locator('[data-modal="funnel-video-editor"]');
    await editor.getByText(MESSAGES.timelineNeedsWiderScreen).waitFor();
    expect(MESSAGES.timelineNeedsWiderScreen).toMatch(/^The timeline editor needs a wider screen/);
    expect(await editor.getByRole('button', { name: 'Add text element' }).count()).toBe(0);
    await shot(page, 'editor-phone-390-timeline-notice');
    await editor.getByRole('button', { name: 'Done' }).click();
    await editor.waitFor({ state: 'detached' });

    // On a desktop the same video opens its timeline, without the notice.
    await page.setViewportSize(DESKTOP);
    await page.getByRole('button', { name: 'Edit first' }).click();
    await editor.getByTestId('timeline').waitFor();
    expect(await editor.getByText(MESSAGES.timelineNeedsWiderScreen).count()).toBe(0);
    await shot(page, 'editor-phone-1440-timeline');
    await page.context().close();
  });

  for (const [label, viewport] of WIDTHS) {
    it(`at ${label} px reaches and selects every video source tab of Add Video`, async () => {
      const user = await subscribedUser(admin, (await freePlan(admin, { video_sources: ['adilo', 'youtube', 'vimeo', 'generic'] })).id);
      const page = await signedIn(user, viewport);
      await page.goto('/library');
      await page.getByRole('button', { name: 'Add Video' }).click();
      const modal = page.locator('[data-modal="create-video"]');
      const tabs = modal.getByRole('tablist', { name: 'Video source' });
      await tabs.waitFor();
      const paper = await boxOf(modal.locator('.MuiDialog-paper'));
      // What of the strip shows (the list itself is as wide as all its tabs).
      const shown = modal.locator('.MuiTabs-scroller');
      // By pointer: each tab is brought into view (the arrow when it is off to one side) and tapped.
      for (const name of Object.values(PROVIDER_LABELS)) {
        const tab = modal.getByRole('tab', { name, exact: true });
        const inside = async () => {
          const b = await boxOf(tab);
          const strip = await boxOf(shown);
          return b.x >= strip.x - 1 && b.x + b.width <= strip.x + strip.width + 1;
        };
        for (let i = 0; i < 4 && !(await inside()); i += 1) {
          const b = await boxOf(tab);
          const strip = await boxOf(shown);
          await modal.locator(`.MuiTabScrollButton-root${b.x < strip.x ? ':first-child' : ':last-child'}`).click();
          await page.waitForTimeout(400);
        }
        expect(await inside()).toBe(true);
        await tab.click();
        await until(async () => (await tab.getAttribute('aria-selected')) === 'true', `${name} selected`);
        const b = await boxOf(tab);
        expect(b.x >= paper.x && b.x + b.width <= paper.x + paper.width).toBe(true);
      }
      await shot(page, `editor-phone-${label}-add-video-custom-url`);
      expect(await modal.getByRole('textbox', { name: /Video URL/ }).getAttribute('placeholder')).toBe('Enter a direct video URL');

      // By keyboard: the arrow keys walk the tabs and Enter selects.
      await modal.getByRole('tab', { name: 'Adilo', exact: true }).click();
      await modal.getByRole('tab', { name: 'Adilo', exact: true }).focus();
      for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await until(async () => (await modal.getByRole('tab', { name: 'Custom URL' }).getAttribute('aria-selected')) === 'true', 'Custom URL by keyboard');
      await page.context().close();
    });
  }

  for (const [label, viewport] of WIDTHS) {
    it(`at ${label} px shows toasts clear of Save and Logout`, async () => {
      const user = await subscribedUser(admin, (await freePlan(admin, { max_branch_per_funnel: 10 })).id);
      const { id } = await twoVideoFunnel(user, `toast${label}`, 'Toast funnel');
      const page = await signedIn(user, viewport);
      await page.goto(`/funnels/${id}/edit`);
      const details = page.getByRole('region', { name: 'Funnel details' });
      await details.getByRole('textbox', { name: 'Title', exact: true }).fill('Toast funnel, saved');
      const save = page.getByRole('button', { name: 'Save', exact: true });
      await save.click();
      await expectAlert(page, MESSAGES.funnelSaved);
      const toast = page.getByTestId('alert').first();
      const toastBox = await boxOf(toast);

      // The page header's Save, and (on a phone) the bar's menu button.
      expect(overlaps(toastBox, await boxOf(save))).toBe(false);
      if (viewport === PHONE) {
        expect(overlaps(toastBox, await boxOf(page.getByRole('button', { name: 'Open menu' })))).toBe(false);
        await page.getByRole('button', { name: 'Open menu' }).click();
      }
      // Logout: the profile block and its menu.
      const profile = page.getByTestId('profile-block');
      await profile.click();
      const logout = page.getByRole('menuitem', { name: 'Logout' });
      await logout.waitFor();
      expect(await toast.isVisible()).toBe(true);
      expect(overlaps(toastBox, await boxOf(profile))).toBe(false);
      expect(overlaps(toastBox, await boxOf(logout))).toBe(false);
      await page.screenshot({ path: `${__dirname}/screenshots/editor-phone-${label}-toast-clear.png` });
      await page.keyboard.press('Escape');
      await page.context().close();
    });
  }

  for (const [label, viewport] of WIDTHS) {
    it(`at ${label} px opens the Captions dialog with its upload form in view`, async () => {
      const user = await subscribedUser(admin, (await freePlan(admin)).id);
      const title = `Captions in view ${label}`;
      await addVideo(user, { provider: 'generic', url: hostedMediaUrl(`captions-view-${label}`), title });
      const page = await signedIn(user, viewport);
      await page.goto('/library');
      await page.getByRole('button', { name: `Captions of ${title}` }).click();
      const modal = page.locator('[data-modal="video-captions"]');
      const form = modal.getByTestId('caption-upload');
      await form.waitFor();
      await modal.getByText('This video has no captions yet.').waitFor();
      const content = await boxOf(modal.locator('.MuiDialogContent-root'));
      const bottom = Math.min(viewport.height, content.y + content.height);
      for (const part of [
        form.getByRole('textbox', { name: /Language code/ }),
        form.getByRole('textbox', { name: /Label/ }),
        form.getByRole('button', { name: 'Choose caption file' }),
        form.getByRole('button', { name: 'Upload captions' }),
      ]) {
        const b = await boxOf(part);
        expect(b.y >= content.y && b.y + b.height <= bottom).toBe(true);
      }
      expect(await modal.locator('.MuiDialogContent-root').evaluate((el) => el.scrollTop)).toBe(0);
      await shot(page, `editor-phone-${label}-captions-dialog`);
      await page.context().close();
    });
  }
});
