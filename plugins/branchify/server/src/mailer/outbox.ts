import { env } from '@branchify/shared/node';
import { getService } from '../utils/services';
import { WorkerLoop } from '../utils/worker-loop';
import { query, UID, type Strapi } from '../utils/strapi';
import { openTransport, smtpErrorMessage, type MailTransport } from './transport';
import type { OutboxRow } from '../content-types/mail-outbox';
import { durableTransaction } from '../utils/durable-transaction';

interface QueuedMail {
  to: string;
  template: string;
  subject: string;
  html: string;
  text: string;
}

const BATCH = 25;
/** Mails that carry a link which signs the reader in or resets a password. */
const SECRET_TEMPLATES = new Set(['password_reset', 'email_verification']);

const time = (value: string | Date | null): number => (value ? new Date(value).getTime() : 0);

const outboxRows = (strapi: Strapi) => query(strapi, UID.mailOutbox);

/** What a pass needs: the app, and whether the missing mailer was already reported. */
interface PassContext {
  strapi: Strapi;
  warnedUnconfigured: boolean;
}

const leaseMs = () => Math.max(60_000, env().MAIL_SMTP_TIMEOUT_MS * 10);
const backoffMs = (attempts: number) => {
  const e = env();
  return Math.min(e.MAIL_RETRY_MAX_MS, e.MAIL_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
};

/** Takes the row for this node; false when another node (or an earlier tick) already did. */
const claim = async (strapi: Strapi, row: OutboxRow): Promise<boolean> => {
  const attempts = row.attempts ?? 0;
  const result = await outboxRows(strapi).updateMany({
    where: { id: row.id, status: row.status, attempts },
    data: { status: 'sending', attempts: attempts + 1, next_attempt_at: new Date(Date.now() + leaseMs()) },
  });
  return result.count === 1;
};

const deliver = async (strapi: Strapi, transport: MailTransport, row: OutboxRow): Promise<void> => {
  const attempts = (row.attempts ?? 0) + 1;
  try {
    await transport.send({ to: row.to_address, subject: row.subject ?? '', html: row.html ?? '', text: row.text_body ?? '' });
  } catch (error) {
    const permanent = (error as { code?: string }).code === 'EENVELOPE';
    const giveUp = permanent || attempts >= env().MAIL_MAX_ATTEMPTS;
    const message = smtpErrorMessage(error);
    await outboxRows(strapi).update({
      where: { id: row.id },
      data: {
        status: giveUp ? 'failed' : 'queued',
        next_attempt_at: new Date(Date.now() + backoffMs(attempts)),
        last_error: message,
      },
    });
    strapi.log.warn(`[mail] ${row.template ?? 'mail'} #${row.id} attempt ${attempts} failed: ${message}${giveUp ? ' (giving up)' : ''}`);
    throw error;
  }
  // Sign-in links are the recipient's alone: once sent, the stored copy is blanked.
  const blank = row.template && SECRET_TEMPLATES.has(row.template) ? { html: '', text_body: '' } : {};
  await outboxRows(strapi).update({ where: { id: row.id }, data: { status: 'sent', sent_at: new Date(), last_error: null, ...blank } });
};

/** One pass over the due rows (oldest first). Date order is compared here, not in SQL. */
const pass = async (ctx: PassContext, isStopped: () => boolean): Promise<boolean> => {
  const { strapi } = ctx;
  const now = Date.now();
  const candidates = await outboxRows(strapi).findMany({
    where: { status: { $in: ['queued', 'sending'] } },
    orderBy: [{ next_attempt_at: 'asc' }, { id: 'asc' }],
    limit: BATCH,
  });
  const due = candidates.filter((row) => time(row.next_attempt_at) <= now);
  if (!due.length) return false;

  const settings = await getService(strapi, 'mailer-settings').current();
  if (!settings) {
    if (!ctx.warnedUnconfigured) strapi.log.warn('[mail] mail is waiting in the outbox but no mailer is configured');
    ctx.warnedUnconfigured = true;
    return false;
  }
  ctx.warnedUnconfigured = false;

  const transport = openTransport(settings);
  try {
    for (const row of due) {
      if (isStopped()) return false;
      if (!(await claim(strapi, row))) continue;
      try {
        await deliver(strapi, transport, row);
      } catch (error) {
        // The server is unreachable: the rest of the batch would fail the same way; they stay
        // queued for the next pass rather than burning an attempt each.
        const code = (error as { code?: string }).code ?? '';
        if (['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EAUTH', 'ECONNREFUSED', 'EDNS'].includes(code)) return false;
      }
    }
    return due.length === BATCH;
  } finally {
    transport.close();
  }
};

/**
 * The mail outbox. A mail is a row first; a worker on every app node
 * claims due rows with a conditional UPDATE (`… WHERE id = ? AND status = ? AND attempts = ?`), so
 * exactly one node sends each, then marks it sent. A failure puts the row back with exponential
 * backoff; a node that dies mid-send leaves a `sending` row whose lease (`next_attempt_at`)
 * expires and is claimed again. A down SMTP server delays mail and loses none.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const rows = () => outboxRows(strapi);
  const ctx: PassContext = { strapi, warnedUnconfigured: false };

  const worker = new WorkerLoop(
    (isStopped) => pass(ctx, isStopped),
    (error) => strapi.log.error(`[mail] outbox pass failed: ${error.message}`),
  );

  const service = {
    /** Stores the mail, then asks the worker to send it now (without delaying the caller). */
    async enqueue(mail: QueuedMail): Promise<number> {
      const row = await rows().create({
        data: {
          to_address: mail.to,
          template: mail.template,
          subject: mail.subject,
          html: mail.html,
          text_body: mail.text,
          status: 'queued',
          attempts: 0,
          next_attempt_at: new Date(),
        },
        select: ['id'],
      });
      // Queued inside a transaction, the row is the worker's only once committed (and never if not).
      if (strapi.db.inTransaction()) await durableTransaction(strapi, ({ onCommit }) => Promise.resolve(onCommit(() => service.kick())));
      else service.kick();
      return row.id;
    },

    /** Deletes sent mail older than the retention period (the outbox is not an archive). */
    async prune(): Promise<number> {
      const cutoff = new Date(Date.now() - env().MAIL_RETENTION_DAYS * 86_400_000);
      const { count } = await rows().deleteMany({ where: { status: 'sent', sent_at: { $lt: cutoff } } });
      return count;
    },

    kick(): void {
      worker.kick();
    },

    /** Runs passes until nothing due is left; concurrent calls in one process share one run. */
    drain(): Promise<void> {
      return worker.drain();
    },

    start(): void {
      worker.start(env().MAIL_WORKER_INTERVAL_MS);
    },

    stop(): Promise<void> {
      return worker.stop();
    },
  };
  return service;
};
