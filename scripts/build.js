#!/usr/bin/env node
'use strict';
/**
 * `npm run build`: every build step in order, each timed, then the total. Front-end bundles are
 * always production builds (their Vite configs see to it), whatever NODE_ENV says.
 *
 *   node scripts/build.js [step…]     steps: shared, plugin, player, frontend, cms (default: all)
 *
 * The front-end steps end with their output precompressed (scripts/precompress.js).
 */
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const buildDir = (name) => path.join(root, 'cms', 'public', 'build', name);

const STEPS = [
  { name: 'shared', label: 'shared package (@branchify/shared)', args: ['run', 'build', '-w', '@branchify/shared'] },
  { name: 'plugin', label: 'server plugin (branchify)', args: ['run', 'build', '-w', 'branchify'] },
  { name: 'player', label: 'player bundle', args: ['run', 'build', '-w', '@branchify/player'], precompress: [buildDir('player'), buildDir('fonts')] },
  { name: 'frontend', label: 'web app bundle', args: ['run', 'build', '-w', '@branchify/frontend'], precompress: [buildDir('app')] },
  { name: 'cms', label: 'Strapi (TypeScript and the /cms admin)', args: ['run', 'build', '-w', 'cms'] },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !STEPS.some((s) => s.name === w));
if (unknown.length) {
  console.error(`Unknown build step: ${unknown.join(', ')} (steps: ${STEPS.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
const steps = wanted.length ? STEPS.filter((s) => wanted.includes(s.name)) : STEPS;

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const timings = [];
const started = Date.now();
for (const [i, step] of steps.entries()) {
  console.log(`\n[build ${i + 1}/${steps.length}] ${step.label}…`);
  const t0 = Date.now();
  let result = spawnSync(npm, [...step.args, '--silent'], { cwd: root, stdio: 'inherit' });
  if (result.status === 0 && step.precompress) {
    result = spawnSync(process.execPath, [path.join(__dirname, 'precompress.js'), ...step.precompress], { cwd: root, stdio: 'inherit' });
  }
  const took = Date.now() - t0;
  if (result.status !== 0) {
    console.error(`[build] ${step.label} failed after ${seconds(took)}`);
    process.exit(result.status ?? 1);
  }
  timings.push([step.label, took]);
  console.log(`[build ${i + 1}/${steps.length}] ${step.label}: ${seconds(took)}`);
}
console.log('\nBuild times:');
for (const [label, took] of timings) console.log(`  ${label.padEnd(40)} ${seconds(took).padStart(8)}`);
console.log(`  ${'total'.padEnd(40)} ${seconds(Date.now() - started).padStart(8)}`);
