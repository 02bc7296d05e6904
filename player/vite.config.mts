import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Builds the /player page's bundle into the CMS's public folder. Strapi's player-page module reads
 * the manifest to find the hashed entry and its CSS (plugins/branchify/server/src/player-page).
 */
export default defineConfig(({ command }) => {
  // A build is always a production build, whatever NODE_ENV the server runs with: React's
  // development build is twice the size and talks to the console.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    plugins: [react()],
    resolve: {
      // Workspace packages are built from their TypeScript sources (the 'source' export condition).
      conditions: ['source'],
      // The page renders with Preact's React-compatible API (about 40 KB less script to download than
      // React DOM); the web app's editor preview renders the same components with React itself.
      alias: [
        { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
        { find: /^react-dom$/, replacement: 'preact/compat' },
        { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
        { find: /^react$/, replacement: 'preact/compat' },
      ],
    },
    base: '/build/player/',
    publicDir: false,
    build: {
      outDir: '../cms/public/build/player',
      emptyOutDir: true,
      manifest: true,
      target: 'es2020',
      modulePreload: { polyfill: false },
      rollupOptions: { input: 'src/page/main.tsx' },
    },
  };
});
