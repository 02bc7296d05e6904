import fs from 'node:fs';
import path from 'node:path';
import { client } from '../api/support/http';

/** The web app's build metadata (Vite's .vite/manifest.json, read by the route-budget test) is never served. */
describe('build metadata', () => {
  it('answers 404 for anything under /build/app/.vite/, whether or not the file exists', async () => {
    const built = fs.existsSync(path.join(__dirname, '..', '..', 'cms', 'public', 'build', 'app', '.vite', 'manifest.json'));
    for (const url of ['/build/app/.vite/manifest.json', '/build/app/.vite/', '/build/app/%2evite/manifest.json']) {
      const res = await client().get(url);
      expect({ url, built, status: res.status, manifest: /"isEntry"/.test(res.text ?? '') }).toEqual({ url, built, status: 404, manifest: false });
    }
  });
});
