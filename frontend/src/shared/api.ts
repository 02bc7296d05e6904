import { SESSION_HINT_COOKIE, SESSION_MESSAGES } from '@branchify/shared';

/**
 * The one client for the `/api` contract (docs/api.md): same-origin `/api`, the
 * spec's headers, the access token in memory (the refresh token lives in an httpOnly cookie),
 * renewed before it lapses (and once more if the server refuses it anyway), and
 * `Unauthenticated.` sending the user to login.
 */
export type FieldErrors = Record<string, string[]>;

export interface Envelope<T> {
  success: boolean;
  message?: string;
  data: T;
  errors?: FieldErrors;
}

export interface Paged<T> {
  data: T[];
  meta: { total: number; current_page: number; last_page: number; per_page: number };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldErrors = {},
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

let accessToken: string | null = null;
/** When the access token lapses by this browser's clock: its lifetime (the JWT's exp − iat) from receipt. */
let accessLapsesAt: number | null = null;
let onUnauthenticated: (reason: string) => void = () => undefined;

/** Renewed this long before it lapses (the way to the server included). */
const RENEW_MARGIN_MS = 10_000;

/** The token's lifetime in ms from its own claims, or null when it does not say (then a 401 tells). */
const lifetimeOf = (token: string): number | null => {
  try {
    const claims = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown; iat?: unknown };
    return typeof claims.exp === 'number' && typeof claims.iat === 'number' ? (claims.exp - claims.iat) * 1000 : null;
  } catch {
    return null;
  }
};

export const setAccessToken = (token: string | null): void => {
  accessToken = token;
  const lifetime = token ? lifetimeOf(token) : null;
  accessLapsesAt = lifetime === null ? null : Date.now() + lifetime;
};
export const getAccessToken = (): string | null => accessToken;

/**
 * Registered by the session: forget the user and go to UserLogin. `reason` is the server's
 * sentence: 'Unauthenticated.', or why the session ended (a suspended account).
 */
export const setUnauthenticatedHandler = (handler: (reason: string) => void): void => {
  onUnauthenticated = handler;
};

const cookie = (name: string): string | null => {
  const match = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : null;
};

const headers = (json: boolean): Record<string, string> => {
  const h: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
  if (json) h['Content-Type'] = 'application/json';
  const csrf = cookie('XSRF-TOKEN');
  if (csrf) h['X-CSRF-TOKEN'] = csrf;
  if (accessToken) h.Authorization = `Bearer ${accessToken}`;
  return h;
};

export interface RawResult {
  status: number;
  body: Partial<Envelope<unknown>> | null;
  headers: Headers;
}

const send = async (method: string, path: string, body?: unknown): Promise<RawResult> => {
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  let res: Response;
  try {
    res = await fetch(`/api/${path.replace(/^\//, '')}`, {
      method,
      credentials: 'same-origin',
      headers: headers(body !== undefined && !isForm),
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, SESSION_MESSAGES.genericFailure);
  }
  let parsed: Partial<Envelope<unknown>> | null = null;
  try {
    parsed = (await res.json()) as Partial<Envelope<unknown>>;
  } catch {
    parsed = null;
  }
  return { status: res.status, body: parsed, headers: res.headers };
};

/** One refresh at a time: parallel 401s (and two StrictMode effects) share it. */
let refreshing: Promise<RefreshResult | null> | null = null;
/** Why the last refresh was refused, when the server said more than 'Unauthenticated.'. */
let refusal: string | null = null;

/** The answers to a request that mean the session is over. */
const SIGNED_OUT: ReadonlySet<string> = new Set([SESSION_MESSAGES.unauthenticated, SESSION_MESSAGES.accountSuspended]);

/** Whether the server said a session may exist (the refresh cookie itself is out of a script's reach). */
export const mayHaveSession = (): boolean => cookie(SESSION_HINT_COOKIE) === '1';

/** Why the last refresh was refused: a suspended account's sentence, or null. */
export const refreshRefusal = (): string | null => refusal;

export interface RefreshResult {
  access_token: string;
  user: unknown;
}

/** Renews the access token through the refresh cookie; without a session to refresh, asks nothing. */
export const refreshSession = (): Promise<RefreshResult | null> => {
  if (!mayHaveSession()) return Promise.resolve(null);
  refreshing ??= send('POST', 'auth/refresh-token')
    .then((r) => {
      const data = r.body?.data as RefreshResult | undefined;
      if (r.status === 200 && data?.access_token) {
        setAccessToken(data.access_token);
        refusal = null;
        return data;
      }
      const message = r.body?.message;
      refusal = typeof message === 'string' && message !== SESSION_MESSAGES.unauthenticated && SIGNED_OUT.has(message) ? message : null;
      return null;
    })
    .catch(() => null)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
};

const NO_RETRY = new Set(['auth/login', 'auth/register', 'auth/refresh-token', 'auth/logout']);

/**
 * The access token to send: renewed first when it is about to lapse, so a page left open past
 * its lifetime asks again without being refused (and without a failed request in the console).
 */
export const freshAccessToken = async (): Promise<string | null> => {
  if (accessToken && accessLapsesAt !== null && Date.now() > accessLapsesAt - RENEW_MARGIN_MS) await refreshSession();
  return accessToken;
};

export interface RequestOptions {
  /** Do not send the user to login on 401 (the session restore itself). */
  quiet401?: boolean;
}

/**
 * One exchange with the API: a 401 on an expired access token is retried once after a refresh,
 * and 'Unauthenticated.' sends the user to login. Resolves with status, headers and body whatever
 * the status (the react-admin data provider reads Content-Range).
 */
export const exchange = async (method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<RawResult> => {
  const key = path.replace(/^\//, '').split('?')[0];
  if (!NO_RETRY.has(key)) await freshAccessToken();
  let result = await send(method, path, body);
  if (result.status === 401 && accessToken && !NO_RETRY.has(key)) {
    // An access token lives 15 minutes: renew it once through the refresh cookie and retry.
    if (await refreshSession()) result = await send(method, path, body);
  }
  const message = result.body?.message;
  if (result.status === 401 && typeof message === 'string' && SIGNED_OUT.has(message) && !options.quiet401 && !NO_RETRY.has(key)) {
    accessToken = null;
    onUnauthenticated(message);
  }
  return result;
};

/** Calls the API and resolves with the whole envelope; rejects with an ApiError. */
const request = async <T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Envelope<T>> => {
  const result = await exchange(method, path, body, options);
  const envelope = result.body;
  if (result.status >= 200 && result.status < 300 && envelope && envelope.success !== false) {
    return envelope as Envelope<T>;
  }
  const message = (typeof envelope?.message === 'string' && envelope.message) || SESSION_MESSAGES.genericFailure;
  throw new ApiError(result.status, message, envelope?.errors ?? {}, envelope?.data ?? null);
};

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body: unknown = {}, options?: RequestOptions) => request<T>('POST', path, body, options),
  put: <T>(path: string, body: unknown = {}, options?: RequestOptions) => request<T>('PUT', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
};

/** The message to show for any failure: the server's sentence, or 'An Error Occurred'. */
export const errorMessage = (error: unknown): string =>
  error instanceof ApiError ? error.message : error instanceof Error && error.message ? error.message : SESSION_MESSAGES.genericFailure;

export const fieldErrorsOf = (error: unknown): FieldErrors => (error instanceof ApiError ? error.errors : {});

export const query = (params: Record<string, string | number | undefined | null>): string => {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `?${s}` : '';
};

/**
 * Forgetting what one account fetched, so the next one never sees it. The data layer
 * (data/client.ts, loaded with the signed-in pages) registers how; the session, which every page
 * runs, only calls `forgetAccountData` and so never loads the data layer itself.
 */
const forgetters = new Set<() => void>();

export const onForgetAccountData = (forget: () => void): void => {
  forgetters.add(forget);
};

export const forgetAccountData = (): void => {
  for (const forget of forgetters) forget();
};
