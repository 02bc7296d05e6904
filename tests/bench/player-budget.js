#!/usr/bin/env node
'use strict';
/**
 * The player's budget, on a generic-video funnel:
 *
 *   1. gzipped JavaScript the /player page loads (target <= 40 KB);
 *   2. navigation -> first video frame in headless Chromium on localhost (median of N loads);
 *   3. branch click -> the next video's first frame (generic provider, median of N);
 *   4. Lighthouse's performance score (desktop, unthrottled; LIGHTHOUSE_PATH overrides the dev
 *      dependency). The mobile-preset figures of every page are `npm run bench:lighthouse`.
 *
 * The player marks `branchify:first-frame`, `branchify:branch-click` and `branchify:branch-frame`
 * with performance.mark; this script reads them. Prints figures; asserts nothing about time.
 * Needs the player built (cd player && npx vite build) and Debian's Chromium (/usr/bin/chromium).
 *
 *   node tests/bench/player-budget.js [--runs N]
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { chromium } = require('playwright-core');
const { ROOT, withDatabase, startServer, jsonClient, startMediaServer, median } = require('./lib');
const { CHROMIUM, CHROMIUM_FLAGS } = require('../harness/chromium');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('runs', 5);
const PORT = 1900 + Math.floor(Math.random() * 500);
const BUDGET_KB = 40;
const ARGS = [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required'];

async function seed(json, media) {
  const admin = { first_name: 'Bench', last_name: 'Admin', email: 'bench-player@example.test', password: 'bench-password-1' };
  const { access_token: token } = await json('POST', '/api/auth/register', { ...admin, password_confirmation: admin.password });
  const a = await json('POST', '/api/videos', { provider: 'generic', url: media.url('intro'), title: 'Intro' }, token);
  const b = await json('POST', '/api/videos', { provider: 'generic', url: media.url('next'), title: 'Next' }, token);
  const funnel = await json('POST', '/api/funnels', { title: 'Budget funnel', settings: { enable_resume_play: false } }, token);
  const branch = (id, from, to, text) => ({
    id,
    type: 'branch',
    belongsTo: from,
    showAt: 0,
    hideAt: 11,
    position: { top: 150, left: 40 },
    player: { width: 640, height: 360 },
    data: { branches: [{ id: `${id}-b`, onclick: 'branch', video: to, standard: { text } }], prompt: { text: 'Where next?' } },
  });
  await json(
    'PUT',
    `/api/funnels/${funnel.id}`,
    {
      title: 'Budget funnel',
      settings: { enable_resume_play: false },
      videos: [
        {
          id: a.id,
          editor_id: 'intro',
          elements: [
            branch('e1', 'intro', 'next', 'Continue'),
            { id: 't1', type: 'text', belongsTo: 'intro', showAt: 0, hideAt: 5, data: { title: 'Welcome' } },
          ],
        },
        { id: b.id, editor_id: 'next', elements: [branch('e2', 'next', 'intro', 'Back')] },
      ],
    },
    token,
  );
  return funnel.identifier;
}

const markTime = (page, name) =>
  page.evaluate(
    (n) =>
      new Promise((resolve) => {
        const find = () => performance.getEntriesByName(`branchify:${n}`).at(-1)?.startTime;
        const poll = () => (find() !== undefined ? resolve(find()) : setTimeout(poll, 20));
        poll();
      }),
    name,
  );

async function measure(browser, url) {
  const context = await browser.newContext({ viewport: { width: 960, height: 540 } });
  const page = await context.newPage();
  const scripts = new Map();
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') scripts.set(res.url(), await res.body().catch(() => Buffer.alloc(0)));
  });
  await page.goto(url);
  const firstFrame = await Promise.race([markTime(page, 'first-frame'), page.waitForTimeout(20_000).then(() => NaN)]);
  // Let the branch target warm as it would while a viewer watches, then choose.
  await page.waitForTimeout(1500);
  await page.getByRole('button', { name: 'Continue' }).click();
  const [click, frame] = await Promise.race([
    Promise.all([markTime(page, 'branch-click'), markTime(page, 'branch-frame')]),
    page.waitForTimeout(20_000).then(() => [NaN, NaN]),
  ]);
  await page.waitForTimeout(300);
  await context.close();
  return { firstFrame, branch: frame - click, scripts };
}

async function lighthouseScore(url) {
  let lighthouse;
  try {
    const entry = process.env.LIGHTHOUSE_PATH || require.resolve('lighthouse', { paths: [ROOT, __dirname] });
    lighthouse = (await import(entry.startsWith('/') ? `file://${entry}` : entry)).default;
  } catch {
    return { skipped: 'Lighthouse is not installed (npm install, or set LIGHTHOUSE_PATH to its core/index.js)' };
  }
  const chrome = await chromium.launch({ executablePath: CHROMIUM, args: [...ARGS, '--remote-debugging-port=9333'] });
  try {
    const result = await lighthouse(url, {
      port: 9333,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      formFactor: 'desktop',
      screenEmulation: { disabled: true },
      throttlingMethod: 'provided',
    });
    return { score: Math.round((result?.lhr?.categories?.performance?.score ?? NaN) * 100), lhr: result?.lhr };
  } catch (error) {
    return { skipped: `Lighthouse failed: ${error.message}` };
  } finally {
    await chrome.close();
  }
}

(async () => {
  if (!fs.existsSync(path.join(ROOT, 'cms', 'public', 'build', 'player', '.vite', 'manifest.json'))) {
    throw new Error('The player is not built: run `cd player && npx vite build` first.');
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const media = await startMediaServer();
  try {
    await withDatabase(async (dbEnv, dir) => {
      const server = await startServer({ dbEnv, dir, port: PORT });
      try {
        const reference = await seed(jsonClient(server.base), media);
        const url = `${server.base}/player/${reference}`;
        const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
        const runs = [];
        try {
          await measure(browser, url); // warm the server's caches and the OS file cache
          for (let i = 0; i < RUNS; i += 1) runs.push(await measure(browser, url));
        } finally {
          await browser.close();
        }
        const scripts = runs[0].scripts;
        let raw = 0;
        let gz = 0;
        const rows = [];
        for (const [src, body] of scripts) {
          const size = zlib.gzipSync(body, { level: 9 }).length;
          raw += body.length;
          gz += size;
          rows.push(`  ${new URL(src).pathname}  ${(body.length / 1024).toFixed(1)} KB raw, ${(size / 1024).toFixed(1)} KB gzip`);
        }
        console.log(`player budget: generic-video funnel, ${RUNS} runs, headless Chromium (${CHROMIUM}), localhost`);
        console.log(rows.join('\n'));
        console.log(
          `player JS loaded: ${(gz / 1024).toFixed(1)} KB gzipped (${(raw / 1024).toFixed(1)} KB raw, ${scripts.size} file(s)) (target <= ${BUDGET_KB} KB)`,
        );
        const ff = runs.map((r) => r.firstFrame);
        const br = runs.map((r) => r.branch);
        console.log(`navigation -> first video frame: median ${median(ff).toFixed(0)} ms (runs: ${ff.map((v) => v.toFixed(0)).join(', ')})`);
        console.log(`branch click -> next video's first frame: median ${median(br).toFixed(0)} ms (runs: ${br.map((v) => v.toFixed(0)).join(', ')})`);
        const lh = await lighthouseScore(url);
        console.log(lh.skipped ? `lighthouse: skipped — ${lh.skipped}` : `lighthouse performance score: ${lh.score} (desktop, no throttling, localhost)`);
        if (gz / 1024 > BUDGET_KB) process.exitCode = 1;
      } finally {
        await server.stop();
      }
    });
  } finally {
    await media.close();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
