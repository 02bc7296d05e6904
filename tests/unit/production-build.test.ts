import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.join(__dirname, '..', '..');
const DEV_MARKER = 'Download the React DevTools';

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
  it.each(['player', 'frontend'])("%s ships React's production build under NODE_ENV=development", (pkg) => {
    const js = buildWithDevelopmentEnv(pkg);
    expect(js.length).toBeGreaterThan(0);
    expect(js).not.toContain(DEV_MARKER);
  });
});
