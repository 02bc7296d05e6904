import fs from 'node:fs';
import path from 'node:path';
import { openDb } from './db';

/** The update feed of tests/fakes/update-feed, through its control routes. */
export const feed = async <T = { mode: string; version: string; requests: Array<{ method: string; url: string; license_key: string | null }> }>(
  route: string,
  body?: unknown,
): Promise<T> => {
  const res = await fetch(`${process.env.BRANCHIFY_UPDATE_FEED_CONTROL_URL}/${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`feed control ${route}: ${res.status}`);
  return (await res.json()) as T;
};

/**
 * Puts the installation back to "never updated, no license key" (there is no API to forget a
 * key or roll back): the update state row and everything under UPDATES_DIR go, and the feed
 * answers normally again.
 */
export const resetUpdates = async (): Promise<void> => {
  const db = openDb();
  try {
    await db('branchify_update_state').del();
  } finally {
    await db.destroy();
  }
  const dir = process.env.UPDATES_DIR;
  if (dir && fs.existsSync(dir)) for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  await feed('mode', { mode: 'good' });
  await feed('reset', {});
};
