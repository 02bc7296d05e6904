import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { APP_VERSION, MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { z } from 'zod';
import { AppError, badGateway, validationError } from '../http/errors';

/**
 * The update feed protocol (docs/api.md "Update feed"): POST <UPDATE_FEED_URL> with
 * `{ license_key, current_version, app }` answers `{ version, package_url, sha256, signature }`;
 * `signature` is the base64 Ed25519 signature of `signedMessage(version, sha256)` made with the
 * vendor's private key. The package is fetched from `package_url` with the license key in the
 * `X-License-Key` header.
 */
export interface FeedRelease {
  version: string;
  package_url: string;
  sha256: string;
  signature: string;
}

export const VERSION_PATTERN = /^\d{1,6}\.\d{1,6}\.\d{1,6}$/;

const releaseSchema = z.object({
  version: z.string().regex(VERSION_PATTERN),
  package_url: z.string().min(1).max(2000),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/i)
    .transform((v) => v.toLowerCase()),
  signature: z.string().min(1).max(200),
});

export const signedMessage = (version: string, sha256: string): Buffer => Buffer.from(`branchify-update:${version}:${sha256.toLowerCase()}`, 'utf8');

/** Compares x.y.z versions numerically: negative, zero or positive. */
export const compareVersions = (a: string, b: string): number => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};

/** Ed25519 public key from PEM, or base64 of the raw 32 bytes or of the SPKI DER. */
export const parsePublicKey = (value: string): crypto.KeyObject => {
  const text = value.trim();
  if (text.includes('BEGIN')) return crypto.createPublicKey(text.replace(/\\n/g, '\n'));
  const bytes = Buffer.from(text, 'base64');
  const der = bytes.length === 32 ? Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), bytes]) : bytes;
  return crypto.createPublicKey({ key: der, format: 'der', type: 'spki' });
};

/** http is accepted only on this machine (a local mirror or a test feed); anywhere else, https. */
export const feedUrlAllowed = (value: string): boolean => {
  try {
    const url = new URL(value);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(url.hostname));
  } catch {
    return false;
  }
};

/**
 * The package URL the feed announced, resolved against the feed and pinned to the feed's own
 * origin (the signature covers the version and hash, not the URL, and the license key goes along).
 */
export const packageUrlFor = (feedUrl: string, packageUrl: string): string | null => {
  try {
    const url = new URL(packageUrl, feedUrl);
    return url.origin === new URL(feedUrl).origin ? url.toString() : null;
  } catch {
    return null;
  }
};

export const feedConfigured = (): boolean => Boolean(env().UPDATE_FEED_URL && env().UPDATE_PUBLIC_KEY);

const unavailable = () => badGateway(MESSAGES.updateFeedUnavailable);

/** Verifies that the vendor signed exactly this version and package hash. */
export const signatureValid = (release: Pick<FeedRelease, 'version' | 'sha256' | 'signature'>): boolean => {
  try {
    const key = parsePublicKey(env().UPDATE_PUBLIC_KEY!);
    return crypto.verify(null, signedMessage(release.version, release.sha256), key, Buffer.from(release.signature, 'base64'));
  } catch {
    return false;
  }
};

/** Asks the feed for the latest release for this license key. */
export const fetchLatest = async (licenseKey: string): Promise<FeedRelease> => {
  const e = env();
  if (!feedUrlAllowed(e.UPDATE_FEED_URL!)) throw unavailable();
  let res: Response;
  try {
    // Redirects are refused: the license key goes to the configured feed and nowhere else.
    res = await fetch(e.UPDATE_FEED_URL!, {
      redirect: 'error',
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ license_key: licenseKey, current_version: APP_VERSION, app: 'branchify' }),
      signal: AbortSignal.timeout(e.UPDATE_TIMEOUT_MS),
    });
  } catch {
    throw unavailable();
  }
  if (res.status === 401 || res.status === 403) throw validationError({ license_key: [MESSAGES.updateFeedRejected] });
  if (!res.ok) throw unavailable();
  const parsed = releaseSchema.safeParse(await res.json().catch(() => null));
  if (!parsed.success) throw unavailable();
  const packageUrl = packageUrlFor(e.UPDATE_FEED_URL!, parsed.data.package_url);
  if (!packageUrl) throw unavailable();
  return { ...parsed.data, package_url: packageUrl };
};

/**
 * Streams the package to `target`, hashing as it goes and stopping at UPDATE_MAX_PACKAGE_MB.
 * Returns the SHA-256 (hex) of what was written.
 */
export const downloadPackage = async (release: FeedRelease, licenseKey: string, target: string): Promise<string> => {
  const e = env();
  let res: Response;
  try {
    res = await fetch(release.package_url, { headers: { 'x-license-key': licenseKey }, redirect: 'error', signal: AbortSignal.timeout(e.UPDATE_TIMEOUT_MS) });
  } catch {
    throw unavailable();
  }
  if (res.status === 401 || res.status === 403) throw validationError({ license_key: [MESSAGES.updateFeedRejected] });
  if (!res.ok || !res.body) throw unavailable();
  const limit = e.UPDATE_MAX_PACKAGE_MB * 1024 * 1024;
  const hash = crypto.createHash('sha256');
  const out = createWriteStream(target, { flags: 'wx', mode: 0o600 });
  let size = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > limit) throw badGateway(MESSAGES.updateVerificationFailed);
      hash.update(chunk);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  } catch (error) {
    out.destroy();
    await fs.rm(target, { force: true });
    throw error instanceof AppError ? error : unavailable();
  }
  return hash.digest('hex');
};

export const sha256File = async (file: string): Promise<string> => {
  const hash = crypto.createHash('sha256');
  const handle = await fs.open(file, 'r');
  try {
    for await (const chunk of handle.createReadStream()) hash.update(chunk as Buffer);
  } finally {
    await handle.close().catch(() => undefined);
  }
  return hash.digest('hex');
};
