'use strict';
/** Stripe's error object: `{ error: { type, code, decline_code, message, param, … } }` with its HTTP status. */

class StripeError extends Error {
  /**
   * @param {number} status
   * @param {{ type: string, message: string, code?: string, decline_code?: string, param?: string, [k: string]: unknown }} error
   * @param {{ record?: boolean }} [options] record: whether an idempotent replay stores this answer
   */
  constructor(status, error, options = {}) {
    super(error.message);
    this.status = status;
    this.error = error;
    // Stripe saves a result only once the endpoint ran (a decline did; a validation error did not).
    this.record = options.record ?? false;
  }

  toBody() {
    return { error: { ...this.error, request_log_url: undefined } };
  }
}

/**
 * 400 invalid_request_error
 * @param {string} message
 * @param {string} [param]
 * @param {string} [code]
 */
const invalid = (message, param, code) =>
  new StripeError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code } : {}) });

/** 404 resource_missing, worded as Stripe words it. */
const missing = (/** @type {string} */ what, /** @type {string} */ id, /** @type {string} */ param = 'id') =>
  new StripeError(404, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${what}: '${id}'` });

/** 402 card_error (recorded for idempotent replays: the charge was attempted). */
const cardError = (/** @type {{ message: string, [k: string]: any }} */ fields) => new StripeError(402, { type: 'card_error', ...fields }, { record: true });

module.exports = { StripeError, invalid, missing, cardError };
