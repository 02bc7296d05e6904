import fs from 'node:fs';
import { MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { unseal } from '../utils/secret-box';
import { query, UID, type Strapi } from '../utils/strapi';
import { WorkerLoop } from '../utils/worker-loop';
import { allowedPrivateAddresses } from './address';
import { deliveryQueue } from './queue';
import { sendOnce, type AttemptOutcome } from './sender';
import { sign, SIGNATURE_HEADER, SECRET_PURPOSE, standardHeaders } from './signature';
import type { DeliveryRow } from '../content-types/webhook-delivery';

/** A permanent failure: the delivery is not tried again. */
const refused = (error: string): AttemptOutcome => ({ ok: false, status_code: null, error, duration_ms: 0, permanent: true });

/**
 * The delivery worker of this app node: sends due deliveries signed with their endpoint's secret,
 * retrying with exponential backoff (the queue makes each attempt on one node only).
 */
export const deliveryWorker = (strapi: Strapi) => {
  const endpoints = () => query(strapi, UID.webhookEndpoint);

  let caFile: { path: string; pem: string } | null = null;
  const ca = (): string | undefined => {
    const file = env().WEBHOOKS_CA_FILE;
    if (!file) return undefined;
    if (caFile?.path !== file) caFile = { path: file, pem: fs.readFileSync(file, 'utf8') };
    return caFile.pem;
  };

  const send = async (row: DeliveryRow, attempt: number): Promise<AttemptOutcome> => {
    const endpoint = await endpoints().findOne({ where: { id: row.endpoint_id } });
    if (!endpoint) return refused(MESSAGES.webhookEndpointDeleted);
    if (!endpoint.enabled) return refused(MESSAGES.webhookEndpointDisabled);
    let secret: string;
    try {
      secret = unseal(endpoint.secret_encrypted, SECRET_PURPOSE);
    } catch {
      return refused('The signing secret cannot be decrypted (was ENCRYPTION_KEY changed?).');
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const standard = standardHeaders(secret, row.event_id, timestamp, row.payload);
    const headers = {
      'Content-Type': 'application/json',
      'User-Agent': 'Branchify-Webhooks/1',
      ...standard,
      'Branchify-Event': row.type,
      'Branchify-Delivery': String(row.id),
      'Branchify-Attempt': String(attempt),
      [SIGNATURE_HEADER]: sign(secret, row.payload, timestamp),
    };
    const outcome = await sendOnce(endpoint.url, row.payload, headers, { timeoutMs: env().WEBHOOKS_TIMEOUT_MS, ca: ca(), allowed: allowedPrivateAddresses() });
    // The delivery log shows what this attempt carried (a signature reveals nothing of the secret).
    return { ...outcome, sent: { timestamp, signature: standard['webhook-signature']! } };
  };

  const backoffMs = (attempts: number) => {
    const e = env();
    return Math.min(e.WEBHOOKS_RETRY_MAX_MS, e.WEBHOOKS_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  };
  const queue = deliveryQueue(() => strapi.db.connection, {
    leaseMs: Math.max(60_000, env().WEBHOOKS_TIMEOUT_MS * 3),
    backoffMs,
    send,
    onAttempt: (row, attempt, outcome, gaveUp) => {
      if (outcome.ok) strapi.log.debug(`[webhooks] ${row.type} delivery ${row.id} to endpoint ${row.endpoint_id} succeeded (attempt ${attempt})`);
      else
        strapi.log.warn(
          `[webhooks] ${row.type} delivery ${row.id} to endpoint ${row.endpoint_id} attempt ${attempt} failed: ${outcome.error}${gaveUp ? ' (giving up)' : ''}`,
        );
    },
  });

  const loop = new WorkerLoop(
    async (isStopped) => (await queue.pass(isStopped)).full,
    (error) => strapi.log.error(`[webhooks] delivery pass failed: ${error.message}`),
  );

  return {
    kick: (): void => loop.kick(),
    /** Runs passes until nothing due is left; concurrent calls in one process share one run. */
    drain: (): Promise<void> => loop.drain(),
    start: (): void => loop.start(env().WEBHOOKS_WORKER_INTERVAL_MS),
    stop: (): Promise<void> => loop.stop(),
  };
};
