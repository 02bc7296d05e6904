import type { Knex } from 'knex';
import type { Browser, Locator, Page } from 'playwright-core';
import { MESSAGES } from '@branchify/shared';
import { openDb } from '../api/support/db';
import { addVideo, freePlan, subscribedUser } from '../api/support/content';
import { adminSession, type Session } from '../api/support/users';
import { expectAlert, launch, loginViaUi, openApp, shot, until, waitForPath } from './support/app';
import { describeBrowser } from './support/browser';
import { branchEl, textEl } from './support/funnels';
import { hostedMediaUrl, routeMediaHost } from './support/media-server';

/** A 1×1 PNG, for the branch image upload. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** Picks an option of a labelled MUI select. */
const choose = async (scope: Locator, label: string, option: string) => {
  await scope.getByRole('combobox', { name: label }).click();
  await scope.page().getByRole('option', { name: option, exact: true }).click();
};

/** Plays a player: after the user has clicked on the page the browser may autoplay it, otherwise its big play button starts it. */
const startPlaying = async (scope: Locator) => {
  const playing = scope.locator('.bf-player[data-state="playing"]');
  await scope.locator('.bf-bigplay').or(playing).first().waitFor();
  if (!(await playing.isVisible())) await scope.locator('.bf-bigplay').click();
  await playing.waitFor();
};

const currentEditor = (page: Page) => page.locator('.bf-slot.bf-slot-current').getAttribute('data-editor-id');
const videoTime = (page: Page) => page.locator('.bf-slot.bf-slot-current video').evaluate((v: HTMLVideoElement) => v.currentTime);
interface SavedFunnel {
  id: number;
  identifier: string;
  videos: Array<{ id: number; editor_id: string; elements: Array<Record<string, any>> }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the document as JSON
}

describeBrowser('funnel editor', () => {
  let browser: Browser;
  let admin: Session;
  let db: Knex;
  beforeAll(async () => {
    browser = await launch();
    admin = await adminSession();
    db = openDb();
  });
  afterAll(async () => {
    await browser?.close();
    await db?.destroy();
  });

  const signedIn = async (user: Session) => {
    const { page, context } = await openApp(browser);
    await routeMediaHost(context);
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    return { page, context };
  };

  const libraryOf = async (user: Session, names: string[]) => {
    for (const name of names) await addVideo(user, { provider: 'generic', url: hostedMediaUrl(name.toLowerCase()), title: name, duration: 12 });
  };

  it('builds a three-video funnel from an empty account, saves it, reloads it unchanged and plays every branch on /player', async () => {
    const plan = await freePlan(admin, { max_branch_per_funnel: 10 });
    const user = await subscribedUser(admin, plan.id);
    await libraryOf(user, ['Intro', 'Offer', 'Thanks']);
    const { page, context } = await signedIn(user);

    // A new funnel opens in the editor, empty.
    await page.getByRole('button', { name: 'Create Funnel' }).click();
    const create = page.locator('[data-modal="create-funnel"]');
    await create.locator('input[name=title]').fill('Webinar funnel');
    await create.getByRole('button', { name: 'Create' }).click();
    await waitForPath(page, /^\/funnels\/\d+\/edit$/);
    const funnelId = Number(/\/funnels\/(\d+)\/edit/.exec(page.url())![1]);
    await page.getByTestId('editor-empty').waitFor();
    await shot(page, '70-editor-empty');

    // video-to-funnel: search narrows the library; nothing picked, nothing to add.
    await page.getByRole('button', { name: 'Add videos' }).first().click();
    const picker = page.locator('[data-modal="video-to-funnel"]');
    await picker.getByTestId('picker-video').nth(2).waitFor();
    expect(await picker.getByRole('button', { name: 'Add selected video' }).isDisabled()).toBe(true);
    await picker.getByLabel('Search videos').fill('off');
    await until(async () => (await picker.getByTestId('picker-video').count()) === 1, 'the search to narrow the list');
    await picker.getByLabel('Search videos').fill('');
    await picker.getByTestId('picker-video').nth(2).waitFor();
    for (const name of ['Intro', 'Offer', 'Thanks']) await picker.getByRole('checkbox', { name: `Select ${name}` }).check();
    await picker.getByText('3 selected').waitFor();
    await shot(page, '71-video-to-funnel');
    await picker.getByRole('button', { name: 'Add selected video' }).click();
    await page.getByTestId('funnel-video').nth(2).waitFor();
    await page.getByTestId('dirty').waitFor();
    await shot(page, '72-editor-videos');

    // Intro: a text element and a branch element with a button for each click action.
    await page.getByRole('button', { name: 'Edit Intro' }).click();
    const editor = page.locator('[data-modal="funnel-video-editor"]');
    await editor.locator('.bf-player[data-state="ready"]').waitFor();
    const panel = editor.getByTestId('element-panel');
    await editor.getByRole('button', { name: 'Add text element' }).click();
    await panel.getByLabel('Text', { exact: true }).fill('Welcome to the webinar');
    await choose(panel, 'Font family', 'Roboto');
    await choose(panel, 'Thickness', 'Bold italic');
    await editor.getByRole('button', { name: 'Text element: Welcome to the webinar' }).waitFor();

    // A typed time that does not parse is named and not kept; one past the video is clamped.
    await panel.getByLabel('Hide at').fill('abc');
    await panel.getByText('Use h:m:s, m:s or seconds').waitFor();
    await panel.getByLabel('Hide at').fill('1:30');
    await panel.getByLabel('Hide at').press('Enter');
    expect(await panel.getByLabel('Hide at').inputValue()).toBe('0:12');
    await panel.getByRole('button', { name: 'Back' }).click();

    await editor.getByRole('button', { name: 'Add branch element' }).click();
    await panel.getByLabel('Show at').fill('0');
    await panel.getByLabel('Show at').press('Enter');
    await panel.getByLabel('Hide at').fill('0:10');
    await panel.getByLabel('Hide at').press('Enter');
    await panel.getByRole('tab', { name: 'Prompt' }).click();
    await panel.getByLabel('Prompt text').fill('Where next?');
    await panel.getByLabel('Left (px)').fill('300');
    // Branch 1: Branch To the offer (a new branch points at another video of the funnel).
    await panel.getByRole('tab', { name: 'Buttons' }).click();
    await panel.getByLabel('Button text').fill('See the offer');
    await panel.getByLabel('Top (px)').fill('60');
    await panel.getByRole('tab', { name: 'Action' }).click();
    await choose(panel, 'Branch to video', 'Offer');
    // Branch 2: Open URL, with the inline notice for a bad URL.
    await panel.getByRole('button', { name: 'Add branch' }).click();
    await choose(panel, 'Click action', 'Open URL');
    await panel.getByLabel('URL').fill('javascript:alert(1)');
    await panel.getByText(MESSAGES.invalidUrl).waitFor();
    await shot(page, '74-branch-invalid-url');
    await panel.getByLabel('URL').fill('https://signup.example.test/join');
    await panel.getByText(MESSAGES.invalidUrl).waitFor({ state: 'detached' });
    await panel.getByRole('tab', { name: 'Buttons' }).click();
    await panel.getByLabel('Button text').fill('Sign up');
    await panel.getByLabel('Top (px)').fill('170');
    // Branch 3: Jump To Timestamp, bounded by the 12 s video.
    await panel.getByRole('button', { name: 'Add branch' }).click();
    await panel.getByLabel('Button text').fill('Skip ahead');
    await panel.getByLabel('Top (px)').fill('240');
    await panel.getByRole('tab', { name: 'Action' }).click();
    await choose(panel, 'Click action', 'Jump To Timestamp');
    await panel.getByLabel('Seconds').fill('75');
    await panel.getByLabel('Seconds').blur();
    expect(await panel.getByLabel('Seconds').inputValue()).toBe('12');
    await panel.getByLabel('Seconds').fill('6');
    // Branch 4: an uploaded image that branches to the thank-you video.
    await panel.getByRole('button', { name: 'Add branch' }).click();
    await choose(panel, 'Branch to video', 'Thanks');
    await panel.getByRole('tab', { name: 'Buttons' }).click();
    await choose(panel, 'Layout', 'Image');
    await panel.locator('input[type=file]').setInputFiles({ name: 'thanks.png', mimeType: 'image/png', buffer: PNG });
    await editor.locator('[data-branch-id] img[src^="/uploads/"]').waitFor();
    // Placed apart from the other buttons, by typing its position.
    await panel.getByLabel('Top (px)').fill('200');
    await panel.getByLabel('Left (px)').fill('480');
    // Settings: wait 10 s for a choice, else take Branch 1.
    await panel.getByRole('tab', { name: 'Settings' }).click();
    await panel.getByLabel('Pause the video while the buttons show').check();
    expect(await panel.getByLabel('Wait for a choice (seconds)').inputValue()).toBe('10');
    await panel.getByLabel('Wait for a choice (seconds)').fill('3');
    await panel.getByLabel('Wait for a choice (seconds)').blur();
    expect(await panel.getByLabel('Wait for a choice (seconds)').inputValue()).toBe('10');
    await choose(panel, 'Default path', 'Take Branch 1');
    await shot(page, '75-branch-settings');

    // Dragging a button on the video moves it (a library does the pointer work).
    const button = editor.getByRole('button', { name: 'Branch button: See the offer' });
    const before = await button.boundingBox();
    await page.mouse.move(before!.x + 10, before!.y + 10);
    await page.mouse.down();
    await page.mouse.move(before!.x + 90, before!.y + 70, { steps: 8 });
    await page.mouse.up();
    const after = await button.boundingBox();
    expect(after!.x - before!.x).toBeGreaterThan(60);
    await shot(page, '76-video-editor');
    await editor.getByRole('button', { name: 'Done' }).click();
    await editor.waitFor({ state: 'detached' });

    // Offer: one branch on to the thank-you video.
    await page.getByRole('button', { name: 'Edit Offer' }).click();
    await editor.locator('.bf-player[data-state="ready"]').waitFor();
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    await panel.getByLabel('Hide at').fill('12');
    await panel.getByLabel('Hide at').press('Enter');
    await panel.getByLabel('Button text').fill('Finish');
    await panel.getByRole('tab', { name: 'Action' }).click();
    await choose(panel, 'Branch to video', 'Thanks');
    await editor.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('root-rule').getByText("Viewers start with 'Intro'").waitFor();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectAlert(page, MESSAGES.funnelSaved);
    await page.getByTestId('saved').waitFor();
    await shot(page, '77-editor-saved');

    // What the server stored is what was built.
    const stored = (await user.http.get(`/api/funnels/${funnelId}`, user.token)).body.data as SavedFunnel;
    expect(stored.videos).toHaveLength(3);
    const [intro, offer, thanks] = stored.videos;
    const text = intro!.elements.find((e) => e.type === 'text')!;
    expect(text.data).toMatchObject({ title: 'Welcome to the webinar', fontFamily: 'Roboto', fontThickness: 'bold-italic', fontSize: 2 });
    const branch = intro!.elements.find((e) => e.type === 'branch')!;
    expect(branch).toMatchObject({ showAt: 0, hideAt: 10 });
    expect(branch.data.prompt.text).toBe('Where next?');
    const b = branch.data.branches;
    expect(b.map((x: { name: string }) => x.name)).toEqual(['Branch 1', 'Branch 2', 'Branch 3', 'Branch 4']);
    expect(b[0]).toMatchObject({ onclick: 'branch', video: offer!.editor_id, standard: { text: 'See the offer' } });
    expect(b[1]).toMatchObject({ onclick: 'url', externalLink: 'https://signup.example.test/join' });
    expect(b[2]).toMatchObject({ onclick: 'timestamp', timestamp: { hours: 0, minutes: 0, seconds: 6 } });
    expect(b[3]).toMatchObject({ type: 'image', onclick: 'branch', video: thanks!.editor_id, image: { source: expect.stringMatching(/^\/uploads\//) } });
    expect(branch.data.settings).toMatchObject({ pauseVideo: { enabled: true, duration: 10 }, inaction: b[0].id });
    expect(b[0].standard.position.left).toBeGreaterThan(30);
    expect(offer!.elements[0]!.data.branches[0]).toMatchObject({ onclick: 'branch', video: thanks!.editor_id });

    // A reload shows the same funnel, with nothing unsaved.
    await page.reload();
    await page.getByTestId('funnel-video').nth(2).waitFor();
    await page.getByTestId('saved').waitFor();
    await page.getByTestId('funnel-video').first().getByText('1 text · 1 branch').waitFor();
    const again = (await user.http.get(`/api/funnels/${funnelId}`, user.token)).body.data as SavedFunnel;
    expect(again.videos).toEqual(stored.videos);

    // Played on /player: each branch does what it was built to do (a choice ends its element, so each starts afresh).
    const player = await context.newPage();
    const fresh = async () => {
      await player.goto(`/player/${stored.identifier}`);
      await until(async () => (await currentEditor(player)) === intro!.editor_id, 'the root video');
      // This browser refuses autoplay without a gesture: the viewer presses play.
      await player.locator('.bf-bigplay').click();
    };
    await fresh();
    await player.getByText('Welcome to the webinar').waitFor();
    await player.locator('.bf-prompt').getByText('Where next?').waitFor();
    await shot(player, '78-player-built-funnel');
    await player.getByRole('button', { name: 'Skip ahead' }).click();
    await until(async () => (await videoTime(player)) >= 5.9, 'the jump to 0:06');

    await fresh();
    await player.getByRole('button', { name: 'Branch 4' }).click();
    await until(async () => (await currentEditor(player)) === thanks!.editor_id, 'the image branch');

    await fresh();
    await context.route('https://signup.example.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Sign up</title>' }));
    const opened = context.waitForEvent('page');
    await player.getByRole('button', { name: 'Sign up' }).click();
    const signup = await opened;
    await until(async () => signup.url().startsWith('https://signup.example.test/join'), 'the sign-up page');

    await fresh();
    await player.getByRole('button', { name: 'See the offer' }).click();
    await until(async () => (await currentEditor(player)) === offer!.editor_id, 'the offer video');
    await player.getByRole('button', { name: 'Finish' }).click();
    await until(async () => (await currentEditor(player)) === thanks!.editor_id, 'the thank-you video');
    await context.close();
  });

  it("holds the creator to the plan's element limits with the spec's messages and an Upgrade Plan way out", async () => {
    const plan = await freePlan(admin, { max_branch_per_funnel: 1 });
    const user = await subscribedUser(admin, plan.id);
    await libraryOf(user, ['First', 'Second']);
    const { page, context } = await signedIn(user);
    await page.getByRole('button', { name: 'Create Funnel' }).click();
    await page.locator('[data-modal="create-funnel"] input[name=title]').fill('Limited funnel');
    await page.locator('[data-modal="create-funnel"]').getByRole('button', { name: 'Create' }).click();
    await waitForPath(page, /^\/funnels\/\d+\/edit$/);
    const funnelId = Number(/\/funnels\/(\d+)\/edit/.exec(page.url())![1]);
    await page.getByRole('button', { name: 'Add videos' }).first().click();
    const picker = page.locator('[data-modal="video-to-funnel"]');
    for (const name of ['First', 'Second']) await picker.getByRole('checkbox', { name: `Select ${name}` }).check();
    await picker.getByRole('button', { name: 'Add selected video' }).click();

    await page.getByRole('button', { name: 'Edit First' }).click();
    const editor = page.locator('[data-modal="funnel-video-editor"]');
    await editor.getByTestId('editor-stage').waitFor();
    const notice = page.locator('[data-modal="quick-notice"]');

    // One branch element per funnel: the second is refused, in this video or another.
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    await editor.getByTestId('element-panel').waitFor();
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    await notice.getByText(MESSAGES.branchLimitReached).waitFor();
    await shot(page, '79-branch-limit');
    await notice.getByRole('button', { name: 'Close', exact: true }).click();
    await notice.waitFor({ state: 'detached' });
    // Duplicating counts too.
    await editor.getByTestId('element-panel').getByRole('button', { name: 'Duplicate', exact: true }).first().click();
    await notice.getByText(MESSAGES.branchLimitReached).waitFor();
    await notice.getByRole('button', { name: 'Close', exact: true }).click();

    // Text elements are held to the same number, counted on their own.
    await editor.getByRole('button', { name: 'Add text element' }).click();
    await editor.getByRole('button', { name: 'Add text element' }).click();
    await notice.getByText(MESSAGES.textLimitReached).waitFor();
    await shot(page, '80-text-limit');
    expect(await editor.getByTestId('timeline-bar').count()).toBe(2);

    // Upgrade Plan: the unsaved work is offered to be saved first, then the plan page opens.
    await notice.getByRole('button', { name: 'Upgrade Plan' }).click();
    const leave = page.locator('[data-modal="unsaved-changes"]');
    await leave.getByText('Leave without saving?').waitFor();
    await shot(page, '81-unsaved-changes');
    await leave.getByRole('button', { name: 'Save and leave' }).click();
    await waitForPath(page, '/settings/select-plan');
    const saved = (await user.http.get(`/api/funnels/${funnelId}`, user.token)).body.data as SavedFunnel;
    expect(saved.videos[0]!.elements.map((e) => e.type).sort()).toEqual(['branch', 'text']);
    await context.close();
  });

  it('opens a funnel of 20 videos × 30 elements and measures time to interactive and the frame rate while dragging (printed, not asserted)', async () => {
    const plan = await freePlan(admin);
    const user = await subscribedUser(admin, plan.id);
    const videos: SavedFunnel['videos'] = [];
    for (let v = 0; v < 20; v += 1) {
      const video = await addVideo(user, { provider: 'generic', url: hostedMediaUrl(`big-${v}`), title: `Chapter ${v + 1}`, duration: 12 });
      const editorId = `chapter-${v}`;
      const elements = Array.from({ length: 30 }, (_, e) =>
        e % 2
          ? textEl(`t-${v}-${e}`, editorId, (e % 12) * 0.9, (e % 12) * 0.9 + 2, `Caption ${e}`)
          : branchEl(`b-${v}-${e}`, editorId, (e % 12) * 0.9, (e % 12) * 0.9 + 3, [
              { id: `b-${v}-${e}-1`, name: 'Branch 1', type: 'standard', onclick: 'branch', video: `chapter-${(v + 1) % 20}`, standard: { text: 'Next' } },
              { id: `b-${v}-${e}-2`, name: 'Branch 2', type: 'standard', onclick: 'url', externalLink: 'https://example.test/', standard: { text: 'Visit' } },
            ]),
      );
      videos.push({ id: video.id, editor_id: editorId, elements });
    }
    const funnel = (await user.http.post('/api/funnels', { title: 'Big funnel', settings: { enable_resume_play: false } }, user.token)).body.data as {
      id: number;
    };
    const put = await user.http.put(`/api/funnels/${funnel.id}`, { title: 'Big funnel', videos }, user.token);
    expect(put.status).toBe(200);

    const { page, context } = await signedIn(user);
    const started = Date.now();
    await page.goto(`/funnels/${funnel.id}/edit`);
    await page.getByTestId('funnel-video').nth(19).waitFor();
    const pageReady = Date.now() - started;
    await page.getByRole('button', { name: 'Edit Chapter 1', exact: true }).click();
    const editor = page.locator('[data-modal="funnel-video-editor"]');
    await editor.getByTestId('timeline-bar').nth(29).waitFor();
    await editor.locator('.bf-player[data-state="ready"]').waitFor();
    const editorReady = Date.now() - started;
    await shot(page, '82-editor-600-elements');

    // Drag a caption across the video while counting the frames the page draws (selected on the timeline, it shows at any time).
    await editor.getByTestId('timeline-bar').filter({ hasText: 'Text: Caption 1' }).first().click();
    const caption = editor.getByRole('button', { name: 'Text element: Caption 1', exact: true });
    const box = (await caption.boundingBox())!;
    await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __counting: boolean };
      w.__frames = [];
      w.__counting = true;
      const tick = (t: number) => {
        w.__frames.push(t);
        if (w.__counting) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.mouse.move(box.x + 10, box.y + 5);
    await page.mouse.down();
    for (let i = 1; i <= 60; i += 1) await page.mouse.move(box.x + 10 + i * 4, box.y + 5 + i * 2);
    await page.mouse.up();
    const frames = await page.evaluate(() => {
      const w = window as unknown as { __frames: number[]; __counting: boolean };
      w.__counting = false;
      return w.__frames;
    });
    const span = (frames[frames.length - 1]! - frames[0]!) / 1000;
    const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
    const fps = (frames.length - 1) / span;
    const worst = Math.max(...gaps);
    const moved = (await caption.boundingBox())!;
    expect(moved.x - box.x).toBeGreaterThan(150);
    process.stdout.write(
      `editor perf: 20 videos × 30 elements: editor page interactive ${pageReady} ms, video editor interactive ${editorReady} ms; ` +
        `dragging: ${fps.toFixed(1)} fps over ${span.toFixed(2)} s, longest frame ${worst.toFixed(0)} ms\n`,
    );
    await context.close();
  });

  it('moves and resizes bars on the timeline, seeks with the playhead, nudges with the keyboard, names save problems where they are, and previews without counting a view', async () => {
    const plan = await freePlan(admin);
    const user = await subscribedUser(admin, plan.id);
    const ids: number[] = [];
    for (const name of ['Alpha', 'Beta'])
      ids.push((await addVideo(user, { provider: 'generic', url: hostedMediaUrl(name.toLowerCase()), title: name, duration: 12 })).id);
    const funnel = (await user.http.post('/api/funnels', { title: 'Timeline funnel' }, user.token)).body.data as { id: number; identifier: string };
    const put = await user.http.put(
      `/api/funnels/${funnel.id}`,
      {
        title: 'Timeline funnel',
        videos: [
          { id: ids[0], editor_id: 'alpha', elements: [textEl('caption', 'alpha', 1, 3, 'Caption')] },
          { id: ids[1], editor_id: 'beta', elements: [] },
        ],
      },
      user.token,
    );
    expect(put.status).toBe(200);
    const { page, context } = await signedIn(user);
    await page.goto(`/funnels/${funnel.id}/edit?video=alpha`);
    const editor = page.locator('[data-modal="funnel-video-editor"]');
    await editor.locator('.bf-player[data-state="ready"]').waitFor();
    const panel = editor.getByTestId('element-panel');
    const bar = editor.getByTestId('timeline-bar').first();
    await bar.click();
    await panel.getByLabel('Show at').waitFor();
    const shownAt = async () => panel.getByLabel('Show at').inputValue();
    const hiddenAt = async () => panel.getByLabel('Hide at').inputValue();
    expect([await shownAt(), await hiddenAt()]).toEqual(['0:01', '0:03']);

    // Dragging the bar keeps its length; dragging its right edge makes it longer.
    let box = (await bar.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 150, box.y + box.height / 2, { steps: 10 });
    await page.mouse.up();
    await until(async () => (await shownAt()) !== '0:01', 'the bar to move');
    const [moved, movedEnd] = [await shownAt(), await hiddenAt()];
    const seconds = (t: string) => t.split(':').reduce((n, p) => n * 60 + Number(p), 0);
    expect(seconds(moved)).toBeGreaterThan(2);
    expect(seconds(movedEnd) - seconds(moved)).toBeCloseTo(2, 0);
    box = (await bar.boundingBox())!;
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width + 120, box.y + box.height / 2, { steps: 10 });
    await page.mouse.up();
    await until(async () => seconds(await hiddenAt()) > seconds(movedEnd) + 1, 'the bar to grow');
    expect(await shownAt()).toBe(moved);
    await shot(page, '83-timeline-moved');

    // Zooming in doubles the ruler's boxes.
    const ruler = editor.getByTestId('timeline-ruler');
    const boxes = await ruler.locator('> div').count();
    await editor.getByRole('button', { name: 'Zoom in' }).click();
    await until(async () => (await ruler.locator('> div').count()) === boxes * 2, 'the zoomed ruler');
    await editor.getByRole('button', { name: 'Zoom out' }).click();

    // The playhead seeks the preview: by keyboard, then by dragging.
    const time = () => editor.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);
    const playhead = editor.getByRole('slider', { name: 'Playhead' });
    await playhead.focus();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
    await until(async () => Math.abs((await time()) - 3) < 0.3, 'the keyboard seek');
    const head = (await playhead.boundingBox())!;
    await page.mouse.move(head.x + head.width / 2, head.y + 40);
    await page.mouse.down();
    await page.mouse.move(head.x + head.width / 2 + 300, head.y + 40, { steps: 10 });
    await page.mouse.up();
    await until(async () => (await time()) > 5, 'the dragged seek');

    // Arrow keys nudge the focused element on the video (Shift: 10 px).
    await editor.getByRole('button', { name: 'Text element: Caption' }).focus();
    const left = Number(await panel.getByLabel('Left (px)').inputValue());
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Shift+ArrowRight');
    await until(async () => Number(await panel.getByLabel('Left (px)').inputValue()) === left + 30, 'the nudge');

    // A branch that opens no URL: the check before saving names it, and Show opens it at the field.
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    await panel.getByRole('tab', { name: 'Action' }).click();
    await choose(panel, 'Click action', 'Open URL');
    await editor.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const problems = page.getByTestId('save-errors');
    await problems.getByText(`Alpha › Branch element › Branch 1 › external link: ${MESSAGES.invalidUrl}`).waitFor();
    await shot(page, '84-save-problems');
    await problems.getByRole('button', { name: 'Show' }).click();
    await panel.getByRole('tab', { name: 'Action', selected: true }).waitFor();
    await panel.getByText(MESSAGES.invalidUrl).waitFor();
    await panel.getByLabel('URL').fill('https://example.test/more');
    await problems.waitFor({ state: 'detached' });
    await editor.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectAlert(page, MESSAGES.funnelSaved);

    // Previews inside the app (the editor's and the funnel's page) never count as views.
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('editor-preview');
    await startPlaying(preview);
    await shot(page, '85-editor-preview');
    await page.goto(`/funnels/${funnel.id}`);
    const own = page.getByTestId('funnel-preview');
    await startPlaying(own);
    // An absence is watched for a while (the wait is the point): a view would be sent at once.
    await page.waitForTimeout(1500);
    const views = await db('branchify_funnel_views').where({ funnel_id: funnel.id }).count({ n: '*' });
    const interactions = await db('branchify_funnel_interactions').where({ funnel_id: funnel.id }).count({ n: '*' });
    expect(Number(views[0]!.n)).toBe(0);
    expect(Number(interactions[0]!.n)).toBe(0);
    await context.close();
  });
});
