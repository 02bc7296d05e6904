#!/usr/bin/env node
// Prints the raw and gzipped size of every JavaScript bundle the build emitted.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../cms/public/build/app/assets');
const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.js')) : [];
if (files.length === 0) {
  console.error(`no bundles in ${dir}: run vite build first`);
  process.exit(1);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let total = 0;
const rows = files
  .map((f) => {
    const buf = fs.readFileSync(path.join(dir, f));
    const gz = zlib.gzipSync(buf, { level: 9 }).length;
    total += gz;
    return { f, raw: buf.length, gz };
  })
  .sort((a, b) => b.gz - a.gz);
for (const r of rows) console.log(`${r.f.padEnd(48)} ${kb(r.raw).padStart(10)}  gzip ${kb(r.gz).padStart(9)}`);
console.log(`${'total'.padEnd(48)} ${''.padStart(10)}  gzip ${kb(total).padStart(9)}`);

// What the first page view downloads: index.html's entry script and the chunks it preloads (its
// static imports). Lazy routes (admin, library, settings and billing) come later, when visited.
const html = fs.readFileSync(path.join(dir, '..', 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="[^"]*\/assets\/([^"/]+\.js)"/g)].map((m) => m[1]);
const initialGz = rows.filter((r) => initial.includes(r.f)).reduce((n, r) => n + r.gz, 0);
console.log(`${'initial load (entry + preloaded chunks)'.padEnd(48)} ${''.padStart(10)}  gzip ${kb(initialGz).padStart(9)}`);
