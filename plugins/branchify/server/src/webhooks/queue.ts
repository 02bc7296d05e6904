import type { Knex } from 'knex';
import type { AttemptOutcome } from './sender';
import type { DeliveryRow } from '../content-types/webhook-delivery';

export const DELIVERIES = 'branchify_webhook_deliveries';
export const ATTEMPTS = 'branchify_webhook_attempts';

export interface QueueOptions {
  /** How long a claimed row stays claimed (a node that dies mid-send frees it when this passes). */
  leaseMs: number;
  backoffMs: (attempts: number) => number;
  /** Sends one claimed delivery; `attempt` is its number (1 for the first). */
  send: (row: DeliveryRow, attempt: number) => Promise<AttemptOutcome>;
  batch?: number;
  concurrency?: number;
  onAttempt?: (row: DeliveryRow, attempt: number, outcome: AttemptOutcome, gaveUp: boolean) => void;
}

/**
 * The webhook delivery queue over the database, safe across app processes: a process takes a due
 * row with a conditional UPDATE (`… WHERE id = ? AND status = ? AND attempts = ?`), so exactly one
 * process makes each attempt, and writes the outcome only while its claim still holds. A failure
 * puts the row back with exponential backoff; a claim whose process died expires with its lease.
 */
export const deliveryQueue = (knex: () => Knex, options: QueueOptions) => {
  const batch = options.batch ?? 25;
  const concurrency = options.concurrency ?? 4;

  /** Takes the row for this process; false when another process (or an earlier pass) already did. */
  const claim = async (row: DeliveryRow): Promise<boolean> => {
    const count = await knex()(DELIVERIES)
      .where({ id: row.id, status: row.status, attempts: row.attempts })
      .update({ status: 'sending', attempts: row.attempts + 1, next_attempt_ms: Date.now() + options.leaseMs, updated_at: new Date() });
    return count === 1;
  };

  const attempt = async (row: DeliveryRow): Promise<void> => {
    const number = row.attempts + 1;
    let outcome: AttemptOutcome;
    try {
      outcome = await options.send(row, number);
    } catch (error) {
      outcome = { ok: false, status_code: null, error: (error as Error).message, duration_ms: 0 };
    }
    const now = new Date();
    const gaveUp = !outcome.ok && (Boolean(outcome.permanent) || number >= row.max_attempts);
    await knex()(ATTEMPTS).insert({
      delivery_id: row.id,
      attempt: number,
      status_code: outcome.status_code,
      error: outcome.error,
      duration_ms: outcome.duration_ms,
      webhook_timestamp: outcome.sent?.timestamp ?? null,
      webhook_signature: outcome.sent?.signature ?? null,
      created_at: now,
      updated_at: now,
    });
    const data = outcome.ok
      ? { status: 'succeeded', delivered_at: now, next_attempt_ms: null }
      : { status: gaveUp ? 'failed' : 'pending', next_attempt_ms: gaveUp ? null : now.getTime() + options.backoffMs(number) };
    // Only while this claim holds: a resend or a later claim is never overwritten.
    await knex()(DELIVERIES)
      .where({ id: row.id, status: 'sending', attempts: number })
      .update({ ...data, last_status_code: outcome.status_code, last_error: outcome.error, updated_at: now });
    options.onAttempt?.(row, number, outcome, gaveUp);
  };

  return {
    claim,

    /** One pass over the due rows (oldest first); answers how many attempts this process made. */
    async pass(isStopped: () => boolean = () => false): Promise<{ made: number; full: boolean }> {
      const due = await knex()<DeliveryRow>(DELIVERIES)
        .whereIn('status', ['pending', 'sending'])
        .andWhere('next_attempt_ms', '<=', Date.now())
        .orderBy([{ column: 'next_attempt_ms' }, { column: 'id' }])
        .limit(batch)
        .select('id', 'endpoint_id', 'event_id', 'type', 'payload', 'status', 'attempts', 'max_attempts', 'next_attempt_ms');
      let made = 0;
      let next = 0;
      const worker = async () => {
        while (next < due.length && !isStopped()) {
          const row = due[next++]!;
          row.attempts = Number(row.attempts ?? 0);
          row.max_attempts = Number(row.max_attempts ?? 0);
          if (!(await claim(row))) continue;
          made += 1;
          await attempt(row);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
      return { made, full: due.length === batch };
    },
  };
};
