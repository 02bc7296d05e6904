import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.join(__dirname, '..', '..');
const DEV_MARKER = 'Download the React DevTools';
/** A string only React DOM's production build carries (its minified errors link the decoder). */
const REACT_DOM_MARKER = 'reactjs.org/docs/error-decoder';
const PLAYER_BUILD = path.join(root, 'cms', 'public', 'build', 'player');
/** What the /player page may download before it plays, gzipped. */
const PLAYER_PAGE_BUDGET_KB = 40;

/** Builds a front-end package with NODE_ENV=development into a scratch folder; returns its JS. */
const buildWithDevelopmentEnv = (pkg: string): string => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `bf-${pkg}-`));
  try {
    // The package's own Vite (the workspace root may hold an older one for other tools).
    const vite = path.join(path.dirname(require.resolve('vite/package.json', { paths: [path.join(root, pkg)] })), 'bin', 'vite.js');
    const result = spawnSync(process.execPath, [vite, 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: path.join(root, pkg),
      env: { ...process.env, NODE_ENV: 'development' },
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const files = fs.readdirSync(path.join(out, 'assets')).filter((f) => f.endsWith('.js'));
    return files.map((f) => fs.readFileSync(path.join(out, 'assets', f), 'utf8')).join('\n');
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
};

describe('front-end builds are production builds whatever NODE_ENV says', () => {
  it.each(['player', 'frontend'])('%s ships no development build under NODE_ENV=development', (pkg) => {
    const js = buildWithDevelopmentEnv(pkg);
    expect(js.length).toBeGreaterThan(0);
    expect(js).not.toContain(DEV_MARKER);
  });
});

/**
 * The /player page renders with Preact's React-compatible API, the web app (and its editor's
 * preview of the same components) with React: read from the builds CI makes before the suites.
 */
describe('the player page stays small', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(PLAYER_BUILD, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; isEntry?: boolean; imports?: string[] }
  >;
  // The entry and what it imports statically: what the page runs before it plays (provider SDKs
  // load only for funnels that use them).
  const firstLoad = (): string[] => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      seen.add(key);
      for (const next of manifest[key]!.imports ?? []) visit(next);
    };
    visit(Object.keys(manifest).find((k) => manifest[k]!.isEntry)!);
    return [...seen].map((k) => manifest[k]!.file);
  };

  // Sizes are those of the precompressed copies the server sends (scripts/precompress.js), not of
  // the files: what a browser asking for gzip or brotli receives.
  it(`sends at most ${PLAYER_PAGE_BUDGET_KB} KB of gzipped JavaScript before it plays, with no React DOM in it`, () => {
    const files = firstLoad().map((f) => path.join(PLAYER_BUILD, f));
    const sent = (suffix: string) => files.reduce((sum, file) => sum + fs.statSync(file + suffix).size, 0) / 1024;
    const gzipKb = sent('.gz');
    console.log(
      `/player page JavaScript: ${files.length} file(s), ${gzipKb.toFixed(1)} KB as gzip, ${sent('.br').toFixed(1)} KB as brotli (budget ${PLAYER_PAGE_BUDGET_KB} KB gzip)`,
    );
    expect(gzipKb).toBeLessThanOrEqual(PLAYER_PAGE_BUDGET_KB);
    expect(files.some((file) => fs.readFileSync(file, 'utf8').includes(REACT_DOM_MARKER))).toBe(false);
  });

  it("the web app's bundle still carries React DOM (the editor's preview renders the player with React)", () => {
    const assets = path.join(root, 'cms', 'public', 'build', 'app', 'assets');
    const js = fs.readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(js.some((f) => fs.readFileSync(path.join(assets, f), 'utf8').includes(REACT_DOM_MARKER))).toBe(true);
  });
});
