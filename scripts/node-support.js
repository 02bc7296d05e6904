'use strict';
/**
 * Which Node.js lines Branchify supports: the current LTS lines (22 and 24), and 20 only while
 * the machines it runs on still ship it (past end of life since April 2026), with a warning.
 * Used by `npm install` (root preinstall) and `npm start`.
 */
const SUPPORTED = [22, 24];
const END_OF_LIFE = { 20: 'April 2026' };

/** @returns {{ level: 'ok' | 'warn' | 'error', message?: string }} */
function check(version = process.versions.node) {
  const major = Number(version.split('.')[0]);
  if (SUPPORTED.includes(major) || major > SUPPORTED[SUPPORTED.length - 1]) return { level: 'ok' };
  if (END_OF_LIFE[major]) {
    return {
      level: 'warn',
      message:
        `Node.js ${version} is past end of life (${END_OF_LIFE[major]}) and receives no security fixes. ` +
        `Branchify still runs on it; move to Node.js 24 (see .nvmrc) or 22.`,
    };
  }
  return { level: 'error', message: `Node.js ${version} is not supported: use Node.js 24 (see .nvmrc) or 22.` };
}

module.exports = { check, SUPPORTED };

if (require.main === module) {
  const result = check();
  if (result.level !== 'ok') console.warn(`branchify: ${result.message}`);
  if (result.level === 'error') process.exit(1);
}
