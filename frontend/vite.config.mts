import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, searchForWorkspaceRoot } from 'vite';
import react from '@vitejs/plugin-react';
import { adminFirstScreenChunk, planFile, writeAdminChunkPlan } from './scripts/admin-chunk';

const FRONTEND = fileURLToPath(new URL('./', import.meta.url));

/**
 * The creator/admin single-page app. Built into cms/public/build/app/ and served by Strapi under
 * /build/app/ (plugins/branchify/server/src/middlewares/spa.ts answers every other browser
 * navigation with its index.html). The player builds next to it into build/player/, so only our
 * own folder is emptied.
 *
 * @branchify/player is consumed as TypeScript source from the workspace (its package.json main is
 * src/index.ts): the alias pins it to the sources even without the node_modules link, Vite compiles
 * them (and the player's CSS, imported by its components) like our own, and React is deduplicated
 * so the player's components share the app's React.
 */
export default defineConfig(({ command }) => {
  // A build is always a production build, whatever NODE_ENV the server runs with.
  if (command === 'build') process.env.NODE_ENV = 'production';
  // The first of the two builds (scripts/admin-chunk.ts): Rolldown's own chunks, to plan the panel's.
  const planning = command === 'build' && Boolean(process.env.BRANCHIFY_CHUNK_PLAN);
  return {
    base: '/build/app/',
    plugins: [react(), ...(planning ? [writeAdminChunkPlan(FRONTEND)] : [])],
    resolve: {
      alias: [
        { find: /^@branchify\/player$/, replacement: fileURLToPath(new URL('../player/src/index.ts', import.meta.url)) },
        // The player's captions UI comes with the player here (player/src/captions/load-bundled.ts says why).
        { find: /^\.\.\/captions\/load$/, replacement: fileURLToPath(new URL('../player/src/captions/load-bundled.ts', import.meta.url)) },
      ],
      dedupe: ['react', 'react-dom'],
      // Workspace packages are built from their TypeScript sources (the 'source' export condition).
      conditions: ['source'],
    },
    build: {
      outDir: planning ? path.join(path.dirname(planFile(FRONTEND)), 'plan-build') : fileURLToPath(new URL('../cms/public/build/app', import.meta.url)),
      emptyOutDir: true,
      // .vite/manifest.json: which chunks each route loads (scripts/route-weights.cjs, the route-budget
      // test). The server never serves it (middlewares/spa.ts serves only index.html and assets/).
      manifest: true,
      chunkSizeWarningLimit: 1200,
      rolldownOptions: command === 'build' && !planning ? { output: { codeSplitting: { groups: [adminFirstScreenChunk(FRONTEND)] } } } : {},
    },
    server: {
      proxy: { '/api': 'http://localhost:1337' },
      // The dev server may read the workspace's other packages (player, config sources).
      fs: { allow: [searchForWorkspaceRoot(process.cwd())] },
    },
  };
});
