// @serial: changes outgoing webhooks for the whole install (tests/harness/groups.js)
import { addVideo, createFunnel, freePlan, subscribedUser, twoVideoDocument, uuid } from './support/content';
import { client } from './support/http';
import { eventually } from './support/stripe';
import { verifiedUser, type Session } from './support/users';
import { createEndpoint, deliveriesOf, receiver, removeEndpoints, receiverUrl, verifySignature } from './support/webhooks';
import { useApiSuite } from './support/suite';

/**
 * Outgoing webhooks against the HTTPS receiver of tests/fakes (a self-signed certificate the app
 * is told to trust, on the one loopback address it is told to allow): signed deliveries, retries
 * with backoff, the delivery log, resend, the events, and the refusal of internal addresses.
 */
const suite = useApiSuite();

afterAll(async () => {
  await removeEndpoints(suite.admin);
});

const PRIVATE = 'This URL points to a private, loopback or otherwise internal address. Webhooks can only be sent to public addresses.';

describe('webhook endpoints (admin)', () => {
  it('is admin only: 401 anonymous, 403 for a creator', async () => {
    const creator = await verifiedUser();
    const anonymous = client();
    const endpoint = await createEndpoint(suite.admin);
    const calls: Array<[string, string]> = [
      ['GET', '/api/admin/webhooks'],
      ['POST', '/api/admin/webhooks'],
      ['GET', `/api/admin/webhooks/${endpoint.id}`],
      ['PUT', `/api/admin/webhooks/${endpoint.id}`],
      ['DELETE', `/api/admin/webhooks/${endpoint.id}`],
      ['GET', `/api/admin/webhooks/${endpoint.id}/deliveries`],
      ['POST', `/api/admin/webhooks/${endpoint.id}/test`],
      ['POST', '/api/admin/webhooks/deliveries/1/resend'],
    ];
    const send = (http: Session['http'], method: string, path: string, token?: string) =>
      method === 'GET'
        ? http.get(path, token)
        : method === 'DELETE'
          ? http.delete(path, token)
          : method === 'PUT'
            ? http.put(path, {}, token)
            : http.post(path, {}, token);
    for (const [method, path] of calls) {
      const none = await send(anonymous, method, path);
      expect(none.status).toBe(401);
      const refused = await send(creator.http, method, path, creator.token);
      expect([method, path, refused.status, refused.body.message]).toEqual([method, path, 403, 'This action is unauthorized.']);
    }
    expect((await suite.admin.http.get(`/api/admin/webhooks/${endpoint.id}`, suite.admin.token)).status).toBe(200);
  });

  it('shows the signing secret once and stores it encrypted; afterwards only a hint', async () => {
    const res = await suite.admin.http.post('/api/admin/webhooks', { url: receiverUrl(), description: 'CRM', events: ['funnel.viewed'] }, suite.admin.token);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Webhook endpoint created. Copy the signing secret now: it is shown only once.');
    const { id, secret } = res.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.data).toMatchObject({ description: 'CRM', events: ['funnel.viewed'], enabled: true, secret_hint: `whsec_****${secret.slice(-4)}` });

    const shown = await suite.admin.http.get(`/api/admin/webhooks/${id}`, suite.admin.token);
    expect(shown.body.data.secret).toBeUndefined();
    expect(JSON.stringify(shown.body)).not.toContain(secret);
    const listed = await suite.admin.http.get('/api/admin/webhooks?per_page=100', suite.admin.token);
    expect(listed.headers['content-range']).toMatch(/^webhooks \d+-\d+\/\d+$/);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const row = await suite.db('branchify_webhook_endpoints').where({ id }).first();
    expect(row.secret_encrypted).toBeTruthy();
    expect(row.secret_encrypted).not.toContain(secret.slice(6));

    const edited = await suite.admin.http.put(
      `/api/admin/webhooks/${id}`,
      { url: shown.body.data.url, description: 'CRM (new)', events: ['funnel.viewed', 'branch.clicked'], enabled: false },
      suite.admin.token,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ description: 'CRM (new)', events: ['funnel.viewed', 'branch.clicked'], enabled: false });
    expect(edited.body.data.secret).toBeUndefined();

    const removed = await suite.admin.http.delete(`/api/admin/webhooks/${id}`, suite.admin.token);
    expect(removed.body.message).toBe('Webhook endpoint deleted successfully');
    expect((await suite.admin.http.get(`/api/admin/webhooks/${id}`, suite.admin.token)).status).toBe(404);
  });

  it('refuses URLs that are not https or that reach loopback, private or other internal addresses, at the url field', async () => {
    const refusals: Array<[string, string]> = [
      ['http://example.com/hook', 'The URL must start with https://.'],
      ['https://user:pass@example.com/hook', 'The URL must be a valid https:// address without a user name or password.'],
      ['https://127.0.0.1/hook', PRIVATE],
      ['https://10.0.0.1/hook', PRIVATE],
      ['https://172.16.5.4/hook', PRIVATE],
      ['https://192.168.1.10/hook', PRIVATE],
      ['https://169.254.169.254/latest/meta-data', PRIVATE],
      ['https://100.64.0.1/hook', PRIVATE],
      ['https://0.0.0.0/hook', PRIVATE],
      ['https://224.0.0.1/hook', PRIVATE],
      ['https://[::1]/hook', PRIVATE],
      ['https://[fd00::1]/hook', PRIVATE],
      ['https://[fe80::1]/hook', PRIVATE],
      ['https://[::ffff:127.0.0.1]/hook', PRIVATE],
      ['https://[::ffff:10.1.2.3]/hook', PRIVATE],
      // A host name is judged by what it resolves to.
      ['https://localhost/hook', PRIVATE],
      // The receiver's address is allowed; its neighbours on loopback are not.
      ['https://127.0.0.3/hook', PRIVATE],
    ];
    for (const [url, message] of refusals) {
      const res = await suite.admin.http.post('/api/admin/webhooks', { url, events: ['funnel.viewed'] }, suite.admin.token);
      expect([url, res.status, res.body.errors?.url]).toEqual([url, 422, [message]]);
    }
    const noEvents = await suite.admin.http.post('/api/admin/webhooks', { url: receiverUrl(), events: [] }, suite.admin.token);
    expect(noEvents.body.errors).toEqual({ events: ['Choose at least one event.'] });

    // An edit is checked the same way.
    const endpoint = await createEndpoint(suite.admin);
    const edit = await suite.admin.http.put(
      `/api/admin/webhooks/${endpoint.id}`,
      { url: 'https://[::1]:8443/x', events: ['funnel.viewed'] },
      suite.admin.token,
    );
    expect(edit.status).toBe(422);
    expect(edit.body.errors.url).toEqual([PRIVATE]);
    expect(Number((await suite.db('branchify_webhook_endpoints').count({ n: '*' }).where({ url: 'https://[::1]:8443/x' }))[0]!.n)).toBe(0);
  });
});

describe('webhook deliveries', () => {
  it('signs every delivery with the endpoint secret (Branchify-Signature: t=…,v1=…)', async () => {
    const endpoint = await createEndpoint(suite.admin);
    const res = await suite.admin.http.post(`/api/admin/webhooks/${endpoint.id}/test`, {}, suite.admin.token);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('A test event is queued for this endpoint.');
    const [request] = await receiver.waitFor(endpoint.url);
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['branchify-event']).toBe('webhook.test');
    const header = request!.headers['branchify-signature']!;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(endpoint.secret, header, request!.body)).toBe(true);
    expect(verifySignature('whsec_someone-else', header, request!.body)).toBe(false);
    expect(verifySignature(endpoint.secret, header, request!.body.replace('test', 'tesT'))).toBe(false);
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({ id: res.body.data.event_id, type: 'webhook.test', data: { endpoint: { id: endpoint.id } } });

    const [delivery] = await eventually(
      () => deliveriesOf(suite.admin, endpoint.id),
      (list) => list[0]?.status === 'succeeded',
    );
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null });
    expect(delivery!.attempt_log).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);
  });

  it('retries a failing receiver with growing backoff, logging each attempt, until it answers 2xx', async () => {
    const endpoint = await createEndpoint(suite.admin);
    await receiver.script(endpoint.url, [500, 503, 200]);
    await suite.admin.http.post(`/api/admin/webhooks/${endpoint.id}/test`, {}, suite.admin.token);
    const requests = await receiver.waitFor(endpoint.url, 3);
    expect(requests.map((r) => r.status)).toEqual([500, 503, 200]);
    // The same event every time, signed afresh, with the attempt number.
    expect(new Set(requests.map((r) => JSON.parse(r.body).id)).size).toBe(1);
    expect(requests.map((r) => r.headers['branchify-attempt'])).toEqual(['1', '2', '3']);
    for (const r of requests) expect(verifySignature(endpoint.secret, r.headers['branchify-signature']!, r.body)).toBe(true);
    // Backoff doubles from WEBHOOKS_RETRY_BASE_MS (300 ms in the suites): about 300 ms, then 600 ms.
    const gaps = [requests[1]!.at - requests[0]!.at, requests[2]!.at - requests[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(280);
    expect(gaps[1]).toBeGreaterThanOrEqual(580);

    const [delivery] = await eventually(
      () => deliveriesOf(suite.admin, endpoint.id),
      (list) => list[0]?.status === 'succeeded',
    );
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, last_status_code: 200 });
    expect(delivery!.attempt_log.map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 503, 'HTTP 503'],
      [3, 200, null],
    ]);
  });

  it('gives up after the last attempt and a resend delivers it again', async () => {
    const endpoint = await createEndpoint(suite.admin);
    await receiver.script(endpoint.url, [500, 500, 500, 500]);
    await suite.admin.http.post(`/api/admin/webhooks/${endpoint.id}/test`, {}, suite.admin.token);
    const [failed] = await eventually(
      () => deliveriesOf(suite.admin, endpoint.id),
      (list) => list[0]?.status === 'failed',
      200,
    );
    // WEBHOOKS_MAX_ATTEMPTS is 4 in the suites.
    expect(failed).toMatchObject({ status: 'failed', attempts: 4, last_status_code: 500, last_error: 'HTTP 500' });
    expect(failed!.attempt_log).toHaveLength(4);

    const resent = await suite.admin.http.post(`/api/admin/webhooks/deliveries/${failed!.id}/resend`, {}, suite.admin.token);
    expect(resent.status).toBe(200);
    expect(resent.body.message).toBe('The delivery is queued to be sent again.');
    const requests = await receiver.waitFor(endpoint.url, 5);
    expect(requests[4]!.status).toBe(200);
    const [delivered] = await eventually(
      () => deliveriesOf(suite.admin, endpoint.id),
      (list) => list[0]?.status === 'succeeded',
    );
    expect(delivered).toMatchObject({ id: failed!.id, status: 'succeeded', attempts: 5 });
    expect(delivered!.attempt_log.map((a) => a.status_code)).toEqual([500, 500, 500, 500, 200]);

    expect((await suite.admin.http.post('/api/admin/webhooks/deliveries/999999999/resend', {}, suite.admin.token)).status).toBe(404);
  });

  it('refuses at send time a URL that now reaches an internal address, without contacting it', async () => {
    const endpoint = await createEndpoint(suite.admin);
    // The registered host now resolves elsewhere (played here by rewriting the stored URL).
    await suite
      .db('branchify_webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ url: endpoint.url.replace('127.0.0.2', '127.0.0.1') });
    await suite.admin.http.post(`/api/admin/webhooks/${endpoint.id}/test`, {}, suite.admin.token);
    const [delivery] = await eventually(
      () => deliveriesOf(suite.admin, endpoint.id),
      (list) => list[0]?.status === 'failed',
    );
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null, last_error: PRIVATE });
    expect(await receiver.requests(endpoint.url)).toHaveLength(0);
  });

  it('sends nothing to a disabled endpoint or for events it did not choose', async () => {
    const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const funnel = await createFunnel(owner);
    const a = await addVideo(owner, { title: 'Intro' });
    const b = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Second' });
    await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), owner.token);
    const disabled = await createEndpoint(suite.admin, { enabled: false });
    const clicksOnly = await createEndpoint(suite.admin, { events: ['branch.clicked'] });
    const viewer = client();
    const view = await viewer.post(`/api/funnels/${funnel.identifier}/views`, { event_id: uuid() });
    expect(view.status).toBe(201);
    await viewer.post(`/api/funnels/${funnel.identifier}/interactions`, {
      event_id: uuid(),
      view_id: view.body.data.view_id,
      view_token: view.body.data.view_token,
      video_id: 'intro',
      node_id: 'el-1',
    });
    const [click] = await receiver.waitFor(clicksOnly.url);
    expect(JSON.parse(click!.body).type).toBe('branch.clicked');
    expect(await receiver.requests(disabled.url)).toHaveLength(0);
    expect(await deliveriesOf(suite.admin, disabled.id)).toHaveLength(0);
    expect((await deliveriesOf(suite.admin, clicksOnly.id)).map((d) => d.type)).toEqual(['branch.clicked']);
  });
});

describe('webhook events', () => {
  const publishedFunnel = async () => {
    const owner = await subscribedUser(suite.admin, (await freePlan(suite.admin)).id);
    const a = await addVideo(owner, { title: 'Intro' });
    const b = await addVideo(owner, { provider: 'vimeo', url: '76979871', title: 'Second' });
    const funnel = await createFunnel(owner);
    await owner.http.put(`/api/funnels/${funnel.id}`, twoVideoDocument(a.id, b.id), owner.token);
    return { owner, funnel };
  };

  it('announces a view, a branch click (not an inaction default) and a completion, each once however often the player retries', async () => {
    const endpoint = await createEndpoint(suite.admin, { events: ['funnel.viewed', 'funnel.completed', 'branch.clicked'] });
    const { funnel } = await publishedFunnel();
    const viewer = client();
    const eventId = uuid();
    const start = await viewer.post(`/api/funnels/${funnel.identifier}/views`, { event_id: eventId });
    // The player retries what it did not see answered: stored once, announced once.
    await viewer.post(`/api/funnels/${funnel.identifier}/views`, { event_id: eventId });
    const { view_id, view_token, viewer_token } = start.body.data;
    const click = { event_id: uuid(), view_id, view_token, video_id: 'intro', node_id: 'el-1', connected_node: 'second', type: 'branch', player_time: 4.5 };
    await viewer.post(`/api/funnels/${funnel.identifier}/interactions`, click);
    await viewer.post(`/api/funnels/${funnel.identifier}/interactions`, click);
    await viewer.post(`/api/funnels/${funnel.identifier}/interactions`, { ...click, event_id: uuid(), type: 'inaction' });
    // Most of the root video is not a completion (it leads on); 90% of the last one is.
    await viewer.put(`/api/funnels/${funnel.identifier}/views`, { view_id, view_token, viewer_token, editor_id: 'intro', last_watch_time: 99, duration: 100 });
    await viewer.put(`/api/funnels/${funnel.identifier}/views`, { view_id, view_token, viewer_token, editor_id: 'second', last_watch_time: 50, duration: 100 });
    await viewer.put(`/api/funnels/${funnel.identifier}/views`, { view_id, view_token, viewer_token, editor_id: 'second', last_watch_time: 91, duration: 100 });
    await viewer.put(`/api/funnels/${funnel.identifier}/views`, { view_id, view_token, viewer_token, editor_id: 'second', last_watch_time: 99, duration: 100 });

    const requests = await receiver.waitFor(endpoint.url, 3);
    // Every delivery row was written by the requests above; once all are answered, nothing more is sent.
    await eventually(
      () => deliveriesOf(suite.admin, endpoint.id),
      (list) => list.length >= 3 && list.every((d) => d.status === 'succeeded'),
    );
    const bodies = (await receiver.requests(endpoint.url)).map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.type).sort()).toEqual(['branch.clicked', 'funnel.completed', 'funnel.viewed']);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    const of = (type: string) => bodies.find((b) => b.type === type)!.data;
    const funnelRef = { id: funnel.id, identifier: funnel.identifier, title: 'Two videos' };
    expect(of('funnel.viewed')).toMatchObject({ funnel: funnelRef, view_id });
    expect(of('branch.clicked')).toMatchObject({
      funnel: funnelRef,
      view_id,
      event_id: click.event_id,
      video_id: 'intro',
      node_id: 'el-1',
      connected_node: 'second',
      player_time: 4.5,
    });
    expect(of('funnel.completed')).toMatchObject({ funnel: funnelRef, view_id, editor_id: 'second', reached: 91, duration: 100 });
    // The viewer and view tokens (which let their holder move the view on) are not handed out.
    expect(JSON.stringify(bodies)).not.toContain(viewer_token);
    expect(JSON.stringify(bodies)).not.toContain(view_token);
  });

  it('announces subscription status changes with the user', async () => {
    const endpoint = await createEndpoint(suite.admin, { events: ['subscription.changed'] });
    const plan = await freePlan(suite.admin);
    const user = await subscribedUser(suite.admin, plan.id);
    const [request] = await receiver.waitFor(endpoint.url, 1, (r) => JSON.parse(r.body).data.user.id === user.id);
    const body = JSON.parse(request!.body);
    expect(body.type).toBe('subscription.changed');
    expect(body.data).toMatchObject({ subscription: { status: 'active', previous_status: null, plan_id: plan.id }, user: { id: user.id, email: user.email } });

    const sub = (await suite.admin.http.get(`/api/admin/subscriptions/users/${user.id}`, suite.admin.token)).body.data;
    const cancel = await user.http.post(`/api/users/subscriptions/${sub.id}/cancel`, { period: 'immediately' }, user.token);
    expect(cancel.status).toBe(200);
    const changes = await receiver.waitFor(endpoint.url, 2, (r) => JSON.parse(r.body).data.user.id === user.id);
    expect(JSON.parse(changes[1]!.body).data.subscription).toMatchObject({ id: sub.id, status: 'canceled', previous_status: 'active' });
  });
});
