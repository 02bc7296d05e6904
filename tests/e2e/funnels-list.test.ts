import type { Browser, Locator, Page } from 'playwright-core';
import { createFunnel, freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { expectAlert, launch, loginViaUi, openApp, shot, shotAtBothWidths, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { publishFunnel, textEl } from './support/funnels';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';
import { MESSAGES } from '@branchify/shared';

/**
 * The creator's funnels list. On a phone each funnel shows its title (a link to the editor) and one
 * button opening a menu of every action the desktop table offers, with nothing scrolling sideways.
 * Preview from the list plays the funnel as the player and the editor's Preview do: variables hold
 * their defaults, and elements keep their font and size.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
/** What the table offers for each funnel, in order (the phone's menu offers the same). */
const ACTIONS = ['Edit', 'Preview', 'Analytics', 'Share', 'Settings', 'Export', 'Duplicate', 'Delete'];
const LONG_TITLE = 'A funnel with a rather long title that a phone has to wrap somewhere sensible';
const GREETING = 'Hi {{name}}, pick a path below';

/** Horizontal overflow of the page and of each of these boxes: what scrolls sideways. */
const sidewaysOverflow = async (page: Page, boxes: Locator): Promise<string[]> => {
  const own = await boxes.evaluateAll((els) =>
    els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => `${el.getAttribute('data-testid') ?? el.tagName}: ${el.scrollWidth} > ${el.clientWidth}`),
  );
  const pageWide = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  return [...(pageWide ? ['the page'] : []), ...own];
};

/** The funnel starts playing (the big play button is pressed when the browser did not autoplay). */
const startPlaying = async (scope: Locator) => {
  const playing = scope.locator('.bf-player[data-state="playing"]');
  await scope.locator('.bf-bigplay').or(playing).first().waitFor();
  if (!(await playing.isVisible())) await scope.locator('.bf-bigplay').click();
  await playing.waitFor();
};

/** What a viewer sees of the greeting: its text, its font (and whether that font's file is in use), and its width against the player's. */
const greetingAsShown = async (scope: Locator) => {
  const greeting = scope.locator('[data-element-id="greet"]');
  await greeting.waitFor({ state: 'visible' });
  const text = scope.locator('.bf-text').filter({ hasText: /pick a path/ });
  await text.waitFor();
  // The element's own font: its stylesheet is on the page and the face has loaded.
  await scope.page().waitForFunction(() => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Abel' && f.status === 'loaded'));
  const player = await scope.locator('.bf-player').boundingBox();
  const box = await text.boundingBox();
  return {
    text: (await text.innerText()).trim(),
    fontFamily: await text.evaluate((el) => getComputedStyle(el).fontFamily),
    fontSize: await text.evaluate((el) => getComputedStyle(el).fontSize),
    relativeWidth: Math.round((box!.width / player!.width) * 100) / 100,
  };
};

describeBrowser('the funnels list', () => {
  let browser: Browser;
  let creator: Session;
  let short: { id: number; title: string };
  let long: { id: number; title: string };
  beforeAll(async () => {
    browser = await launch();
    const admin = await adminSession();
    creator = await subscribedUser(admin, (await freePlan(admin)).id);
    const description = 'A description as long as a sentence or two, which a phone wraps or cuts.';
    long = { id: (await createFunnel(creator, { title: LONG_TITLE, description })).id, title: LONG_TITLE };
    short = { id: (await createFunnel(creator, { title: 'Spring launch' })).id, title: 'Spring launch' };
  });
  afterAll(async () => {
    await browser?.close();
  });

  const openList = async (viewport: { width: number; height: number }): Promise<Page> => {
    const { page, context } = await openApp(browser);
    await routeMediaHost(context);
    await page.setViewportSize(viewport);
    await loginViaUi(page, creator.email, creator.password);
    await waitForPath(page, '/funnels');
    await page.getByTestId('funnel-row').first().waitFor();
    return page;
  };
  const rowOf = (page: Page, title: string) => page.getByTestId('funnel-row').filter({ has: page.getByRole('link', { name: title, exact: true }) });

  it('at 390 px shows each funnel as its title (a link to the editor) and a menu of every action, without sideways scrolling', async () => {
    const page = await openList(PHONE);
    expect(await page.getByRole('table').count()).toBe(0);
    for (const f of [long, short]) {
      const link = rowOf(page, f.title).getByRole('link', { name: f.title, exact: true });
      expect(await link.getAttribute('href')).toBe(`/funnels/${f.id}/edit`);
      await rowOf(page, f.title)
        .getByRole('button', { name: `Actions for ${f.title}` })
        .waitFor();
    }
    // Nothing scrolls sideways: not the page, not the list's card, not a row.
    expect(await sidewaysOverflow(page, page.getByTestId('funnel-list').or(page.getByTestId('funnel-row')))).toEqual([]);
    const list = await page.getByTestId('funnel-list').boundingBox();
    expect(list!.x + list!.width).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'funnels-list-390');

    // From the keyboard: the button opens the menu with focus on its first item; Escape closes it and focus returns.
    const button = page.getByRole('button', { name: `Actions for ${long.title}` });
    // The same button while the open menu hides the page from assistive technology.
    const behindMenu = page.locator(`button[aria-label="Actions for ${long.title}"]`);
    await button.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: `Actions for ${long.title}` });
    await menu.waitFor();
    expect(await behindMenu.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(ACTIONS);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Edit');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Preview');
    const menuBox = await menu.boundingBox();
    expect(menuBox!.x).toBeGreaterThanOrEqual(0);
    expect(menuBox!.x + menuBox!.width).toBeLessThanOrEqual(PHONE.width);
    await shot(page, 'funnels-list-390-menu');
    await page.keyboard.press('Escape');
    // Gone, not only fading out (a menu reopened while it fades keeps the item last focused).
    await page.locator('[role=menu]').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(`Actions for ${long.title}`);
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    // Share from the menu, by keyboard: its modal opens; closing it leaves the list as it was.
    await page.keyboard.press('Enter');
    await menu.waitFor();
    for (let i = 0; i < ACTIONS.indexOf('Share'); i += 1) await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Share');
    await page.keyboard.press('Enter');
    const share = page.locator('[data-modal="share-funnel"]');
    await page.getByRole('dialog', { name: 'Share Funnel' }).waitFor();
    await share.getByRole('button', { name: 'Close', exact: true }).first().click();
    await share.waitFor({ state: 'detached' });
    expect(await menu.isVisible()).toBe(false);

    // Duplicate, then Delete the copy (after the confirmation), by tapping.
    await page.getByRole('button', { name: `Actions for ${short.title}` }).click();
    await page
      .getByRole('menu', { name: `Actions for ${short.title}` })
      .getByRole('menuitem', { name: 'Duplicate' })
      .click();
    const copyTitle = `${short.title} (copy)`;
    await rowOf(page, copyTitle).waitFor();
    await page.getByRole('button', { name: `Actions for ${copyTitle}` }).click();
    await page
      .getByRole('menu', { name: `Actions for ${copyTitle}` })
      .getByRole('menuitem', { name: 'Delete' })
      .click();
    await page.locator('[data-modal="quick-notice"]').getByRole('button', { name: 'Delete' }).click();
    await expectAlert(page, MESSAGES.funnelDeleted);
    await rowOf(page, copyTitle).waitFor({ state: 'detached' });

    // Settings opens the funnel's form; Analytics and Preview go to their pages.
    await page.getByRole('button', { name: `Actions for ${short.title}` }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    const update = page.locator('[data-modal="update-funnel"]');
    expect(await update.locator('input[name=title]').inputValue()).toBe(short.title);
    await update.getByRole('button', { name: 'Cancel' }).click();
    await update.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: `Actions for ${short.title}` }).click();
    await page.getByRole('menuitem', { name: 'Analytics' }).click();
    await waitForPath(page, `/funnels/${short.id}/analytics`);
    await page.goBack();
    await page.getByRole('button', { name: `Actions for ${short.title}` }).click();
    await page.getByRole('menuitem', { name: 'Preview' }).click();
    await waitForPath(page, `/funnels/${short.id}`);
    await page.goBack();

    // The title leads to the editor.
    await page.getByRole('link', { name: short.title, exact: true }).click();
    await waitForPath(page, `/funnels/${short.id}/edit`);
    await page.context().close();
  });

  it('at 1440 px the title is a link to the editor too, and the table keeps every action', async () => {
    const page = await openList(DESKTOP);
    await page.getByRole('table', { name: 'Funnels' }).waitFor();
    const row = rowOf(page, short.title);
    expect(await row.getByRole('link', { name: short.title, exact: true }).getAttribute('href')).toBe(`/funnels/${short.id}/edit`);
    const labels = await row.getByRole('button').evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    expect(labels).toEqual([
      `Edit ${short.title}`,
      `Preview ${short.title}`,
      `Analytics of ${short.title}`,
      `Share ${short.title}`,
      `Update ${short.title}`,
      `Export ${short.title}`,
      `Duplicate ${short.title}`,
      `Delete ${short.title}`,
    ]);
    expect(await page.getByRole('button', { name: /^Actions for / }).count()).toBe(0);
    expect(await sidewaysOverflow(page, page.locator('.MuiTableContainer-root'))).toEqual([]);
    await shotAtBothWidths(page, 'funnels-list');
    await page.context().close();
  });

  it("previews from the list as the editor's Preview and the player do: the variable's default, the element's font and size", async () => {
    const { id } = await publishFunnel(creator, { intro: hostedMediaUrl('funnels-list-intro') }, (ids) => ({
      title: 'Greeting funnel',
      variables: [{ name: 'name', type: 'text', default: 'friend', fromUrl: true }],
      videos: [
        {
          id: ids.intro,
          editor_id: 'intro',
          elements: [{ ...textEl('greet', 'intro', 0, 12, GREETING), data: { title: GREETING, fontFamily: 'Abel', fontSize: 2 } }],
        },
      ],
    }));

    // From the list at 1440 px.
    const page = await openList(DESKTOP);
    await rowOf(page, 'Greeting funnel').getByRole('button', { name: 'Preview Greeting funnel' }).click();
    await waitForPath(page, `/funnels/${id}`);
    const fromList = page.getByTestId('funnel-preview');
    await startPlaying(fromList);
    const listed = await greetingAsShown(fromList);
    expect(listed.text).toBe('Hi friend, pick a path below');
    expect(listed.fontFamily).toContain('Abel');
    await shot(page, 'funnels-list-preview-1440');

    // The editor's Preview draws the same.
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await waitForPath(page, `/funnels/${id}/edit`);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const inEditor = page.getByTestId('editor-preview');
    await startPlaying(inEditor);
    expect(await greetingAsShown(inEditor)).toEqual(listed);
    await shot(page, 'funnels-list-editor-preview-1440');
    await page.context().close();

    // And from the phone's menu.
    const phone = await openList(PHONE);
    await phone.getByRole('button', { name: 'Actions for Greeting funnel' }).click();
    await phone.getByRole('menuitem', { name: 'Preview' }).click();
    await waitForPath(phone, `/funnels/${id}`);
    const onPhone = phone.getByTestId('funnel-preview');
    await startPlaying(onPhone);
    const small = await greetingAsShown(onPhone);
    expect(small.text).toBe('Hi friend, pick a path below');
    expect(small.fontFamily).toContain('Abel');
    expect(await sidewaysOverflow(phone, onPhone)).toEqual([]);
    await shot(phone, 'funnels-list-preview-390');
    await phone.context().close();
  });
});
