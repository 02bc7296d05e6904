import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';

const BLOCK = 4096;
let block = -1;
let used = BLOCK;

/** Claims the next free block of addresses in this run (mkdir is atomic across workers). */
const claimBlock = (): number => {
  const dir = process.env.BRANCHIFY_TEST_IP_DIR;
  if (!dir) return Math.floor(Math.random() * 3000);
  for (let n = block + 1; ; n += 1) {
    try {
      fs.mkdirSync(path.join(dir, String(n)));
      return n;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
};

/**
 * A fresh client address for each caller (the suites run as if behind one proxy hop), never one
 * another suite of the run used: a repeated address shares its rate-limit budget. Each suite
 * claims blocks of 4,096 addresses from a directory the run's setup made (a suite's module state
 * starts afresh, and workers run side by side).
 */
export const newIp = (): string => {
  if (used === BLOCK) {
    block = claimBlock();
    used = 0;
  }
  const n = block * BLOCK + used;
  used += 1;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

export const baseUrl = (): string => {
  const url = process.env.BRANCHIFY_TEST_URL;
  if (!url) throw new Error('BRANCHIFY_TEST_URL is not set: run the suites through tests/run-tests.js');
  return url;
};

export interface Client {
  ip: string;
  get(path: string, token?: string): request.Test;
  post(path: string, body?: object, token?: string): request.Test;
  /** A POST with no body yet, to `.attach()` files to (multipart). */
  upload(path: string, token?: string): request.Test;
  put(path: string, body?: object, token?: string): request.Test;
  delete(path: string, token?: string): request.Test;
}

/** An HTTP client speaking to the real server from one client address. */
export const client = (ip: string = newIp()): Client => {
  const prepare = (test: request.Test, token?: string) => {
    test.set('X-Forwarded-For', ip).set('Accept', 'application/json');
    if (token) test.set('Authorization', `Bearer ${token}`);
    return test;
  };
  return {
    ip,
    get: (path, token) => prepare(request(baseUrl()).get(path), token),
    post: (path, body, token) => prepare(request(baseUrl()).post(path), token).send(body ?? {}),
    upload: (path, token) => prepare(request(baseUrl()).post(path), token),
    put: (path, body, token) => prepare(request(baseUrl()).put(path), token).send(body ?? {}),
    delete: (path, token) => prepare(request(baseUrl()).delete(path), token),
  };
};

/** The refresh cookie a response set (name=value), for the next request's Cookie header. */
export const refreshCookie = (res: request.Response): string | undefined => {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = raw?.find((c) => c.startsWith('branchify_refresh='));
  return cookie?.split(';')[0];
};
