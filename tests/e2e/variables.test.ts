import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { addVideo, createFunnel, freePlan, subscribedUser } from '../api/support/content';
import { baseUrl } from '../api/support/http';
import { adminSession, type Session } from '../api/support/users';
import { launch, loginViaUi, openApp, shotAtBothWidths, until, waitForPath } from './support/app';
import { describeBrowser, launchBrowser } from './support/browser';
import { branchEl, publishFunnel, textEl } from './support/funnels';
import { hostedMediaUrl, routeMediaHost, startMediaServer, type MediaServer } from './support/media-server';
import { useApiSuite } from '../api/support/suite';

/**
 * Funnel variables in a real browser: the link greets the viewer (as text, whatever it holds), a
 * branch shows once two answers raised the score, a resumed view keeps the score, and the creator
 * declares a variable and writes a condition whose mistake the editor points at.
 */
const suite = useApiSuite();
let admin: Session;
let owner: Session;
let media: MediaServer;

beforeAll(async () => {
  admin = await adminSession();
  owner = await subscribedUser(admin, (await freePlan(admin)).id);
  media = await startMediaServer();
});
afterAll(async () => {
  await media?.close();
});

const HOSTILE = '<img src=x onerror=alert(1)>';

const currentEditor = (page: Page) => page.locator('.bf-slot.bf-slot-current').getAttribute('data-editor-id');

/** A quiz: a greeting, an answer that raises the score (and plays the question again), a bonus branch from score 2. */
const publishQuiz = () =>
  publishFunnel(owner, { a: media.url('quiz-a'), b: media.url('quiz-b') }, (ids) => ({
    title: 'Quiz',
    settings: { enable_resume_play: true },
    variables: [
      { name: 'name', type: 'text', default: 'friend', fromUrl: true },
      { name: 'score', type: 'number', default: 0, fromUrl: false },
    ],
    videos: [
      {
        id: ids.a,
        editor_id: 'intro',
        elements: [
          textEl('greet', 'intro', 0, 12, 'Hello {{name}}! Score: {{score}}'),
          branchEl(
            'quiz',
            'intro',
            1,
            12,
            [
              {
                id: 'answer',
                name: 'Answer',
                type: 'standard',
                onclick: 'timestamp',
                timestamp: { seconds: 0 },
                set: ['score + 1'],
                standard: { text: 'Right answer' },
              },
              { id: 'bonus', name: 'Bonus', type: 'standard', onclick: 'branch', video: 'second', when: 'score >= 2', standard: { text: 'Bonus round' } },
            ],
            {},
            'Your answer?',
          ),
        ],
      },
      { id: ids.b, editor_id: 'second', elements: [textEl('done', 'second', 0, 12, 'Well done, {{name}}')] },
    ],
  }));

describeBrowser('funnel variables in the player', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (reference: string, query = '') => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    const dialogs: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${baseUrl()}/player/${reference}${query}`);
    return { context, page, errors, dialogs };
  };

  it('greets the viewer by the name in the link, and shows markup in it as text', async () => {
    const { reference } = await publishQuiz();
    const { context, page, errors } = await open(reference, '?name=Ada&score=7');
    const greet = page.locator('[data-element-id="greet"]');
    await greet.waitFor({ state: 'visible', timeout: 15_000 });
    // The link may set the name, not the score.
    expect(await greet.innerText()).toBe('Hello Ada! Score: 0');
    await shotAtBothWidths(page, 'variables-greeting');
    expect(errors).toEqual([]);
    await context.close();

    const hostile = await open(reference, `?name=${encodeURIComponent(HOSTILE)}`);
    const shown = hostile.page.locator('[data-element-id="greet"]');
    await shown.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await shown.innerText()).toBe(`Hello ${HOSTILE}! Score: 0`);
    expect(await shown.locator('img').count()).toBe(0);
    expect(await hostile.page.locator('.bf-overlays img').count()).toBe(0);
    await shotAtBothWidths(hostile.page, 'variables-greeting-markup-as-text');
    // Time for an onerror handler to have run, had the text become markup.
    await hostile.page.waitForTimeout(500);
    expect(hostile.dialogs).toEqual([]);
    expect(hostile.errors).toEqual([]);
    await hostile.context.close();
  });

  it('takes values the embedding page posts (declared ones, typed), and ignores the rest', async () => {
    const { reference } = await publishQuiz();
    // The embedding page, on a site of its own.
    const html = `<!doctype html><html lang="en"><title>Embedding page</title><main><h1>Embedding page</h1><iframe title="Quiz" src="${baseUrl()}/player/${reference}" width="960" height="540"></iframe></main></html>`;
    const site = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(html));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    const frame = page.frameLocator('iframe');
    const greet = frame.locator('[data-element-id="greet"]');
    await greet.waitFor({ state: 'visible', timeout: 15_000 });
    await page.evaluate(() => {
      const target = document.querySelector('iframe')!.contentWindow!;
      target.postMessage({ type: 'branchify:set', variables: { name: 'Grace', score: 'lots', admin: true } }, '*');
      target.postMessage({ type: 'something-else', variables: { name: 'Mallory' } }, '*');
    });
    await until(async () => (await greet.innerText()) === 'Hello Grace! Score: 0', 'the name the page posted');
    await page.evaluate(() => document.querySelector('iframe')!.contentWindow!.postMessage({ type: 'branchify:set', variables: { score: 2 } }, '*'));
    await until(async () => (await greet.innerText()) === 'Hello Grace! Score: 2', 'the score the page posted');
    await frame.getByRole('button', { name: 'Bonus round' }).waitFor({ state: 'visible', timeout: 15_000 });
    await context.close();
    await new Promise((resolve) => site.close(resolve));
  });

  it('shows a branch only after two score-raising answers, and a resumed view keeps the score', async () => {
    const { id: funnelId, reference } = await publishQuiz();
    const { context, page, errors } = await open(reference, '?name=Ada');
    const answer = page.getByRole('button', { name: 'Right answer' });
    const bonus = page.getByRole('button', { name: 'Bonus round' });
    const greet = page.locator('[data-element-id="greet"]');

    await answer.waitFor({ state: 'visible', timeout: 15_000 });
    // Hidden: not drawn, so neither seen nor reachable by keyboard.
    expect(await bonus.count()).toBe(0);
    await answer.focus();
    await page.keyboard.press('Enter');
    await until(async () => (await greet.innerText()) === 'Hello Ada! Score: 1', 'the score raised once');
    await answer.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await bonus.count()).toBe(0);
    await shotAtBothWidths(page, 'variables-one-answer');
    await answer.click();
    await until(async () => (await greet.innerText()) === 'Hello Ada! Score: 2', 'the score raised twice');
    await bonus.waitFor({ state: 'visible', timeout: 10_000 });
    // Reachable by keyboard once shown.
    await answer.focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Bonus round');
    await shotAtBothWidths(page, 'variables-bonus-shown');

    // Leaving and coming back: the score comes back with the position.
    await page.reload();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await until(async () => (await greet.innerText()) === 'Hello Ada! Score: 2', 'the score after resuming');
    await bonus.waitFor({ state: 'visible', timeout: 15_000 });
    await shotAtBothWidths(page, 'variables-resumed');
    await bonus.click();
    await until(async () => (await currentEditor(page)) === 'second', 'the bonus video');
    await page.locator('[data-element-id="done"]').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await page.locator('[data-element-id="done"]').innerText()).toBe('Well done, Ada');
    expect(errors).toEqual([]);

    // The stored view of this funnel holds the values, declared ones only (other tests' funnels have views too).
    const views = await suite.db('branchify_funnel_views').where({ funnel_id: funnelId }).whereNotNull('variables');
    const mine = views.map((v) => (typeof v.variables === 'string' ? JSON.parse(v.variables) : v.variables)).filter((v) => v.score === 2);
    expect(mine[0]).toEqual({ name: 'Ada', score: 2 });
    await context.close();
  });
});

describeBrowser('funnel variables in the editor', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const field = (scope: Locator, label: string) => scope.getByRole('textbox', { name: label, exact: true });

  it('declares a variable and writes a condition; a mistake is described and marked where it is', async () => {
    const user = await subscribedUser(admin, (await freePlan(admin, { max_branch_per_funnel: 20 })).id);
    const video = await addVideo(user, { provider: 'generic', url: hostedMediaUrl('vars-editor'), title: 'Intro' });
    const funnel = await createFunnel(user);
    const saved = await user.http.put(
      `/api/funnels/${funnel.id}`,
      { title: 'Variables', settings: { enable_resume_play: false }, videos: [{ id: video.id, editor_id: 'intro', elements: [] }] },
      user.token,
    );
    expect(saved.status).toBe(200);
    const { page, context } = await openApp(browser);
    await page.setViewportSize({ width: 1440, height: 900 });
    await routeMediaHost(context);
    await loginViaUi(page, user.email, user.password);
    await waitForPath(page, '/funnels');
    await page.goto(`/funnels/${funnel.id}/edit`);

    // The funnel's details: a number variable called score.
    const details = page.getByRole('region', { name: 'Funnel details' });
    await details.getByRole('button', { name: 'Add variable' }).click();
    const variable = details.getByTestId('variable');
    await field(variable, 'Name').fill('score');
    await variable.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Number', exact: true }).click();
    await variable.getByRole('spinbutton', { name: 'Starts at' }).or(field(variable, 'Starts at')).first().waitFor();
    await shotAtBothWidths(page, 'variables-editor-declared');

    // A branch element whose button shows from score 2, and which raises the score.
    await page.getByRole('button', { name: 'Edit Intro' }).click();
    const editor = page.locator('[data-modal="funnel-video-editor"]');
    await editor.getByRole('button', { name: 'Add branch element' }).click();
    const panel = editor.getByTestId('element-panel');
    await panel.getByRole('tab', { name: 'Action' }).click();
    // The button plays the video again (its question again).
    await panel.getByRole('combobox', { name: 'Branch to video' }).click();
    await page.getByRole('option', { name: 'Intro', exact: true }).click();
    const condition = field(panel, 'Show this button only when');
    await condition.fill('score >= ');
    const help = panel.getByText('Condition at character 10: expected a value', { exact: false });
    await help.waitFor();
    expect(await condition.getAttribute('aria-invalid')).toBe('true');
    // The condition's helper text is its description for screen readers.
    const described = await condition.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).innerText()).toContain('expected a value');
    await shotAtBothWidths(page, 'variables-editor-condition-error');

    await condition.fill('score >= 2 and scor < 5');
    await panel.getByText("Condition at character 16: 'scor' is not a variable of this funnel").waitFor();
    await condition.fill('score >= 2');
    await until(async () => (await condition.getAttribute('aria-invalid')) === 'false', 'the condition accepted');
    await field(panel, 'When clicked, set').fill('score + 1');
    await editor.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('saved').waitFor();

    const stored = (await user.http.get(`/api/funnels/${funnel.id}`, user.token)).body.data;
    expect(stored.variables).toEqual([{ name: 'score', type: 'number', default: 0, fromUrl: false }]);
    const branch = stored.videos[0].elements[0].data.branches[0];
    expect([branch.when, branch.set]).toEqual(['score >= 2', ['score + 1']]);

    // The map labels the conditional path.
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.getByRole('region', { name: 'Funnel map' });
    const label = map.getByTestId(`map-edge-condition-branch:intro:${branch.id}`);
    await label.waitFor();
    expect(await label.innerText()).toBe('if score >= 2');
    // Screen readers hear it in the edge's name.
    expect(await map.locator('[aria-label*="(if score >= 2)"]').count()).toBe(1);
    await shotAtBothWidths(page, 'variables-map-conditional-edge');
    await context.close();
  });
});
