import fs from 'node:fs';
import path from 'node:path';
import { FINDINGS, OPEN_FINDINGS } from './findings';
import { record } from './summary';

/** The line of `file` that declares a test whose name contains `name`, if any. */
const declaration = (file: string, name: string): string | undefined => {
  const full = path.join(__dirname, '..', file);
  if (!fs.existsSync(full)) return undefined;
  return fs
    .readFileSync(full, 'utf8')
    .split('\n')
    .find((line) => line.includes(name));
};

describe('security findings', () => {
  it('each finding names tests that exist and run', () => {
    const problems = FINDINGS.flatMap((f) =>
      f.tests.flatMap(({ file, test }) => {
        const line = declaration(file, test);
        if (!line) return [`${f.id}: no test "${test}" in ${file}`];
        if (!/\b(it|test)\(/.test(line)) return [`${f.id}: "${test}" in ${file} is not a test name`];
        if (/\b(it|test|describe)\.(skip|todo|failing)\(|\bx(it|test)\(/.test(line)) return [`${f.id}: "${test}" in ${file} does not run as a plain test`];
        return [];
      }),
    );
    expect(problems).toEqual([]);
    expect(new Set(FINDINGS.map((f) => f.id)).size).toBe(FINDINGS.length);
    record('findings', FINDINGS.length);
  });

  it('each open finding is a failing-first test still marked as failing', () => {
    const problems = OPEN_FINDINGS.flatMap((f) =>
      f.tests.flatMap(({ file, test }) => {
        const line = declaration(file, test);
        return line && /\bit\.failing\(/.test(line) ? [] : [`${f.id}: no it.failing("${test}") in ${file}`];
      }),
    );
    expect(problems).toEqual([]);
    if (OPEN_FINDINGS.length) console.log(`security: ${OPEN_FINDINGS.length} open finding(s): ${OPEN_FINDINGS.map((f) => `${f.id} ${f.finding}`).join('; ')}`);
  });
});
