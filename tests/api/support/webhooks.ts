import crypto from 'node:crypto';
import type { Session } from './users';

/** The HTTPS receiver of tests/fakes/webhook-receiver (started by the harness). */
export interface Received {
  method: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  at: number;
}

const controlUrl = (): string => {
  const url = process.env.BRANCHIFY_WEBHOOK_CONTROL_URL;
  if (!url) throw new Error('BRANCHIFY_WEBHOOK_CONTROL_URL is not set (tests/fakes/operations.js starts the receiver)');
  return url;
};

let seq = 0;
/** A receiver URL of one's own (each path has its own script and log). */
export const receiverUrl = (tag = 'hook'): string => {
  seq += 1;
  return `${process.env.BRANCHIFY_WEBHOOK_RECEIVER_URL}/${tag}-${process.pid}-${Date.now().toString(36)}-${seq}`;
};

export const receiver = {
  /** The answers the receiver gives at a URL's path, in turn (200 afterwards). */
  async script(url: string, statuses: number[]): Promise<void> {
    const res = await fetch(`${controlUrl()}/script`, { method: 'POST', body: JSON.stringify({ path: new URL(url).pathname, statuses }) });
    if (!res.ok) throw new Error(`receiver script: ${res.status}`);
  },
  async requests(url: string): Promise<Received[]> {
    const res = await fetch(`${controlUrl()}/requests?path=${encodeURIComponent(new URL(url).pathname)}`);
    return (await res.json()) as Received[];
  },
  /** Waits (bounded) until `count` requests matching `match` arrived at the URL. */
  async waitFor(url: string, count = 1, match: (r: Received) => boolean = () => true): Promise<Received[]> {
    for (let i = 0; i < 200; i += 1) {
      const found = (await receiver.requests(url)).filter(match);
      if (found.length >= count) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`fewer than ${count} webhook requests arrived at ${url}`);
  },
};

/** Verifies a Branchify-Signature header as the README tells receivers to. */
export const verifySignature = (secret: string, header: string, body: string, toleranceSeconds = 300): boolean => {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = crypto.createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) <= toleranceSeconds;
  return fresh && typeof parts.v1 === 'string' && parts.v1.length === expected.length && crypto.timingSafeEqual(Buffer.from(parts.v1), Buffer.from(expected));
};

export interface Endpoint {
  id: number;
  url: string;
  secret: string;
  events: string[];
}

const ALL_EVENTS = ['subscription.changed', 'funnel.viewed', 'funnel.completed', 'branch.clicked'];

const created: number[] = [];

export const createEndpoint = async (admin: Session, body: Record<string, unknown> = {}): Promise<Endpoint> => {
  const url = (body.url as string) ?? receiverUrl();
  const res = await admin.http.post('/api/admin/webhooks', { url, description: 'Suite receiver', events: ALL_EVENTS, enabled: true, ...body }, admin.token);
  if (res.status !== 201) throw new Error(`endpoint create failed: ${res.status} ${JSON.stringify(res.body)}`);
  created.push(res.body.data.id);
  return res.body.data as Endpoint;
};

/** Deletes the endpoints this file created, so later suites' events are not sent to them. */
export const removeEndpoints = async (admin: Session): Promise<void> => {
  for (const id of created.splice(0)) await admin.http.delete(`/api/admin/webhooks/${id}`, admin.token);
};

export const deliveriesOf = async (admin: Session, endpointId: number) => {
  const res = await admin.http.get(`/api/admin/webhooks/${endpointId}/deliveries?per_page=100`, admin.token);
  if (res.status !== 200) throw new Error(`deliveries: ${res.status}`);
  return res.body.data.data as Array<{
    id: number;
    event_id: string;
    type: string;
    status: string;
    attempts: number;
    last_status_code: number | null;
    last_error: string | null;
    payload: { id: string; type: string; data: Record<string, unknown> };
    attempt_log: Array<{ attempt: number; status_code: number | null; error: string | null; at: string; headers: Record<string, string> | null }>;
  }>;
};
