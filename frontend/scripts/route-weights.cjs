'use strict';
/**
 * What a first visit to each entry route of the web app downloads, read from Vite's build manifest
 * (cms/public/build/app/.vite/manifest.json): index.html's entry and its static imports, then the
 * route's lazy chunks and their static imports. Shared by scripts/report-sizes.mjs and the
 * route-budget unit test, so both print the same figures.
 *
 * Sizes are of the JavaScript files only (CSS and fonts aside), raw, gzip (level 9) and brotli
 * (quality 11, what browsers get); 1 KB = 1024 bytes. Budgets are on the brotli figure.
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const APP_DIR = path.resolve(__dirname, '../../cms/public/build/app');
const KB = 1024;

/** The data layer (react-query), loaded with every page that fetches with it (App.tsx). */
const DATA = 'src/shared/data/QueryScope.tsx';

/**
 * Each entry route: the lazy modules (manifest keys, paths from frontend/) its first render loads,
 * and its brotli budget. /admin holds the 350 KB, the sign-in pages (part of the entry:
 * no lazy module) the 120 KB. A route with a target it has not reached yet gives it as
 * targetKb, its budget holding what was reached. The other budgets are the size when set plus
 * ~8 %, so a regression shows; raise one only with the reason in the commit.
 */
const ENTRY_ROUTES = [
  { route: '/login', modules: [], budgetKb: 120 },
  { route: '/register', modules: [], budgetKb: 120 },
  { route: '/funnels', modules: [DATA, 'src/creator/layout/UserLayout.tsx', 'src/creator/funnels/FunnelsDashboard.tsx'], budgetKb: 245 },
  { route: '/funnels/:id/edit', modules: [DATA, 'src/creator/layout/UserLayout.tsx', 'src/creator/editor/EditorPage.tsx'], budgetKb: 285 },
  // The analytics page is where the charts, the date-range picker and the funnel map load (the
  // map labels conditional branches, and the shared schemas it reads carry the condition language).
  { route: '/funnels/:id/analytics', modules: [DATA, 'src/creator/layout/UserLayout.tsx', 'src/creator/analytics/AnalyticsPage.tsx'], budgetKb: 405 },
  { route: '/library', modules: [DATA, 'src/creator/layout/UserLayout.tsx', 'src/creator/library/LibraryPage.tsx'], budgetKb: 255 },
  { route: '/settings', modules: [DATA, 'src/creator/layout/UserLayout.tsx', 'src/creator/settings/SettingsPage.tsx'], budgetKb: 228 },
  // The panel's first screen is the users list (react-admin opens the first resource).
  { route: '/admin', modules: [DATA, 'src/admin/AdminApp.tsx', 'src/admin/users/UserList.tsx'], budgetKb: 350 },
];

/**
 * Lazy modules the build puts in a named chunk of several, so the manifest has no key of their own:
 * the panel's module is in its first-screen chunk (scripts/admin-chunk.ts).
 */
const JOINED = { 'src/admin/AdminApp.tsx': 'admin' };

/** The manifest key of a module, or of the named chunk it joined. */
const keyOf = (manifest, key) => {
  if (manifest[key] || !(key in JOINED)) return key;
  return Object.keys(manifest).find((k) => manifest[k].name === JOINED[key] && !manifest[k].src) ?? key;
};

/** The build manifest; throws when the web app has not been built with it. */
const readManifest = (appDir = APP_DIR) => {
  const file = path.join(appDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`no build manifest at ${file}: run the web app's build (npm run build -w @branchify/frontend)`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
};

/** The manifest keys the given keys load before running: themselves and their static imports, transitively. */
const staticClosure = (manifest, keys) => {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest (renamed or no longer lazy?)`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(keyOf(manifest, key));
  return seen;
};

/** The import cycles between chunks (a chunk read before the chunk it needs has run breaks the page), as `a -> b -> a`. */
const chunkCycles = (manifest) => {
  const done = new Set();
  const cycles = [];
  const visit = (key, path) => {
    if (path.includes(key)) return void cycles.push([...path.slice(path.indexOf(key)), key].join(' -> '));
    if (done.has(key)) return;
    for (const dep of manifest[key]?.imports ?? []) visit(dep, [...path, key]);
    done.add(key);
  };
  for (const key of Object.keys(manifest)) visit(key, []);
  return cycles;
};

/** The JavaScript files (paths under the app folder) of a set of manifest keys, sorted. */
const jsFiles = (manifest, keys) => [...new Set([...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')))].sort();

const sizeCache = new Map();
/** Raw, gzip and brotli sizes of one built file, in bytes. */
const fileSizes = (appDir, file) => {
  const full = path.join(appDir, file);
  let sizes = sizeCache.get(full);
  if (!sizes) {
    const buf = fs.readFileSync(full);
    sizes = {
      raw: buf.length,
      gzip: zlib.gzipSync(buf, { level: 9 }).length,
      brotli: zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    };
    sizeCache.set(full, sizes);
  }
  return sizes;
};

/** Summed sizes of files. */
const sumSizes = (appDir, files) =>
  files.reduce(
    (acc, f) => {
      const s = fileSizes(appDir, f);
      return { raw: acc.raw + s.raw, gzip: acc.gzip + s.gzip, brotli: acc.brotli + s.brotli };
    },
    { raw: 0, gzip: 0, brotli: 0 },
  );

/** Each entry route's first-visit JavaScript: its files and their summed sizes, with its budget. */
const routeWeights = (appDir = APP_DIR, manifest = readManifest(appDir)) =>
  ENTRY_ROUTES.map(({ route, modules, budgetKb, targetKb }) => {
    const files = jsFiles(manifest, staticClosure(manifest, ['index.html', ...modules]));
    return { route, modules, files, budgetKb, targetKb, ...sumSizes(appDir, files) };
  });

/** index.html's entry script and the chunks it modulepreloads (paths under the app folder). */
const indexHtmlScripts = (appDir = APP_DIR) => {
  const html = fs.readFileSync(path.join(appDir, 'index.html'), 'utf8');
  const under = (href) => href.replace(/^.*?\/build\/app\//, '');
  const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => under(m[1]));
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => under(m[1]));
  return { entry, preloads };
};

/** The chunks the entry statically imports (what index.html may preload), without the entry itself. */
const entryStaticImports = (manifest) => jsFiles(manifest, staticClosure(manifest, ['index.html'])).filter((f) => f !== manifest['index.html'].file);

const kb = (bytes) => (bytes / KB).toFixed(1);

/** The per-route table, one line per route, as printed by report-sizes and the test. */
const formatRouteTable = (rows) => {
  const head = `${'route'.padEnd(24)} ${'files'.padStart(5)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)} ${'br KB'.padStart(8)} ${'budget'.padStart(7)} ${'target'.padStart(7)}`;
  const lines = rows.map(
    (r) =>
      `${r.route.padEnd(24)} ${String(r.files.length).padStart(5)} ${kb(r.raw).padStart(8)} ${kb(r.gzip).padStart(8)} ${kb(r.brotli).padStart(8)} ${String(r.budgetKb).padStart(7)} ${String(r.targetKb ?? r.budgetKb).padStart(7)}${r.brotli > r.budgetKb * KB ? '  OVER BUDGET' : ''}`,
  );
  return [head, ...lines].join('\n');
};

module.exports = {
  APP_DIR,
  KB,
  ENTRY_ROUTES,
  readManifest,
  keyOf,
  staticClosure,
  chunkCycles,
  jsFiles,
  fileSizes,
  routeWeights,
  indexHtmlScripts,
  entryStaticImports,
  formatRouteTable,
};
