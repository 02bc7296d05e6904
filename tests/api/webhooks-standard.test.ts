import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { seal } from '../../plugins/branchify/server/src/utils/secret-box';
import { eventually } from './support/stripe';
import { createEndpoint, deliveriesOf, receiver, removeEndpoints, verifySignature, type Received } from './support/webhooks';
import { useApiSuite } from './support/suite';

/**
 * Deliveries follow the Standard Webhooks specification: `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64>` with a `whsec_` secret, checked here by the specification's own
 * maintained library (`standardwebhooks`), not by code of ours.
 */
const suite = useApiSuite();

afterAll(async () => {
  await removeEndpoints(suite.admin);
});

const headersOf = (r: Received) => ({
  'webhook-id': r.headers['webhook-id']!,
  'webhook-timestamp': r.headers['webhook-timestamp']!,
  'webhook-signature': r.headers['webhook-signature']!,
});

const FIVE_MINUTES_MS = 5 * 60 * 1000;

describe('Standard Webhooks', () => {
  it('signs each delivery so the standardwebhooks library verifies it, and refuses a change or a late replay', async () => {
    const endpoint = await createEndpoint(suite.admin);
    // A standard secret: whsec_ and base64 of 32 bytes.
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const queued = await suite.admin.http.post(`/api/admin/webhooks/${endpoint.id}/test`, {}, suite.admin.token);
    const [request] = await receiver.waitFor(endpoint.url);
    const headers = headersOf(request!);
    expect(headers['webhook-id']).toBe(queued.body.data.event_id);
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    const verifier = new Webhook(endpoint.secret);
    expect(verifier.verify(request!.body, headers)).toEqual(JSON.parse(request!.body));
    expect(() => verifier.verify(request!.body.replace('webhook.test', 'webhook.tesT'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request!.body, headers)).toThrow(WebhookVerificationError);

    // The same request replayed later than the library's five-minute tolerance is refused.
    const replayAt = jest.spyOn(Date, 'now').mockReturnValue(Number(headers['webhook-timestamp']) * 1000 + FIVE_MINUTES_MS + 1000);
    try {
      expect(() => verifier.verify(request!.body, headers)).toThrow('Message timestamp too old');
    } finally {
      replayAt.mockRestore();
    }
    // The earlier header is still sent and still verifies, for receivers built on it.
    expect(verifySignature(endpoint.secret, request!.headers['branchify-signature']!, request!.body)).toBe(true);
  });

  it('keeps the message id across retries, signs each attempt afresh, and shows the headers in the delivery log', async () => {
    const endpoint = await createEndpoint(suite.admin);
    await receiver.script(endpoint.url, [500, 200]);
    await suite.admin.http.post(`/api/admin/webhooks/${endpoint.id}/test`, {}, suite.admin.token);
    const requests = await receiver.waitFor(endpoint.url, 2);
    const verifier = new Webhook(endpoint.secret);
    for (const r of requests) expect(verifier.verify(r.body, headersOf(r))).toEqual(JSON.parse(r.body));
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);

    const [delivery] = await eventually(
      () => deliveriesOf(suite.admin, endpoint.id),
      (list) => list[0]?.status === 'succeeded',
    );
    expect(delivery!.attempt_log.map((a) => a.headers)).toEqual(requests.map(headersOf));
  });

  it('verifies deliveries to an endpoint whose secret was made before (base64url), once written in the standard alphabet', async () => {
    const endpoint = await createEndpoint(suite.admin);
    // As earlier releases made secrets: whsec_ and base64url of 32 bytes, unpadded.
    const legacy = `whsec_${Buffer.alloc(32, 251).toString('base64url')}`;
    expect(legacy).toMatch(/[-_]/);
    await suite
      .db('branchify_webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ secret_encrypted: seal(legacy, 'webhooks.secret') });
    await suite.admin.http.post(`/api/admin/webhooks/${endpoint.id}/test`, {}, suite.admin.token);
    const [request] = await receiver.waitFor(endpoint.url);
    // The conversion the README gives: - to +, _ to /, padded with =.
    const body = legacy.slice('whsec_'.length).replace(/-/g, '+').replace(/_/g, '/');
    const standard = `whsec_${body}${'='.repeat((4 - (body.length % 4)) % 4)}`;
    expect(new Webhook(standard).verify(request!.body, headersOf(request!))).toEqual(JSON.parse(request!.body));
    expect(verifySignature(legacy, request!.headers['branchify-signature']!, request!.body)).toBe(true);
  });
});
