import crypto from 'node:crypto';
import http from 'node:http';
import { MESSAGES } from '@branchify/shared';
import { call, spawnApp, type Answer, type SpawnedApp } from './support/spawn';

/**
 * A second Branchify, started as `npm start` starts it (scripts/start.js) on its own database,
 * receives SIGTERM while a view event is still arriving: the event is answered and stored, the
 * process stops taking connections and reports not ready, and exits 0.
 */
describe('graceful shutdown', () => {
  let app: SpawnedApp | null = null;

  afterAll(async () => {
    await app?.cleanUp();
  });

  it('answers and stores the view event in flight, refuses new connections, reports not ready, and exits 0', async () => {
    app = await spawnApp({ SHUTDOWN_GRACE_MS: '15000' });
    const { base, child, exited } = app;

    // The first registration is the administrator, whose funnels are public without a plan.
    const password = 'shutdown-pass-1';
    const reg = await call(`${base}/api/auth/register`, {
      method: 'POST',
      body: { first_name: 'Shut', last_name: 'Down', email: 'shutdown@example.test', password, password_confirmation: password },
    });
    const token = String(reg.body.data?.access_token);
    const video = await call(`${base}/api/videos`, { method: 'POST', token, body: { provider: 'generic', url: 'https://cdn.example.com/a.mp4', title: 'A' } });
    const funnel = await call(`${base}/api/funnels`, { method: 'POST', token, body: { title: 'Shutdown', settings: { enable_resume_play: false } } });
    expect([video.status, funnel.status]).toEqual([201, 201]);
    const reference = String(funnel.body.data?.identifier);

    // A keep-alive connection opened before the signal, to ask for readiness after it.
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await call(`${base}/_live`, { agent: keepAlive })).status).toBe(200);

    // A view event whose body is still arriving when the signal comes.
    const eventId = crypto.randomUUID();
    const body = JSON.stringify({ event_id: eventId });
    let finishBody = () => {};
    const slow = new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        `${base}/api/funnels/${reference}/views`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept: 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : { success: false, message: text } }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 5));
      finishBody = () => req.end(body.slice(5));
    });
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');

    // Asked on the connection opened before the signal, readiness turns 503 (bounded wait, no timing).
    let notReady = await call(`${base}/_ready`, { agent: keepAlive });
    for (let i = 0; i < 100 && notReady.status === 200; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      notReady = await call(`${base}/_ready`, { agent: keepAlive });
    }
    expect(notReady.status).toBe(503);
    expect(notReady.body).toEqual({ success: false, message: MESSAGES.serviceUnavailable });
    await expect(call(`${base}/_live`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    // The request that was arriving all along is still answered.
    finishBody();
    const answered = await slow;
    expect(answered.status).toBe(201);
    expect(answered.body.data?.view_id).toBe(eventId);
    keepAlive.destroy();

    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 30_000))]);
    if (code !== 0) throw new Error(`exit ${String(code)}:\n${app.log().slice(-3000)}`);
    expect(app.log()).toMatch(/stopped cleanly/);
    const db = app.openDb();
    try {
      expect(await db('branchify_funnel_views').where({ event_id: eventId }).count({ n: '*' })).toEqual([{ n: process.env.DATABASE_URL ? '1' : 1 }]);
    } finally {
      await db.destroy();
    }
  });
});
