'use strict';
/**
 * The control API under /_control/ (JSON in, JSON out) that the suites use to steer the server:
 * inspect requests, inject failures and hangs, complete 3-D Secure, run renewals, and drive
 * webhook delivery (pause/resume, explicit, wrongly signed, duplicated).
 */

/** @typedef {Record<string, any>} Obj */

class ControlError extends Error {
  constructor(/** @type {number} */ status, /** @type {string} */ message) {
    super(message);
    this.status = status;
  }
}

const regex = (/** @type {unknown} */ source) => {
  if (source === undefined || source === null || source === '') return null;
  try {
    return new RegExp(String(source));
  } catch {
    throw new ControlError(400, `invalid path regex: ${source}`);
  }
};

const count = (/** @type {unknown} */ v) => {
  const n = v === undefined ? 1 : Number(v);
  if (!Number.isInteger(n) || n < 0) throw new ControlError(400, 'count must be a whole number ≥ 0');
  return n;
};

/**
 * @param {{ store: import('./store').Store, billing: import('./billing').Billing, webhooks: import('./webhooks').Webhooks }} fake
 * @returns {Record<string, (body: Obj) => Promise<unknown> | unknown>} by `METHOD path`
 */
function controlRoutes({ store, billing, webhooks }) {
  const eventOr404 = (/** @type {string} */ id) => {
    const event = store.get(id, 'event');
    if (!event) throw new ControlError(404, `no such event: ${id}`);
    return event;
  };
  const signature = (/** @type {unknown} */ s) => {
    if (s === undefined || s === null || s === 'valid') return 'valid';
    if (s === 'wrong-secret' || s === 'stale') return s;
    throw new ControlError(400, "signature must be 'wrong-secret' or 'stale'");
  };
  /** Runs an engine operation as Stripe itself would (no request, no account unless given). */
  const act = (/** @type {() => unknown} */ fn, account = null) => {
    try {
      return billing.within({ account }, fn);
    } catch (error) {
      const e = /** @type {any} */ (error);
      if (e.error) throw new ControlError(e.status, e.error.message);
      throw error;
    }
  };

  return {
    'GET requests': () => store.requests,
    'POST requests/clear': () => {
      store.requests.length = 0;
      return { ok: true };
    },
    'GET events': () => [...store.events].reverse(),
    // What was charged: every charge with its amount in minor units, oldest first.
    'GET charges': () =>
      store
        .all('charge')
        .reverse()
        .map((c) => ({
          id: c.id,
          amount: c.amount,
          amount_refunded: c.amount_refunded,
          currency: c.currency,
          customer: c.customer,
          payment_intent: c.payment_intent,
          status: c.status,
        })),

    // Armed once the webhook deliveries already under way are done, so the app's handlers for
    // earlier events do not use up the rule meant for the request under test.
    'POST fail': async (b) => {
      const n = count(b.count);
      if (n > 0) await webhooks.waitIdle(15_000);
      store.failRule = n > 0 ? { status: Number(b.status ?? 500), remaining: n, path: regex(b.path) } : null;
      return { ok: true, rule: store.failRule && { ...store.failRule, path: store.failRule.path?.source ?? null } };
    },
    'POST hang': async (b) => {
      const n = count(b.count);
      if (n > 0) await webhooks.waitIdle(15_000);
      store.hangRule = n > 0 ? { status: 0, remaining: n, path: regex(b.path) } : null;
      return { ok: true, rule: store.hangRule && { ...store.hangRule, path: store.hangRule.path?.source ?? null } };
    },

    'POST complete-3ds': (b) => {
      if (!b.payment_intent) throw new ControlError(400, 'payment_intent is required');
      const pi = act(() => billing.completeThreeDSecure(b.payment_intent));
      return { payment_intent: pi };
    },
    'POST advance': (b) => {
      if (!b.subscription) throw new ControlError(400, 'subscription is required');
      const outcome = b.outcome ?? 'paid';
      if (outcome !== 'paid' && outcome !== 'declined') throw new ControlError(400, "outcome must be 'paid' or 'declined'");
      return act(() => billing.advance(billing.subscription(b.subscription), outcome));
    },
    'POST deauthorize': (b) => {
      if (!b.account) throw new ControlError(400, 'account is required');
      if (!store.accounts.has(b.account)) throw new ControlError(404, `no such connected account: ${b.account}`);
      act(() => billing.deauthorize(b.account, b.client_id ?? null));
      return { ok: true, account: b.account };
    },

    'POST webhooks': (b) => {
      if (!b.url || !b.secret) throw new ControlError(400, 'url and secret are required');
      webhooks.configure(String(b.url), String(b.secret));
      return { ok: true, url: webhooks.url };
    },
    'POST webhooks/pause': () => {
      webhooks.pause();
      return { ok: true, paused: true };
    },
    'POST webhooks/resume': async () => ({ ok: true, paused: false, delivered: await webhooks.resume() }),
    'GET deliveries': () => webhooks.deliveries,
    'POST webhooks/deliver': async (b) => {
      const ids = Array.isArray(b.events) ? b.events : b.event ? [b.event] : null;
      if (!ids) throw new ControlError(400, 'events is required');
      const events = ids.map(eventOr404);
      const how = { signature: signature(b.signature) };
      const deliveries = [];
      for (const event of events) deliveries.push(await webhooks.deliver(event, /** @type {any} */ (how)));
      return { deliveries };
    },
    'POST webhooks/redeliver': async (b) => {
      const event = eventOr404(b.event);
      const times = count(b.times);
      const how = { signature: signature(b.signature) };
      let deliveries;
      if (b.parallel) {
        deliveries = await Promise.all(Array.from({ length: times }, () => webhooks.deliver(event, /** @type {any} */ (how))));
      } else {
        deliveries = [];
        for (let i = 0; i < times; i += 1) deliveries.push(await webhooks.deliver(event, /** @type {any} */ (how)));
      }
      return { deliveries };
    },
  };
}

module.exports = { controlRoutes, ControlError };
