'use strict';
/**
 * Webhook endpoint emulation: events are queued as they happen and POSTed one at a time, in
 * order, after the API response that caused them (as Stripe does), signed exactly like Stripe:
 * `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<payload>")>`.
 */
const nodeCrypto = require('node:crypto');
const http = require('node:http');
const https = require('node:https');

/** @typedef {{ event: string, type: string, status: number, error?: string, signature?: string, at: number }} Delivery */

/** Stripe's signature header for a payload. */
function signatureHeader(/** @type {string} */ payload, /** @type {string} */ secret, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = nodeCrypto.createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

class Webhooks {
  /** @param {import('./store').Store} store */
  constructor(store) {
    this.store = store;
    /** @type {string|null} */
    this.url = null;
    /** @type {string|null} */
    this.secret = null;
    this.paused = false;
    this.stopped = false;
    this.busy = false;
    /** @type {string[]} event ids waiting to be delivered */
    this.queue = [];
    /** @type {Delivery[]} every attempt, in order */
    this.deliveries = [];
    /** @type {Set<import('node:http').ClientRequest>} */
    this.inflight = new Set();
    /** @type {Array<() => void>} */
    this.idleWaiters = [];
  }

  configure(/** @type {string} */ url, /** @type {string} */ secret) {
    this.url = url;
    this.secret = secret;
  }

  /** Queues a new event for the endpoint (events before an endpoint existed are never sent). */
  enqueue(/** @type {Record<string, any>} */ event) {
    if (!this.url || this.stopped) return;
    this.queue.push(event.id);
    this.kick();
  }

  kick() {
    if (this.busy || this.paused || this.stopped) return;
    // After the current API response has been written.
    setImmediate(() => void this.drain());
  }

  async drain() {
    if (this.busy || this.paused || this.stopped) return;
    this.busy = true;
    try {
      while (this.queue.length && !this.paused && !this.stopped) {
        const id = /** @type {string} */ (this.queue.shift());
        const event = this.store.get(id, 'event');
        if (event) await this.deliver(event);
      }
    } finally {
      this.busy = false;
      if (!this.queue.length || this.paused || this.stopped) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  /** Resolves once the queue is empty (or paused/stopped), or after `ms`. */
  waitIdle(ms = 30_000) {
    if (!this.busy && (!this.queue.length || this.paused || this.stopped)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  pause() {
    this.paused = true;
  }

  async resume() {
    this.paused = false;
    const waiting = this.queue.length;
    void this.drain();
    await this.waitIdle();
    return waiting;
  }

  /**
   * POSTs one event to the endpoint and records the attempt.
   * @param {Record<string, any>} event
   * @param {{ signature?: 'wrong-secret'|'stale'|'valid' }} [options]
   * @returns {Promise<Delivery>}
   */
  async deliver(event, options = {}) {
    const payload = JSON.stringify(event, null, 2);
    const mode = options.signature ?? 'valid';
    const secret = mode === 'wrong-secret' ? `whsec_wrong_${nodeCrypto.randomBytes(8).toString('hex')}` : (this.secret ?? '');
    const timestamp = Math.floor(Date.now() / 1000) - (mode === 'stale' ? 600 : 0);
    /** @type {Delivery} */
    const delivery = { event: event.id, type: event.type, status: 0, at: Date.now(), ...(mode !== 'valid' ? { signature: mode } : {}) };
    if (!this.url) {
      delivery.error = 'no webhook endpoint configured';
      this.deliveries.push(delivery);
      return delivery;
    }
    try {
      delivery.status = await this.post(this.url, payload, signatureHeader(payload, secret, timestamp));
    } catch (error) {
      delivery.error = /** @type {Error} */ (error).message;
    }
    this.deliveries.push(delivery);
    return delivery;
  }

  /** @returns {Promise<number>} the endpoint's status code */
  post(/** @type {string} */ url, /** @type {string} */ payload, /** @type {string} */ signature) {
    return new Promise((resolve, reject) => {
      const target = new URL(url);
      const req = (target.protocol === 'https:' ? https : http).request(
        target,
        {
          method: 'POST',
          agent: false,
          timeout: 30_000,
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Length': Buffer.byteLength(payload),
            'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
            'Cache-Control': 'no-cache',
            Accept: '*/*; q=0.5, application/xml',
            'Stripe-Signature': signature,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            this.inflight.delete(req);
            resolve(res.statusCode ?? 0);
          });
        },
      );
      this.inflight.add(req);
      req.on('timeout', () => req.destroy(new Error('webhook delivery timed out')));
      req.on('error', (error) => {
        this.inflight.delete(req);
        reject(error);
      });
      req.end(payload);
    });
  }

  /** Sends nothing more; lets a delivery under way finish (up to `graceMs`), then drops it. */
  async stop(graceMs = 5_000) {
    this.stopped = true;
    this.queue.length = 0;
    const deadline = Date.now() + graceMs;
    while (this.inflight.size && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const req of this.inflight) req.destroy();
    this.inflight.clear();
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}

module.exports = { Webhooks, signatureHeader };
