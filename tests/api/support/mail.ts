import { openDb } from './db';
import { client } from './http';
import { registerUser, type Session } from './users';

/** The SMTP sink of tests/fakes/smtp (started by the harness). */
export interface SinkMessage {
  id: number;
  envelope_to: string[];
  from: string | null;
  to: string[];
  subject: string;
  html: string;
  text: string;
}

const controlUrl = (): string => {
  const url = process.env.BRANCHIFY_SMTP_CONTROL_URL;
  if (!url) throw new Error('BRANCHIFY_SMTP_CONTROL_URL is not set (tests/fakes/operations.js starts the SMTP sink)');
  return url;
};

const sinkCall = async <T>(method: string, path: string): Promise<T> => {
  const res = await fetch(`${controlUrl()}${path}`, { method });
  if (!res.ok) throw new Error(`sink ${method} ${path}: ${res.status}`);
  return (await res.json()) as T;
};

export const sink = {
  messages: () => sinkCall<SinkMessage[]>('GET', '/messages'),
  down: () => sinkCall('POST', '/down'),
  up: () => sinkCall('POST', '/up'),
  /** Mail received for one address (every test uses fresh addresses). */
  async to(address: string): Promise<SinkMessage[]> {
    return (await sink.messages()).filter((m) => m.envelope_to.includes(address.toLowerCase()));
  },
  /** Waits (bounded) until `count` mails for the address matching `match` arrived. */
  async waitFor(address: string, match: (m: SinkMessage) => boolean = () => true, count = 1): Promise<SinkMessage[]> {
    for (let i = 0; i < 150; i += 1) {
      const found = (await sink.to(address)).filter(match);
      if (found.length >= count) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no mail for ${address} arrived at the SMTP sink`);
  },
};

/** The sink's settings as an admin types them into Integrations. */
export const smtpSettings = (overrides: Record<string, unknown> = {}) => ({
  host: process.env.BRANCHIFY_SMTP_HOST,
  port: Number(process.env.BRANCHIFY_SMTP_PORT),
  encryption: 'none',
  username: process.env.BRANCHIFY_SMTP_USERNAME,
  password: process.env.BRANCHIFY_SMTP_PASSWORD,
  from_address: 'no-reply@branchify.test',
  from_name: 'Branchify Suite',
  ...overrides,
});

export const configureMailer = async (admin: Session, overrides: Record<string, unknown> = {}): Promise<void> => {
  const res = await admin.http.put('/api/admin/mailer', smtpSettings(overrides), admin.token);
  if (res.status !== 200) throw new Error(`mailer config failed: ${res.status} ${JSON.stringify(res.body)}`);
};

/**
 * Puts the installation back to "no mailer" (the other suites read links from the log), and
 * waits until nothing is left in the outbox for the sink. There is no API to remove a mailer.
 */
export const removeMailer = async (): Promise<void> => {
  const db = openDb();
  try {
    for (let i = 0; i < 100; i += 1) {
      const pending = await db('branchify_mail_outbox').whereIn('status', ['queued', 'sending']).count({ n: '*' }).first();
      if (Number(pending?.n ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await db('branchify_mailer_settings').del();
  } finally {
    await db.destroy();
  }
};

/** The first link in a mail's text part that goes to `path`. */
export const linkIn = (mail: SinkMessage, path: string): string => {
  const match = mail.text.match(new RegExp(`https?://[^\\s)]+${path.replace('/', '\\/')}\\?[^\\s)]+`));
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[0];
};

/** Registers and verifies through the verification mail, as a user would with a mailer set up. */
export const verifiedUserByMail = async (overrides: Record<string, unknown> = {}): Promise<Session> => {
  const session = await registerUser(overrides);
  const [mail] = await sink.waitFor(session.email, (m) => /verify/i.test(m.subject));
  const params = Object.fromEntries(new URL(linkIn(mail!, '/email-verify')).searchParams);
  const res = await client(session.http.ip).post('/api/auth/verify-email', params);
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${JSON.stringify(res.body)}`);
  return session;
};
