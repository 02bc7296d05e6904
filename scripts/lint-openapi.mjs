#!/usr/bin/env node
/**
 * Lints the integrator API's OpenAPI document, as served, with Redocly's recommended ruleset:
 * prints every problem and exits 1 on any error or warning.
 *
 *   node scripts/lint-openapi.mjs http://localhost:1337/api/branchify/openapi.json
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';

const url = process.argv[2];
if (!url) {
  console.error('Usage: node scripts/lint-openapi.mjs <URL of openapi.json>');
  process.exit(2);
}
const res = await fetch(url);
if (!res.ok) {
  console.error(`${url} answered ${res.status}`);
  process.exit(1);
}
const source = await res.text();
const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({ source, absoluteRef: url, config });
for (const p of problems) {
  const where = p.location?.[0]?.pointer ?? '';
  console.log(`${p.severity} ${p.ruleId} ${where}: ${p.message}`);
}
const errors = problems.filter((p) => p.severity === 'error').length;
const warnings = problems.filter((p) => p.severity === 'warn').length;
console.log(`openapi lint: ${errors} errors, ${warnings} warnings`);
process.exit(errors + warnings > 0 ? 1 : 0);
