'use strict';
/**
 * The test server's whole state, in memory: Stripe objects by id, events (oldest first), the
 * request log, idempotent results, Connect accounts, and the failure rules the control API sets.
 */

/** @typedef {Record<string, any>} Obj */
/** @typedef {{ id: string, method: string, path: string, query: string, params: Obj|null, idempotencyKey: string|null, stripeAccount: string|null, stripeVersion: string|null, publishable: boolean, status: number|null, outcome: string, at: number }} RequestRecord */
/** @typedef {{ status: number, remaining: number, path: RegExp|null }} Rule */

class Store {
  constructor() {
    /** @type {Map<string, Obj>} every object by id */
    this.objects = new Map();
    /** @type {Obj[]} oldest first */
    this.events = [];
    /** @type {RequestRecord[]} */
    this.requests = [];
    /** @type {Map<string, { method: string, path: string, body: string, status: number, response: Obj, requestId: string }>} `${account}|${key}` */
    this.idempotency = new Map();
    /** @type {Map<string, { id: string, publishableKey: string, authorized: boolean, clientId: string|null }>} */
    this.accounts = new Map();
    /** @type {Set<string>} OAuth codes already exchanged */
    this.usedCodes = new Set();
    /** @type {Map<string, string>} payment method id → the test card (pm_card_*) it was made from */
    this.cardOf = new Map();
    /** @type {Map<string, string>} `${customer}|${pm_card_*}` → the payment method that test card became for that customer */
    this.tokenForCustomer = new Map();
    /** @type {Rule|null} */
    this.failRule = null;
    /** @type {Rule|null} */
    this.hangRule = null;
    /** @type {string|null} the Connect platform's client id, once seen */
    this.clientId = null;
  }

  /** @param {Obj} obj */
  put(obj) {
    this.objects.set(obj.id, obj);
    return obj;
  }

  /** @param {string} id @param {string} [object] the expected `object` type */
  get(id, object) {
    const found = typeof id === 'string' ? this.objects.get(id) : undefined;
    if (!found || (object && found.object !== object)) return undefined;
    return found;
  }

  /** Objects of one type, newest first (Stripe's list order). @param {string} object @param {(o: Obj) => boolean} [where] */
  all(object, where = () => true) {
    const out = [];
    for (const o of this.objects.values()) if (o.object === object && where(o)) out.push(o);
    return out.reverse();
  }

  /** Consumes one use of a rule matching `path`; true when the rule applies to this request. @param {'failRule'|'hangRule'} name @param {string} path */
  take(name, path) {
    const rule = this[name];
    if (!rule || rule.remaining <= 0) return null;
    if (rule.path && !rule.path.test(path)) return null;
    rule.remaining -= 1;
    const status = rule.status;
    if (rule.remaining <= 0) this[name] = null;
    return { status };
  }
}

module.exports = { Store };
