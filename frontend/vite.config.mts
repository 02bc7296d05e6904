import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The creator/admin single-page app. Built into cms/public/build/app/ and served by Strapi under
 * /build/app/ (plugins/branchify/server/src/middlewares/spa.ts answers every other browser
 * navigation with its index.html). The player builds next to it into build/player/, so only our
 * own folder is emptied.
 */
export default defineConfig({
  base: '/build/app/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../cms/public/build/app', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: { '/api': 'http://localhost:1337' },
  },
});
