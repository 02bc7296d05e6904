import { client, refreshCookie, type Client } from './http';
import { findLoggedLink } from './log';

let seq = 0;
export const uniqueEmail = (tag = 'user'): string => {
  seq += 1;
  return `${tag}-${Date.now().toString(36)}-${seq}-${Math.floor(Math.random() * 1e6)}@example.test`;
};

export interface Session {
  id: number;
  email: string;
  password: string;
  token: string;
  cookie?: string;
  http: Client;
}

export const PASSWORD = 'correct-horse-42';

/** Registers a regular user through the API (unverified, as the product leaves it). */
export const registerUser = async (overrides: Record<string, unknown> = {}): Promise<Session> => {
  const http = client();
  const email = (overrides.email as string) ?? uniqueEmail();
  const password = (overrides.password as string) ?? PASSWORD;
  const res = await http.post('/api/auth/register', {
    first_name: 'Test',
    last_name: 'User',
    email,
    password,
    password_confirmation: password,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.user.id, email, password, token: res.body.data.access_token, cookie: refreshCookie(res), http };
};

/** Follows the verification link the server logged, as the user would from their inbox. */
const verify = async (session: Session): Promise<void> => {
  const link = await findLoggedLink('verification', session.email);
  if (!link) throw new Error(`no verification link logged for ${session.email}`);
  const params = Object.fromEntries(new URL(link).searchParams);
  const res = await session.http.post('/api/auth/verify-email', params);
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${JSON.stringify(res.body)}`);
};

export const verifiedUser = async (overrides: Record<string, unknown> = {}): Promise<Session> => {
  const session = await registerUser(overrides);
  await verify(session);
  return session;
};

export const login = async (email: string, password: string, http: Client = client()): Promise<Session> => {
  const res = await http.post('/api/auth/login', { email, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.user.id, email, password, token: res.body.data.access_token, cookie: refreshCookie(res), http };
};

/** How long an access token (a JWT) has left, in seconds; 0 when it cannot be read. */
const secondsLeft = (token: string): number => {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp - Date.now() / 1000 : 0;
  } catch {
    return 0;
  }
};

/**
 * The install's first account (registered by the harness). Reuses the access token the harness
 * got at registration while it is valid (logging in from every suite would hit the per-account
 * login limit), otherwise logs in afresh.
 */
export const adminSession = async (): Promise<Session> => {
  const email = process.env.BRANCHIFY_ADMIN_EMAIL!;
  const password = process.env.BRANCHIFY_ADMIN_PASSWORD!;
  const token = process.env.BRANCHIFY_ADMIN_TOKEN;
  // A token about to expire would die in the middle of the suite that took it.
  if (token && secondsLeft(token) > 300) {
    const http = client();
    const me = await http.get('/api/auth/user', token);
    if (me.status === 200) return { id: me.body.data.id, email, password, token, http };
  }
  return login(email, password);
};
