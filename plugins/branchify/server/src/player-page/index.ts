import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '@branchify/shared';
import { CMS_DIR, MEDIA_SOURCES } from '@branchify/shared/node';
import type { Context } from 'koa';
import { encodedBody, sendEncoded, type EncodedBody } from '../http/content-coding';
import { noteServed } from '../http/replayed-headers';
import type { PlayerEntry } from '../funnels/player-payload';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { escapeHtml } from './html';
import { previewHead, robotsHeader } from './preview-tags';

/** Where `npx vite build` in player/ writes (player/vite.config.ts). */
const PLAYER_BUILD_DIR = path.join(CMS_DIR, 'public', 'build', 'player');
const MANIFEST = path.join(PLAYER_BUILD_DIR, '.vite', 'manifest.json');
const ENTRY = 'src/page/main.tsx';
const BASE = '/build/player/';

interface PlayerAssets {
  script: string;
  css: string[];
  /** Changes when the bundle changes (part of the page's ETag). */
  version: string;
}

let cached: { mtimeMs: number; assets: PlayerAssets } | null = null;

/** The hashed entry and CSS from Vite's manifest, re-read only when the manifest changes. */
const playerAssets = (): PlayerAssets | null => {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(MANIFEST);
  } catch {
    return null;
  }
  if (cached && cached.mtimeMs === stat.mtimeMs) return cached.assets;
  const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Record<string, { file: string; css?: string[] }>;
  const entry = manifest[ENTRY];
  if (!entry) return null;
  const assets = { script: BASE + entry.file, css: (entry.css ?? []).map((c) => BASE + c), version: entry.file };
  cached = { mtimeMs: stat.mtimeMs, assets };
  return assets;
};

/**
 * JSON that is safe inside a <script> element: `<` (so no `</script>` or `<!--`), `>`, `&` and
 * the two JavaScript line separators are written as \u escapes, which JSON.parse reads back.
 */
const inlineJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** Only http(s) or a root-relative path can be the favicon's href. */
const safeHref = (value: string | null | undefined, fallback: string): string =>
  value && (/^https?:\/\//i.test(value) || /^\/[^/\\]/.test(value)) ? value : fallback;

/**
 * The page may be framed by any site (the share modal's embed code), so this route alone sends
 * `frame-ancestors *` and no X-Frame-Options. The rest of the policy is the player's needs: our own
 * scripts plus the YouTube IFrame API, provider iframes over https, video from any http(s) URL
 * (generic videos; the same media sources as the web app's policy). Stylesheets and fonts come from our origin only (the font catalogue is served
 * under /build/fonts/), so a viewer's visit tells no font host anything; inline styles remain for
 * the elements' positions and colours.
 */
const PLAYER_CSP = [
  "default-src 'self'",
  "script-src 'self' https://www.youtube.com https://s.ytimg.com",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  'img-src * data: blob:',
  `media-src ${MEDIA_SOURCES.join(' ')}`,
  'frame-src https:',
  "connect-src 'self' https:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  'frame-ancestors *',
].join('; ');

const setFrameHeaders = (ctx: Context) => {
  ctx.set('Content-Security-Policy', PLAYER_CSP);
  ctx.remove('X-Frame-Options');
  // The embedding site must not be told which funnel page a viewer came from beyond its origin.
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
};

const page = (title: string, head: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>${escapeHtml(title)}</title>
${head}
</head>
<body>
${body}
</body>
</html>
`;

const messagePage = (ctx: Context, status: number, heading: string, text: string) => {
  setFrameHeaders(ctx);
  ctx.status = status;
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-cache');
  ctx.body = page(
    heading,
    '<style>html,body{margin:0;height:100%}body{font-family:system-ui,sans-serif;display:grid;place-items:center;background:#111;color:#eee;text-align:center;padding:16px}h1{font-size:1.4rem;margin:0 0 .5rem}p{margin:0;color:#bbb}</style>',
    `<main role="main"><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(text)}</p></main>`,
  );
};

/** The id the player looks for to adopt the first video's element (player/src/providers/generic.ts). */
const FIRST_VIDEO_ID = 'branchify-first-video';

/**
 * The root video's `<video>` element in the HTML when it is a direct file: the browser starts
 * fetching it while the page's script downloads (no link preload exists for video), and the player
 * adopts the element. Hidden until then; nothing for embedded providers.
 */
const firstVideoElement = (payload: PlayerEntry['payload']): string => {
  const root = payload.videos.find((v) => v.editor_id === payload.root_editor_id);
  const src = root?.provider === 'generic' ? root.source_url : null;
  if (!root || !src || !/^https?:\/\//i.test(src)) return '';
  const posterUrl = safeHref(root.thumbnail, '');
  const poster = posterUrl ? ` poster="${escapeHtml(posterUrl)}"` : '';
  return (
    `<video id="${FIRST_VIDEO_ID}" data-editor-id="${escapeHtml(root.editor_id)}" src="${escapeHtml(src)}"${poster} preload="auto" ` +
    `playsinline webkit-playsinline disablepictureinpicture disableremoteplayback hidden></video>`
  );
};

/**
 * Each cached payload's page, with its compressed codings made once: the page depends only on the
 * payload and the player build (both in its ETag), so a new payload or build renders anew.
 */
const pages = new WeakMap<PlayerEntry, { build: string; body: EncodedBody }>();

/** The entry's page once a response has rendered it, while the player build is the same. */
export const cachedPage = (entry: PlayerEntry): EncodedBody | null => {
  const page = pages.get(entry);
  return page && page.build === playerAssets()?.version ? page.body : null;
};

/**
 * `GET /player/{reference}`: a small HTML document with the funnel payload inlined (the player
 * needs no second request), the app's name and favicon, and the player bundle from Vite's manifest.
 * Unknown or blocked funnels get a clear page (404), also inside an iframe.
 */
export const renderPlayerPage = async (strapi: Strapi, ctx: Context, reference: string): Promise<void> => {
  const entry = await getService(strapi, 'player-payload').find(reference);
  if (!entry) {
    // Its first sentence heads the page and the rest follows: a screen reader hears the message once.
    const [heading, ...rest] = MESSAGES.funnelUnavailable.split(/(?<=\.)\s+/);
    return messagePage(ctx, 404, heading!, rest.join(' '));
  }
  const assets = playerAssets();
  if (!assets) return messagePage(ctx, 503, MESSAGES.playerLoadFailed, 'The player has not been built on this server (npm run build).');

  const preview = previewHead(entry);
  const etag = `"${crypto.createHash('sha1').update(entry.etag).update(assets.version).update(preview).digest('base64url')}"`;
  setFrameHeaders(ctx);
  const robots = robotsHeader(entry.preview.allowIndexing);
  if (robots) ctx.set('X-Robots-Tag', robots);
  else ctx.remove('X-Robots-Tag');
  ctx.set('Cache-Control', 'public, max-age=0, s-maxage=5, stale-while-revalidate=30');
  ctx.status = 200;
  const cached = pages.get(entry)?.body;
  if (cached?.etag === etag) {
    sendEncoded(ctx, cached, 'html');
    noteServed(ctx, cached);
    return;
  }
  const { payload } = entry;
  const title = payload.title ? `${payload.title} · ${payload.app.name}` : payload.app.name;
  const head = [
    `<meta name="application-name" content="${escapeHtml(payload.app.name)}">`,
    preview,
    `<link rel="icon" href="${escapeHtml(safeHref(payload.app.favicon_url, 'data:,'))}">`,
    ...assets.css.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    `<script type="module" src="${escapeHtml(assets.script)}"></script>`,
  ].join('\n');
  const body = [
    firstVideoElement(payload),
    `<div id="branchify-player"><noscript>${escapeHtml(payload.app.name)}: this video player needs JavaScript.</noscript></div>`,
    `<script id="branchify-funnel" type="application/json">${inlineJson(payload)}</script>`,
  ].join('\n');
  const encoded = encodedBody(page(title, head, body), etag);
  pages.set(entry, { build: assets.version, body: encoded });
  sendEncoded(ctx, encoded, 'html');
  noteServed(ctx, encoded);
};
