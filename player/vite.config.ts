import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Builds the /player page's bundle into the CMS's public folder. Strapi's player-page module reads
 * the manifest to find the hashed entry and its CSS (plugins/branchify/server/src/player-page).
 */
export default defineConfig({
  plugins: [react()],
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
});
