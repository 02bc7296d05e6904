import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { APP_VERSION, MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import * as tar from 'tar';
import { badGateway, conflict, serviceUnavailable, unprocessable, validationError } from '../http/errors';
import { seal, unseal } from '../utils/secret-box';
import { query, UID, writeOnlyRow, type Strapi } from '../utils/strapi';
import { compareVersions, downloadPackage, feedConfigured, fetchLatest, sha256File, signatureValid, VERSION_PATTERN, type FeedRelease } from './feed';
import type { UpdateStateRow } from '../content-types/update-state';

/** What is kept next to a downloaded package, so apply re-verifies it independently. */
interface Sidecar {
  version: string;
  sha256: string;
  signature: string;
}

const LICENSE = 'updates.license-key';
/** The manifest every package carries at its root; its version must be the one the feed signed. */
const MANIFEST = 'package.json';
const KEEP_RELEASES = 3;

const maskLicenseKey = (key: string): string => `****-${key.slice(-4)}`;

const notConfigured = () => serviceUnavailable(MESSAGES.updatesNotConfigured);

const rows = (strapi: Strapi) => query(strapi, UID.updateState);
const row = async (strapi: Strapi): Promise<UpdateStateRow | null> => rows(strapi).findOne({});
const patch = (strapi: Strapi, data: Record<string, unknown>) => writeOnlyRow(rows(strapi), data);
const dir = (...parts: string[]) => path.join(path.resolve(env().UPDATES_DIR), ...parts);

/** The update operation running in this process, if any. */
interface Lock {
  busy: Promise<unknown> | null;
}

/** One update operation at a time in this process (the second caller gets a 409). */
const exclusive = async <T>(lock: Lock, work: () => Promise<T>): Promise<T> => {
  if (lock.busy) throw conflict(MESSAGES.updateInProgress);
  const run = work();
  lock.busy = run;
  try {
    return await run;
  } finally {
    lock.busy = null;
  }
};

const licenseKey = async (strapi: Strapi): Promise<string | null> => {
  const sealed = (await row(strapi))?.license_key_encrypted;
  if (!sealed) return null;
  try {
    return unseal(sealed, LICENSE);
  } catch {
    strapi.log.error('[updates] the stored license key cannot be decrypted (was ENCRYPTION_KEY changed?)');
    return null;
  }
};

/** The version this installation runs (or will run after a restart into `current`). */
const installedVersion = (r: UpdateStateRow | null): string =>
  r?.current_version && VERSION_PATTERN.test(r.current_version) && compareVersions(r.current_version, APP_VERSION) > 0 ? r.current_version : APP_VERSION;

const requireReady = async (strapi: Strapi): Promise<string> => {
  if (!feedConfigured()) throw notConfigured();
  const key = await licenseKey(strapi);
  if (!key) throw validationError({ license_key: [MESSAGES.licenseKeyRequired] });
  return key;
};

const removeDownload = async (r: UpdateStateRow | null) => {
  if (!r?.downloaded_path) return;
  await fs.rm(r.downloaded_path, { force: true });
  await fs.rm(`${r.downloaded_path}.json`, { force: true });
};

const download = async (strapi: Strapi): Promise<Sidecar> => {
  const key = await requireReady(strapi);
  const release: FeedRelease = await fetchLatest(key);
  await patch(strapi, { latest_version: release.version, checked_at: new Date() });
  const state = await row(strapi);
  if (compareVersions(release.version, installedVersion(state)) <= 0) throw conflict(MESSAGES.alreadyUpToDate);
  // The vendor must have signed this version and hash before a byte is downloaded.
  if (!signatureValid(release)) {
    strapi.log.warn(`[updates] feed answered ${release.version} with a signature that does not verify; refused`);
    throw badGateway(MESSAGES.updateVerificationFailed);
  }

  await fs.mkdir(dir('downloads'), { recursive: true });
  const base = dir('downloads', `${release.version}-${crypto.randomBytes(6).toString('hex')}.tar.gz`);
  const partial = `${base}.part`;
  const sha = await downloadPackage(release, key, partial);
  if (sha !== release.sha256) {
    await fs.rm(partial, { force: true });
    strapi.log.warn(`[updates] package ${release.version} does not match the signed SHA-256; discarded`);
    throw badGateway(MESSAGES.updateVerificationFailed);
  }
  const sidecar: Sidecar = { version: release.version, sha256: sha, signature: release.signature };
  await fs.writeFile(`${base}.json`, JSON.stringify(sidecar), { mode: 0o600 });
  await fs.rename(partial, base);
  await removeDownload(state);
  await patch(strapi, { downloaded_version: release.version, downloaded_path: base });
  strapi.log.info(`[updates] downloaded and verified ${release.version}`);
  return sidecar;
};

/** Only plain files and directories, only inside the staging directory. */
const safeEntry = (entryPath: string, entry: { type?: string }) => {
  const type = entry.type ?? 'File';
  if (type !== 'File' && type !== 'OldFile' && type !== 'Directory') return false;
  const normal = path.posix.normalize(entryPath.replace(/\\/g, '/'));
  return !normal.startsWith('/') && !normal.split('/').includes('..');
};

const apply = async (strapi: Strapi): Promise<string> => {
  if (!feedConfigured()) throw notConfigured();
  const state = await row(strapi);
  const file = state?.downloaded_path;
  if (!file || !state.downloaded_version) throw conflict(MESSAGES.updateNotDownloaded);
  let sidecar: Sidecar;
  try {
    sidecar = JSON.parse(await fs.readFile(`${file}.json`, 'utf8')) as Sidecar;
  } catch {
    throw conflict(MESSAGES.updateNotDownloaded);
  }
  // Verified again: the file sat on disk between download and apply.
  if (
    sidecar.version !== state.downloaded_version ||
    !VERSION_PATTERN.test(sidecar.version) ||
    !signatureValid(sidecar) ||
    (await sha256File(file).catch(() => '')) !== sidecar.sha256
  ) {
    await removeDownload(state);
    await patch(strapi, { downloaded_version: null, downloaded_path: null });
    throw badGateway(MESSAGES.updateVerificationFailed);
  }

  const name = `${sidecar.version}-${crypto.randomBytes(6).toString('hex')}`;
  const staging = dir('staging', name);
  await fs.mkdir(staging, { recursive: true });
  try {
    let unsafe = false;
    await tar.x({
      file,
      cwd: staging,
      strict: true,
      preservePaths: false,
      filter: (entryPath, entry) => {
        const ok = safeEntry(entryPath, entry as { type?: string });
        if (!ok) unsafe = true;
        return ok;
      },
    });
    if (unsafe) throw new Error('the package holds links or paths outside its folder');
    const manifest = JSON.parse(await fs.readFile(path.join(staging, MANIFEST), 'utf8')) as { version?: string };
    if (manifest.version !== sidecar.version) throw new Error(`the package says ${manifest.version}, the feed signed ${sidecar.version}`);
  } catch (error) {
    await fs.rm(staging, { recursive: true, force: true });
    strapi.log.error(`[updates] could not stage ${sidecar.version}: ${(error as Error).message}`);
    throw unprocessable(MESSAGES.updateApplyFailed);
  }

  // Complete and checked: move it into place, then switch `current` in one rename.
  await fs.mkdir(dir('releases'), { recursive: true });
  await fs.rename(staging, dir('releases', name));
  const link = dir(`current.${crypto.randomBytes(6).toString('hex')}`);
  await fs.symlink(path.join('releases', name), link, 'dir');
  await fs.rename(link, dir('current'));

  await patch(strapi, { current_version: sidecar.version, applied_at: new Date(), downloaded_version: null, downloaded_path: null });
  await removeDownload(state);
  await pruneReleases(name);
  strapi.log.info(`[updates] applied ${sidecar.version}; restart the application into ${dir('current')}`);
  return sidecar.version;
};

/** Keeps the newest few releases (the previous ones allow a manual roll-back). */
const pruneReleases = async (keep: string) => {
  const entries = await fs.readdir(dir('releases'), { withFileTypes: true }).catch(() => []);
  const named = await Promise.all(
    entries.filter((e) => e.isDirectory() && e.name !== keep).map(async (e) => ({ name: e.name, mtime: (await fs.stat(dir('releases', e.name))).mtimeMs })),
  );
  named.sort((a, b) => b.mtime - a.mtime);
  for (const old of named.slice(KEEP_RELEASES - 1)) await fs.rm(dir('releases', old.name), { recursive: true, force: true });
};

const info = async (strapi: Strapi) => {
  const key = await licenseKey(strapi);
  let state = await row(strapi);
  let checkError: string | null = null;
  if (feedConfigured() && key) {
    try {
      const release = await fetchLatest(key);
      await patch(strapi, { latest_version: release.version, checked_at: new Date() });
      state = await row(strapi);
    } catch (error) {
      checkError = (error as Error).message;
    }
  }
  const installed = installedVersion(state);
  const latest = state?.latest_version && VERSION_PATTERN.test(state.latest_version) ? state.latest_version : null;
  return {
    current_version: APP_VERSION,
    latest_version: latest ?? installed,
    update_available: Boolean(latest && compareVersions(latest, installed) > 0),
    license_key: key ? maskLicenseKey(key) : null,
    update_info: { version: latest ?? installed },
    applied_version: state?.current_version ?? null,
    restart_required: installed !== APP_VERSION,
    downloaded_version: state?.downloaded_version ?? null,
    feed_configured: feedConfigured(),
    checked_at: state?.checked_at ? new Date(state.checked_at).toISOString() : null,
    check_error: checkError,
  };
};

const updateApp = async (strapi: Strapi) => {
  const state = await row(strapi);
  const downloaded = state?.downloaded_version;
  let latest: string | null = null;
  if (feedConfigured()) {
    const key = await requireReady(strapi);
    latest = (await fetchLatest(key)).version;
  }
  if (!downloaded || !latest || downloaded !== latest) await download(strapi);
  return apply(strapi);
};

/**
 * Application updates. Layout under UPDATES_DIR:
 *   downloads/<version>-<rand>.tar.gz (+ .json)  verified packages waiting to be applied
 *   staging/<version>-<rand>/                    a package being unpacked and checked
 *   releases/<version>-<rand>/                   unpacked releases
 *   current -> releases/<version>-<rand>         the switch, replaced by one rename(2)
 * Nothing outside `current` ever points at a half-written tree.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const lock: Lock = { busy: null };

  return {
    info: () => info(strapi),

    async maskedLicenseKey(): Promise<string | null> {
      const key = await licenseKey(strapi);
      return key ? maskLicenseKey(key) : null;
    },

    async isTokenRegistered(): Promise<boolean> {
      return Boolean(await licenseKey(strapi));
    },

    async saveLicenseKey(key: string): Promise<string> {
      await patch(strapi, { license_key_encrypted: seal(key, LICENSE) });
      return maskLicenseKey(key);
    },

    download: () => exclusive(lock, () => download(strapi)),
    apply: () => exclusive(lock, () => apply(strapi)),

    /** Download (unless the latest is already downloaded) and apply. */
    updateApp: () => exclusive(lock, () => updateApp(strapi)),
  };
};
