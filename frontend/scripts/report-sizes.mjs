#!/usr/bin/env node
// Prints the size of every JavaScript bundle the build emitted, then what a first visit to each
// entry route downloads (route-weights.cjs, the same figures the route-budget test checks).
import fs from 'node:fs';
import path from 'node:path';
import weights from './route-weights.cjs';

const { APP_DIR, KB, fileSizes, formatRouteTable, routeWeights } = weights;
const dir = path.join(APP_DIR, 'assets');
const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.js')) : [];
if (files.length === 0) {
  console.error(`no bundles in ${dir}: run vite build first`);
  process.exit(1);
}
const kb = (n) => `${(n / KB).toFixed(1)} KB`;
const rows = files.map((f) => ({ f, ...fileSizes(APP_DIR, `assets/${f}`) })).sort((a, b) => b.brotli - a.brotli);
const total = rows.reduce((acc, r) => ({ gzip: acc.gzip + r.gzip, brotli: acc.brotli + r.brotli }), { gzip: 0, brotli: 0 });
for (const r of rows) console.log(`${r.f.padEnd(48)} ${kb(r.raw).padStart(10)}  gzip ${kb(r.gzip).padStart(9)}  br ${kb(r.brotli).padStart(9)}`);
console.log(`${`total (${rows.length} files)`.padEnd(48)} ${''.padStart(10)}  gzip ${kb(total.gzip).padStart(9)}  br ${kb(total.brotli).padStart(9)}`);

console.log('\nFirst visit per entry route (entry + its static imports + the route’s lazy chunks + theirs):');
console.log(formatRouteTable(routeWeights()));
