import fs from 'node:fs';

/**
 * Counts the security suites report (routes, roles, cells, fuzz cases, findings); the runner
 * (run-tests.js) adds them up into one summary line after the run.
 */
export const record = (name: string, count: number): void => {
  const file = process.env.BRANCHIFY_SECURITY_COUNTS;
  if (file) fs.appendFileSync(file, `${JSON.stringify({ name, count })}\n`);
};
