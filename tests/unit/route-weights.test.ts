import {
  APP_DIR,
  ENTRY_ROUTES,
  KB,
  chunkCycles,
  keyOf,
  entryStaticImports,
  formatRouteTable,
  indexHtmlScripts,
  readManifest,
  routeWeights,
} from '../../frontend/scripts/route-weights.cjs';

/**
 * What a first visit to each entry route of the web app downloads (index.html's entry and its
 * static imports, then the route's lazy chunks and theirs), read from the build's manifest: each
 * route stays within its brotli budget, and index.html preloads only what every page runs. The
 * web app must be built (CI builds before the suites); a missing manifest fails.
 */
describe('the web app splits by route', () => {
  const manifest = readManifest();
  const rows = routeWeights(APP_DIR, manifest);

  it('prints each entry route’s first-visit JavaScript (raw, gzip, brotli)', () => {
    console.log(`first-visit JavaScript per entry route (1 KB = 1024 bytes; budget on brotli):\n${formatRouteTable(rows)}`);
    expect(rows.map((r) => r.route)).toEqual(ENTRY_ROUTES.map((r) => r.route));
  });

  it.each(ENTRY_ROUTES.map((r) => [r.route, r.budgetKb] as const))('%s stays within %d KB brotli', (route, budgetKb) => {
    const row = rows.find((r) => r.route === route)!;
    expect({ route, brotliKb: Math.round((row.brotli / KB) * 10) / 10, within: row.brotli <= budgetKb * KB }).toMatchObject({ route, within: true });
  });

  it('no chunk imports itself back through others (a cycle runs a chunk before one it needs)', () => {
    expect(chunkCycles(manifest)).toEqual([]);
  });

  it('what only the admin panel runs before its first screen is one chunk, not dozens of small ones', () => {
    const admin = rows.find((r) => r.route === '/admin')!;
    expect(manifest[keyOf(manifest, 'src/admin/AdminApp.tsx')]!.name).toBe('admin');
    console.log(`/admin first visit: ${admin.files.length} script files (73 before the panel's chunk)`);
    expect(admin.files.length).toBeLessThanOrEqual(70);
  });

  it('index.html modulepreloads exactly the entry’s static imports', () => {
    const { entry, preloads } = indexHtmlScripts();
    expect(entry).toEqual([manifest['index.html'].file]);
    expect([...preloads].sort()).toEqual(entryStaticImports(manifest));
  });

  it('the sign-in pages load none of the creator frame, the admin panel, the editor, the map, the analytics page (charts, date picker), nor their own schemas (zod) before a submit', () => {
    const heavy = [
      'src/creator/layout/UserLayout.tsx',
      'src/admin/AdminApp.tsx',
      'src/creator/editor/EditorPage.tsx',
      'src/creator/map/FunnelMap.tsx',
      'src/creator/analytics/AnalyticsPage.tsx',
      'src/creator/auth/schemas.ts',
    ];
    const heavyFiles = heavy.map((k) => manifest[keyOf(manifest, k)]?.file).filter(Boolean);
    for (const route of ['/login', '/register']) {
      const files = rows.find((r) => r.route === route)!.files;
      expect({ route, heavy: files.filter((f) => heavyFiles.includes(f)) }).toEqual({ route, heavy: [] });
    }
  });
});
