import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Variables that must never be committed; generated on first start when absent. */
const SECRET_VARIABLES = ['APP_KEYS', 'API_TOKEN_SALT', 'ADMIN_JWT_SECRET', 'TRANSFER_TOKEN_SALT', 'JWT_SECRET', 'ENCRYPTION_KEY'] as const;

const random = (bytes = 32): string => crypto.randomBytes(bytes).toString('base64');

const generate = (name: (typeof SECRET_VARIABLES)[number]): string =>
  name === 'APP_KEYS' ? [random(16), random(16), random(16), random(16)].join(',') : random();

/** Parses KEY=VALUE lines (no interpolation; values may be quoted). */
const parseEnvFile = (text: string): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq).trim();
    let value = line.slice(eq + 1).trim();
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
      value = value.slice(1, -1);
    }
    out[key] = value;
  }
  return out;
};

/**
 * Loads the env file into `target` (without overriding what is already set) and generates any
 * missing secret into that file, so a fresh install starts without manual setup and restarts keep
 * the same keys (sessions and encrypted settings survive).
 */
export const loadEnvFile = (file: string, target: NodeJS.ProcessEnv = process.env): void => {
  const existing = fs.existsSync(file) ? parseEnvFile(fs.readFileSync(file, 'utf8')) : {};
  for (const [key, value] of Object.entries(existing)) {
    if (target[key] === undefined) target[key] = value;
  }
  const missing = SECRET_VARIABLES.filter((name) => !target[name]);
  if (missing.length === 0) return;
  const lines = missing.map((name) => {
    const value = generate(name);
    target[name] = value;
    return `${name}=${value}`;
  });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const prefix = fs.existsSync(file) && !fs.readFileSync(file, 'utf8').endsWith('\n') ? '\n' : '';
  fs.appendFileSync(file, `${prefix}# generated on first start; keep private\n${lines.join('\n')}\n`, { mode: 0o600 });
};
