#!/usr/bin/env node
'use strict';
/**
 * `npm run bench:lighthouse`: Lighthouse's default mobile preset (simulated slow 4G, 4× slower CPU)
 * against Debian's Chromium, as a new user meets the app: Branchify started as `npm start` would
 * (production, built assets) on a fresh database, the first account registered (the admin) and the
 * demo seeded (`npm run seed -- --demo`). Pages, median of N runs each (cold cache every run):
 *
 *   /player/{ref}   the demo funnel
 *   /login          anonymous
 *   /admin          signed in as the admin (the session cookies the sign-in API sets)
 *
 * Prints performance, accessibility, best practices and SEO scores, LCP, TBT, CLS and the JavaScript
 * transferred, then for each page's median run the largest estimated savings and the failing
 * accessibility, best-practice and SEO audits (SEO has no target: the player page is noindex by default).
 * Writes the figures to tests/bench/results/lighthouse.json and each median run's full report to
 * tests/bench/results/lighthouse-<page>.json (open in https://googlechrome.github.io/lighthouse/viewer/).
 *
 *   node tests/bench/lighthouse.js [--runs N] [--pages login,admin] [--check]
 *
 * --pages measures only the pages named (player, login, admin; a leading slash is allowed).
 * --check exits 1 when a page misses its target (performance per page, accessibility and best
 * practices 100 everywhere), naming each miss.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { chromium } = require('playwright-core');
const { ROOT, withDatabase, startServer, median } = require('./lib');
const { CHROMIUM, CHROMIUM_FLAGS: CHROME_FLAGS } = require('../harness/chromium');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('runs', 3);
const CHECK = process.argv.includes('--check');
const PORT = 2400 + Math.floor(Math.random() * 500);
const RESULTS = path.join(__dirname, 'results');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const MAX_RETRIES = 3;
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index', 'interactive'];
const ADMIN = { first_name: 'Bench', last_name: 'Admin', email: 'bench-lighthouse@example.test', password: 'bench-password-1' };

/** The targets a page must meet (scores out of 100). */
const ALL_PAGES = [
  { name: 'player', label: '/player/{ref}', signedIn: false, targets: { performance: 98, accessibility: 100, 'best-practices': 100 } },
  { name: 'login', label: '/login', signedIn: false, targets: { performance: 95, accessibility: 100, 'best-practices': 100 } },
  { name: 'admin', label: '/admin', signedIn: true, targets: { performance: 90, accessibility: 100, 'best-practices': 100 } },
];

/** The pages to measure: all, or those `--pages` names. */
const PAGES = (() => {
  const i = process.argv.indexOf('--pages');
  if (i < 0) return ALL_PAGES;
  const names = String(process.argv[i + 1] ?? '')
    .split(',')
    .map((n) => n.trim().replace(/^\//, ''))
    .filter(Boolean);
  const unknown = names.filter((n) => !ALL_PAGES.some((p) => p.name === n));
  if (names.length === 0 || unknown.length > 0)
    throw new Error(`--pages takes a list of ${ALL_PAGES.map((p) => p.name).join(', ')} (got ${unknown.join(', ') || 'none'})`);
  return ALL_PAGES.filter((p) => names.includes(p.name));
})();

const post = async (base, url, body) => {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return res;
};

/** `npm run seed -- --demo` against the running server's database; resolves with the funnel's address. */
const seedDemo = (env) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'seed.js'), '--demo'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const url = /Demo funnel:\s+(\S+)/.exec(out)?.[1];
      return code === 0 && url ? resolve(url) : reject(new Error(`seed --demo failed (${code}):\n${out}`));
    });
  });

/** The cookies a Set-Cookie list carries, in the shape the browser takes them. */
const browserCookies = (res, base) =>
  res.headers.getSetCookie().map((line) => {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const attr = (name) => attrs.find((a) => a.toLowerCase().startsWith(`${name}=`))?.slice(name.length + 1);
    const expires = attr('expires');
    return {
      name: pair.slice(0, eq),
      value: pair.slice(eq + 1),
      domain: new URL(base).hostname,
      path: attr('path') || '/',
      httpOnly: attrs.some((a) => a.toLowerCase() === 'httponly'),
      secure: false,
      sameSite: 'Lax',
      expires: expires ? Math.floor(Date.parse(expires) / 1000) : -1,
    };
  });

/** Signs the browser's default profile in: Lighthouse opens its tabs there and keeps cookies between runs. */
async function signIn(port, base) {
  const res = await post(base, '/api/auth/login', { email: ADMIN.email, password: ADMIN.password });
  const cookies = browserCookies(res, base);
  if (!cookies.some((c) => c.value)) throw new Error('sign-in set no cookie');
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    await browser.contexts()[0].addCookies(cookies);
  } finally {
    await browser.close();
  }
}

/** One plain load of each page and the files its HTML names, so no run pays for a cold server. */
async function warm(urls) {
  for (const url of urls) {
    const html = await (await fetch(url, { headers: { accept: 'text/html' } })).text();
    const files = [...html.matchAll(/(?:src|href)="(\/build\/[^"]+)"/g)].map((m) => new URL(m[1], url).href);
    await Promise.all(files.map((file) => fetch(file).then((r) => r.arrayBuffer())));
  }
}

const score = (lhr, category) => Math.round((lhr.categories[category]?.score ?? NaN) * 100);
const numeric = (lhr, audit) => lhr.audits[audit]?.numericValue ?? NaN;
const scriptBytes = (lhr) => {
  const row = lhr.audits['resource-summary']?.details?.items?.find((i) => i.resourceType === 'script');
  return { bytes: row?.transferSize ?? NaN, files: row?.requestCount ?? NaN };
};
const figures = (lhr) => ({
  performance: score(lhr, 'performance'),
  accessibility: score(lhr, 'accessibility'),
  'best-practices': score(lhr, 'best-practices'),
  seo: score(lhr, 'seo'),
  lcp_ms: numeric(lhr, 'largest-contentful-paint'),
  tbt_ms: numeric(lhr, 'total-blocking-time'),
  cls: numeric(lhr, 'cumulative-layout-shift'),
  js_bytes: scriptBytes(lhr).bytes,
  js_files: scriptBytes(lhr).files,
});

/** What an audit's details point at: elements (selector and snippet), URLs or messages, a few of each. */
const describeItems = (audit, limit = 4) => {
  const items = audit.details?.items ?? [];
  const out = items.slice(0, limit).map((item) => {
    const node = item.node ?? (item.source?.type === 'node' ? item.source : undefined);
    if (node) return `${node.selector ?? ''} ${node.snippet ?? ''}`.trim();
    if (typeof item.url === 'string') return item.url;
    if (item.source?.url) return `${item.source.url}:${item.source.line ?? ''}`;
    if (typeof item.issueType === 'string') {
      const where = (item.subItems?.items ?? []).map((s) => s.url).filter(Boolean);
      return where.length ? `${item.issueType}: ${where.join(', ')}` : item.issueType;
    }
    if (typeof item.description === 'string') return item.description;
    if (typeof item.groupLabel === 'string') return `${item.groupLabel}: ${Math.round(item.duration)} ms`;
    return JSON.stringify(item).slice(0, 160);
  });
  if (items.length > limit) out.push(`… ${items.length - limit} more`);
  return out;
};

/** The audits a category counts that did not pass, heaviest first. */
const failing = (lhr, category) =>
  lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ audit }) => audit.score !== null && audit.score < 1)
    .sort((a, b) => b.ref.weight - a.ref.weight)
    .map(({ ref, audit }) => ({ id: ref.id, title: audit.title, weight: ref.weight, items: describeItems(audit) }));

/** The performance audits with the largest estimated saving on LCP or TBT, for a first look. */
const opportunities = (lhr, limit = 5) =>
  Object.values(lhr.audits)
    .map((audit) => ({ audit, ms: (audit.metricSavings?.LCP ?? 0) + (audit.metricSavings?.TBT ?? 0), bytes: audit.details?.overallSavingsBytes ?? 0 }))
    .filter(({ audit, ms }) => audit.score !== null && audit.score < 1 && ms > 0)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, limit)
    .map(({ audit, ms, bytes }) => ({ id: audit.id, title: audit.title, savings_ms: Math.round(ms), savings_bytes: bytes, items: describeItems(audit, 3) }));

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
const pad = (s, n) => String(s).padEnd(n);

(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const { default: lighthouse } = await import('lighthouse');
  const { computeMedianRun } = await import('lighthouse/core/lib/median-run.js');
  const { launch } = await import('chrome-launcher');
  const { version } = require('lighthouse/package.json');

  await withDatabase(async (dbEnv, dir) => {
    const server = await startServer({ dbEnv, dir, port: PORT });
    const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
    try {
      // The first account is the administrator; the demo adds its creator and funnel after it.
      await post(server.base, '/api/auth/register', { ...ADMIN, password_confirmation: ADMIN.password });
      const playerUrl = await seedDemo(server.env);
      const urls = { player: playerUrl, login: `${server.base}/login`, admin: `${server.base}/admin` };

      await warm(Object.values(urls));

      const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES };
      const runs = {};
      let signedIn = false;
      for (const page of PAGES) {
        if (page.signedIn && !signedIn) {
          await signIn(chrome.port, server.base);
          signedIn = true;
        }
        runs[page.name] = [];
        // A run whose trace lacks a metric has no performance score: it is run again, a few times at most.
        for (let attempt = 1; runs[page.name].length < RUNS; attempt += 1) {
          if (attempt > RUNS + MAX_RETRIES) throw new Error(`${page.label}: too many runs without a performance score`);
          const result = await lighthouse(urls[page.name], flags);
          if (!result?.lhr) throw new Error(`Lighthouse returned nothing for ${urls[page.name]}`);
          if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${urls[page.name]}: ${result.lhr.runtimeError.message}`);
          // A page that sends the browser elsewhere (to /login: the session was lost) measured the wrong page.
          if (!new URL(result.lhr.finalDisplayedUrl).pathname.startsWith(new URL(urls[page.name]).pathname)) {
            throw new Error(`${urls[page.name]} ended on ${result.lhr.finalDisplayedUrl} (signed in: ${page.signedIn})`);
          }
          if (result.lhr.categories.performance.score === null) {
            const why = METRICS.map((id) => result.lhr.audits[id]?.errorMessage)
              .filter(Boolean)
              .concat(result.lhr.runWarnings);
            process.stdout.write(`  ${page.label}: a run without a performance score, run again (${why.join('; ') || 'no reason given'})\n`);
            continue;
          }
          runs[page.name].push(result.lhr);
          process.stdout.write(`  ${page.label} run ${runs[page.name].length}/${RUNS}: performance ${score(result.lhr, 'performance')}\n`);
        }
      }

      const report = {
        lighthouse: version,
        chromium: ((ua) => /(?:Headless)?Chrome\/[\d.]+/.exec(ua)?.[0] ?? ua)(runs[PAGES[0].name][0].environment.hostUserAgent),
        preset: 'mobile (simulated slow 4G, 4x CPU slowdown)',
        runs: RUNS,
        at: new Date().toISOString(),
        pages: {},
      };
      fs.mkdirSync(RESULTS, { recursive: true });
      for (const page of PAGES) {
        const lhrs = runs[page.name];
        const each = lhrs.map(figures);
        const med = Object.fromEntries(Object.keys(each[0]).map((k) => [k, median(each.map((f) => f[k]))]));
        const medianRun = computeMedianRun(lhrs);
        fs.writeFileSync(path.join(RESULTS, `lighthouse-${page.name}.json`), JSON.stringify(medianRun));
        report.pages[page.label] = {
          url: urls[page.name],
          median: med,
          runs: each,
          targets: page.targets,
          failing: {
            accessibility: failing(medianRun, 'accessibility'),
            'best-practices': failing(medianRun, 'best-practices'),
            seo: failing(medianRun, 'seo'),
          },
          opportunities: opportunities(medianRun),
        };
      }
      fs.writeFileSync(path.join(RESULTS, 'lighthouse.json'), `${JSON.stringify(report, null, 2)}\n`);

      console.log(`\nlighthouse ${version}, ${report.preset}, median of ${RUNS}, ${report.chromium}`);
      const head = ['page', 'perf', 'a11y', 'best pr.', 'seo', 'LCP', 'TBT', 'CLS', 'JS transferred'];
      const widths = [15, 6, 6, 9, 5, 8, 8, 7, 20];
      console.log(head.map((h, i) => pad(h, widths[i])).join(''));
      for (const page of PAGES) {
        const m = report.pages[page.label].median;
        const row = [
          page.label,
          m.performance,
          m.accessibility,
          m['best-practices'],
          m.seo,
          `${(m.lcp_ms / 1000).toFixed(1)} s`,
          `${m.tbt_ms.toFixed(0)} ms`,
          m.cls.toFixed(3),
          `${kb(m.js_bytes)} in ${m.js_files} file${m.js_files === 1 ? '' : 's'}`,
        ];
        console.log(row.map((c, i) => pad(c, widths[i])).join(''));
      }
      for (const page of PAGES) {
        const { opportunities: top } = report.pages[page.label];
        if (top.length) {
          console.log(`\n${page.label} performance, largest estimated savings (LCP + TBT):`);
          for (const o of top) {
            console.log(`  ${o.id} (${o.savings_ms} ms${o.savings_bytes ? `, ${kb(o.savings_bytes)}` : ''}): ${o.title}`);
            for (const item of o.items) console.log(`      ${item}`);
          }
        }
        for (const [category, audits] of Object.entries(report.pages[page.label].failing)) {
          if (!audits.length) continue;
          console.log(`\n${page.label} ${category}, failing audits:`);
          for (const a of audits) {
            console.log(`  ${a.id} (weight ${Number(a.weight.toFixed(1))}): ${a.title}`);
            for (const item of a.items) console.log(`      ${item}`);
          }
        }
      }
      console.log(
        `\nfigures: ${path.relative(ROOT, path.join(RESULTS, 'lighthouse.json'))}; median reports: ${path.relative(ROOT, RESULTS)}/lighthouse-<page>.json`,
      );

      const misses = PAGES.flatMap((page) =>
        Object.entries(page.targets)
          .filter(([category, target]) => !(report.pages[page.label].median[category] >= target))
          .map(([category, target]) => `${page.label} ${category} ${report.pages[page.label].median[category]} < ${target}`),
      );
      if (misses.length) console.log(`\ntargets missed:\n  ${misses.join('\n  ')}`);
      else console.log('\nall targets met');
      if (CHECK && misses.length) process.exitCode = 1;
    } finally {
      await chrome.kill();
      await server.stop();
    }
  });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
