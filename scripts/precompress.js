#!/usr/bin/env node
'use strict';
/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to each text file of a front-end build, at the
 * best compression each format has, so the server sends them as they are (middlewares/spa.ts)
 * instead of compressing every request. Files under COMPRESS_MIN_BYTES, types that are compressed
 * already (woff2, images, media) and copies that would not be smaller are skipped; a copy whose
 * original is gone is removed. scripts/build.js runs it after the player and web app builds.
 *
 *   node scripts/precompress.js <dir>…      (default: cms/public/build)
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { promisify } = require('node:util');
const { COMPRESS_MIN_BYTES, CONTENT_CODINGS, PRECOMPRESSED_EXTENSIONS } = require('@branchify/shared/node');

const root = path.resolve(__dirname, '..');
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The coding's best compression of `data`. */
const ENCODERS = {
  br: (data) =>
    brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data) => gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
};
const SUFFIXES = CONTENT_CODINGS.map((c) => c.suffix);

/** Every file under `dir`. */
const walk = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : entry.isFile() ? [full] : [];
  });

/** Copies of files that no longer exist are deleted. */
const removeStale = (files) => {
  let removed = 0;
  for (const file of files) {
    const suffix = SUFFIXES.find((s) => file.endsWith(s));
    if (!suffix || fs.existsSync(file.slice(0, -suffix.length))) continue;
    fs.rmSync(file, { force: true });
    removed += 1;
  }
  return removed;
};

/** Runs `task` over `items`, `limit` at a time (zlib works on the libuv pool). */
const pool = async (items, limit, task) => {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
};

/** Precompresses the text files under `dirs`; returns the figures it printed. */
const precompress = async (dirs) => {
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0, removed: 0 };
  const jobs = [];
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    const files = walk(dir);
    totals.removed += removeStale(files);
    for (const file of files) {
      if (SUFFIXES.some((s) => file.endsWith(s))) continue;
      if (!PRECOMPRESSED_EXTENSIONS.includes(path.extname(file).toLowerCase())) continue;
      if (fs.statSync(file).size < COMPRESS_MIN_BYTES) continue;
      jobs.push(file);
    }
  }
  await pool(jobs, 4, async (file) => {
    const data = fs.readFileSync(file);
    totals.files += 1;
    totals.bytes += data.length;
    for (const { coding, suffix } of CONTENT_CODINGS) {
      const encoded = await ENCODERS[coding](data);
      if (encoded.length >= data.length) {
        fs.rmSync(file + suffix, { force: true });
        continue;
      }
      fs.writeFileSync(file + suffix, encoded);
      totals[coding] += encoded.length;
    }
  });
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
  console.log(
    `[precompress] ${totals.files} files, ${kb(totals.bytes)} → brotli ${kb(totals.br)}, gzip ${kb(totals.gzip)}` +
      (totals.removed ? ` (${totals.removed} stale copies removed)` : ''),
  );
  return totals;
};

module.exports = { precompress };

if (require.main === module) {
  const args = process.argv.slice(2);
  const dirs = (args.length ? args : [path.join(root, 'cms', 'public', 'build')]).map((d) => path.resolve(d));
  precompress(dirs).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
