import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';

/** The bundled sample clip (a 12 s, 320×180 VP8 test pattern, ~100 KB). */
const SAMPLE_VIDEO = path.resolve(__dirname, '..', '..', '..', 'database', 'seed', 'sample.webm');

export interface MediaServer {
  /** A distinct URL per name (every name serves the sample clip). */
  url(name: string): string;
  close(): Promise<void>;
}

/**
 * A small static server for the sample video with HTTP Range support (what a CDN does, and what
 * the browser needs to seek), standing in for the direct video URL of a generic-provider video.
 * It sends no CORS headers: pages may play its clips but not read their pixels.
 */
export const startMediaServer = async (): Promise<MediaServer> => {
  const bytes = fs.readFileSync(SAMPLE_VIDEO);
  const server = http.createServer((req, res) => {
    const size = bytes.length;
    const headers = { 'Content-Type': 'video/webm', 'Accept-Ranges': 'bytes', 'Cache-Control': 'public, max-age=3600' };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start >= size || start > end) {
        res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
        return;
      }
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}`, 'Content-Length': end - start + 1 });
      res.end(req.method === 'HEAD' ? undefined : bytes.subarray(start, end + 1));
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': size });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${encodeURIComponent(name)}.webm`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** The sample clip's address on the stand-in media host that `routeMediaHost` answers. */
export const hostedMediaUrl = (name: string) => `https://media.example.test/${name}.webm`;

/** The same clip over plain http (a direct URL the library accepts as well). */
export const plainHttpMediaUrl = (name: string) => `http://media.example.test/${name}.webm`;

/**
 * Answers http(s)://media.example.test/* in a browser context with the sample clip, with byte
 * ranges as a media host serves it (the browser seeks with ranges; the app's CSP allows https media),
 * and with CORS open to every origin, as public video CDNs answer: pages may read its frames.
 */
export const routeMediaHost = async (context: BrowserContext) => {
  const bytes = fs.readFileSync(SAMPLE_VIDEO);
  await context.route(/^https?:\/\/media\.example\.test\//, (route) => {
    const range = /^bytes=(\d+)-(\d*)$/.exec(route.request().headers().range ?? '');
    const headers = { 'Accept-Ranges': 'bytes', 'Content-Type': 'video/webm', 'Access-Control-Allow-Origin': '*' };
    if (!range) return route.fulfill({ status: 200, headers, body: bytes });
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
    return route.fulfill({
      status: 206,
      headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${bytes.length}` },
      body: bytes.subarray(start, end + 1),
    });
  });
};

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Chromium's own console lines when a page may not read a clip served without CORS (its CORS
 * notice and the failed load): the browser reports them itself and no page can silence them.
 */
export const unreadableClipLines = (clip: string): RegExp =>
  new RegExp(`Access to video at '${escapeRegExp(clip)}' .*blocked by CORS policy|net::ERR_FAILED \\(${escapeRegExp(clip)}`);
