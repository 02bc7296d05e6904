import { spawn } from 'node:child_process';

export interface ScriptResult {
  /** The exit code; null when the script was killed (the time limit, or a signal). */
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a Node script (the CLI, the seed, a database writer) as a child process, without blocking
 * this one: the suites' Strapi runs in the test process, so a synchronous spawn would freeze it
 * mid-transaction while the child waits for the locks that transaction holds. A hang guard kills
 * the child after `timeoutMs` (its result then says so in `stderr`).
 */
export const runScript = (script: string, args: string[], { env = process.env, timeoutMs = 120_000 }: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}) =>
  new Promise<ScriptResult>((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const guard = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs} ms)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(guard);
      reject(error);
    });
    child.on('close', (status) => {
      clearTimeout(guard);
      resolve({ status, stdout, stderr });
    });
  });
