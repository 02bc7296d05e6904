'use strict';
/**
 * Object builders. Every object starts as a deep clone of Stripe's own example object for its type
 * (fixtures.json, taken from stripe/openapi), so it carries every field the real API returns; the
 * builder then sets ids, amounts and state, and nulls the example's placeholder sub-objects.
 */
const { resources } = require('./fixtures.json');
const { newId, random, now } = require('./ids');

/** @typedef {Record<string, any>} Obj */

const clone = (/** @type {any} */ v) => structuredClone(v);
/** @param {string} type @returns {Obj} */
const fixture = (type) => {
  const f = resources[type];
  if (!f) throw new Error(`no fixture for ${type}`);
  return clone(f);
};

const list = (/** @type {Obj[]} */ data, /** @type {string} */ url) => ({ object: 'list', data, has_more: false, url });

/** @typedef {{ brand: string, last4: string, funding: string, behaviour: 'succeed'|'decline'|'3ds', code?: string, decline_code?: string }} TestCard */

/** The test payment methods Stripe documents (https://docs.stripe.com/testing), by behaviour. @type {Record<string, TestCard>} */
const TEST_CARDS = {
  pm_card_visa: { brand: 'visa', last4: '4242', funding: 'credit', behaviour: 'succeed' },
  pm_card_visa_debit: { brand: 'visa', last4: '5556', funding: 'debit', behaviour: 'succeed' },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', funding: 'credit', behaviour: 'succeed' },
  pm_card_amex: { brand: 'amex', last4: '8431', funding: 'credit', behaviour: 'succeed' },
  pm_card_chargeDeclined: { brand: 'visa', last4: '0002', funding: 'credit', behaviour: 'decline', code: 'card_declined', decline_code: 'generic_decline' },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    funding: 'credit',
    behaviour: 'decline',
    code: 'card_declined',
    decline_code: 'insufficient_funds',
  },
  pm_card_chargeDeclinedExpiredCard: {
    brand: 'visa',
    last4: '0069',
    funding: 'credit',
    behaviour: 'decline',
    code: 'expired_card',
    decline_code: 'expired_card',
  },
  pm_card_threeDSecure2Required: { brand: 'visa', last4: '3220', funding: 'credit', behaviour: '3ds' },
  pm_card_authenticationRequired: { brand: 'visa', last4: '3184', funding: 'credit', behaviour: '3ds' },
};

/** The card numbers behind them, as typed into Stripe.js's card form in test mode. @type {Record<string, keyof typeof TEST_CARDS>} */
const TEST_CARD_NUMBERS = {
  4242424242424242: 'pm_card_visa',
  4000056655665556: 'pm_card_visa_debit',
  5555555555554444: 'pm_card_mastercard',
  371449635398431: 'pm_card_amex',
  4000000000000002: 'pm_card_chargeDeclined',
  4000000000009995: 'pm_card_chargeDeclinedInsufficientFunds',
  4000000000000069: 'pm_card_chargeDeclinedExpiredCard',
  4000000000003220: 'pm_card_threeDSecure2Required',
  4000002760003184: 'pm_card_authenticationRequired',
};

const DECLINE_MESSAGES = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
};

/** @param {{ email?: string|null, name?: string|null, metadata?: Obj, description?: string|null, phone?: string|null }} p */
function customer(p) {
  const o = fixture('customer');
  Object.assign(o, {
    id: newId('cus'),
    created: now(),
    discount: null,
    shipping: null,
    email: p.email ?? null,
    name: p.name ?? null,
    phone: p.phone ?? null,
    description: p.description ?? null,
    metadata: p.metadata ?? {},
    invoice_prefix: random(8)
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, 'X'),
    next_invoice_sequence: 1,
  });
  o.invoice_settings = { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null };
  return o;
}

/** @param {string} id @param {keyof typeof TEST_CARDS} token @param {string|null} customerId */
function paymentMethod(id, token, customerId) {
  const card = TEST_CARDS[token];
  const o = fixture('payment_method');
  Object.assign(o, {
    id,
    created: now(),
    customer: customerId,
    metadata: {},
    allow_redisplay: 'unspecified',
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name: null,
      phone: null,
      tax_id: null,
    },
  });
  Object.assign(o.card, {
    brand: card.brand,
    display_brand: card.brand,
    last4: card.last4,
    funding: card.funding,
    exp_month: 12,
    exp_year: new Date().getFullYear() + 3,
    fingerprint: `fp${token.slice(8)}`.slice(0, 16),
    generated_from: null,
    wallet: null,
    networks: { available: [card.brand], preferred: null },
  });
  return o;
}

/** @param {{ name: string, metadata?: Obj, description?: string|null, active?: boolean }} p */
function product(p) {
  const o = fixture('product');
  Object.assign(o, {
    id: newId('prod'),
    created: now(),
    updated: now(),
    name: p.name,
    description: p.description ?? null,
    metadata: p.metadata ?? {},
    active: p.active ?? true,
    default_price: null,
    images: [],
    package_dimensions: null,
    type: 'service',
  });
  return o;
}

/** @param {{ product: string, unit_amount: number, currency: string, recurring: { interval: string, interval_count: number } | null, metadata?: Obj, nickname?: string|null, lookup_key?: string|null }} p */
function price(p) {
  const o = fixture('price');
  Object.assign(o, {
    id: newId('price'),
    created: now(),
    product: p.product,
    unit_amount: p.unit_amount,
    unit_amount_decimal: String(p.unit_amount),
    currency: p.currency,
    metadata: p.metadata ?? {},
    nickname: p.nickname ?? null,
    lookup_key: p.lookup_key ?? null,
    custom_unit_amount: null,
    transform_quantity: null,
    type: p.recurring ? 'recurring' : 'one_time',
    recurring: p.recurring
      ? { interval: p.recurring.interval, interval_count: p.recurring.interval_count, meter: null, usage_type: 'licensed', trial_period_days: null }
      : null,
  });
  return o;
}

/** The legacy `plan` Stripe still mirrors from a recurring price on subscription items. */
function planOf(/** @type {Obj} */ pr) {
  const plan = clone(resources.subscription_item.plan);
  Object.assign(plan, {
    id: pr.id,
    active: pr.active,
    amount: pr.unit_amount,
    amount_decimal: pr.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: pr.created,
    currency: pr.currency,
    interval: pr.recurring?.interval ?? null,
    interval_count: pr.recurring?.interval_count ?? null,
    livemode: false,
    metadata: pr.metadata,
    nickname: pr.nickname,
    product: pr.product,
    transform_usage: null,
    usage_type: 'licensed',
  });
  return plan;
}

/** @param {Obj} pr the price @param {string} subscriptionId @param {number} start @param {number} end */
function subscriptionItem(pr, subscriptionId, start, end) {
  const o = fixture('subscription_item');
  Object.assign(o, {
    id: newId('si'),
    created: now(),
    metadata: {},
    price: clone(pr),
    plan: planOf(pr),
    quantity: 1,
    subscription: subscriptionId,
    current_period_start: start,
    current_period_end: end,
    billing_thresholds: null,
    discounts: [],
    tax_rates: [],
  });
  return o;
}

/** @param {{ customer: string, metadata: Obj, default_payment_method: string|null, collection_method?: string, description?: string|null }} p */
function subscription(p) {
  const o = fixture('subscription');
  const id = newId('sub');
  const t = now();
  Object.assign(o, {
    id,
    created: t,
    start_date: t,
    billing_cycle_anchor: t,
    billing_cycle_anchor_config: null,
    customer: p.customer,
    metadata: p.metadata,
    default_payment_method: p.default_payment_method,
    collection_method: p.collection_method ?? 'charge_automatically',
    description: p.description ?? null,
    status: 'incomplete',
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    ended_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    trial_end: null,
    trial_start: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    latest_invoice: null,
    pending_update: null,
    pending_setup_intent: null,
    pending_invoice_item_interval: null,
    next_pending_invoice_item_invoice: null,
    pause_collection: null,
    transfer_data: null,
    schedule: null,
    discounts: [],
    default_tax_rates: [],
    billing_thresholds: null,
    billing_schedules: [],
    managed_payments: { enabled: false },
    automatic_tax: { enabled: false, liability: null, disabled_reason: null },
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' }, custom_fields: null, description: null, footer: null },
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    items: list([], `/v1/subscription_items?subscription=${id}`),
  });
  return o;
}

/** @param {{ customer: Obj, subscription?: Obj|null, billing_reason: string, metadata?: Obj, collection_method?: string, auto_advance?: boolean, default_payment_method?: string|null, description?: string|null, currency?: string }} p */
function invoice(p) {
  const o = fixture('invoice');
  const id = newId('in');
  const t = now();
  const sub = p.subscription ?? null;
  Object.assign(o, {
    id,
    created: t,
    customer: p.customer.id,
    customer_email: p.customer.email,
    customer_name: p.customer.name,
    customer_phone: p.customer.phone,
    customer_shipping: null,
    customer_address: null,
    account_name: 'Branchify test account',
    amount_due: 0,
    amount_paid: 0,
    amount_remaining: 0,
    amount_overpaid: 0,
    amount_shipping: 0,
    attempt_count: 0,
    attempted: false,
    auto_advance: p.auto_advance ?? Boolean(sub),
    automatic_tax: { enabled: false, liability: null, status: null, disabled_reason: null, provider: null },
    automatically_finalizes_at: null,
    billing_reason: p.billing_reason,
    collection_method: p.collection_method ?? 'charge_automatically',
    currency: p.currency ?? 'usd',
    default_payment_method: p.default_payment_method ?? null,
    description: p.description ?? null,
    discounts: [],
    due_date: null,
    effective_at: null,
    ending_balance: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    last_finalization_error: null,
    latest_revision: null,
    lines: list([], `/v1/invoices/${id}/lines`),
    metadata: p.metadata ?? {},
    next_payment_attempt: null,
    number: null,
    parent: sub ? { type: 'subscription_details', quote_details: null, subscription_details: { metadata: clone(sub.metadata), subscription: sub.id } } : null,
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_start: t,
    period_end: t,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subscription: sub ? sub.id : null,
    subtotal: 0,
    subtotal_excluding_tax: 0,
    total: 0,
    total_discount_amounts: [],
    total_excluding_tax: 0,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: null,
  });
  return o;
}

/**
 * One invoice line.
 * @param {{ invoice: string, amount: number, currency: string, description: string, price: Obj|null, quantity?: number, period: { start: number, end: number }, subscription?: string|null, subscriptionItem?: string|null, invoiceItem?: string|null, proration?: boolean, metadata?: Obj }} p
 */
function lineItem(p) {
  const o = fixture('line_item');
  Object.assign(o, {
    id: newId('il'),
    invoice: p.invoice,
    amount: p.amount,
    subtotal: p.amount,
    currency: p.currency,
    description: p.description,
    metadata: p.metadata ?? {},
    period: p.period,
    quantity: p.quantity ?? 1,
    quantity_decimal: String(p.quantity ?? 1),
    subscription: p.subscription ?? null,
    discount_amounts: [],
    discounts: [],
    pretax_credit_amounts: [],
    taxes: [],
    pricing: p.price
      ? { type: 'price_details', price_details: { price: p.price.id, product: p.price.product }, unit_amount_decimal: p.price.unit_amount_decimal }
      : { type: 'price_details', price_details: null, unit_amount_decimal: String(p.amount) },
    parent: p.subscriptionItem
      ? {
          type: 'subscription_item_details',
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: p.invoiceItem ?? null,
            proration: Boolean(p.proration),
            proration_details: { credited_items: null },
            subscription: p.subscription ?? null,
            subscription_item: p.subscriptionItem,
          },
        }
      : {
          type: 'invoice_item_details',
          subscription_item_details: null,
          invoice_item_details: {
            invoice_item: p.invoiceItem ?? null,
            proration: Boolean(p.proration),
            proration_details: { credited_items: null },
            subscription: p.subscription ?? null,
          },
        },
  });
  return o;
}

/** @param {{ customer: string, invoice: string|null, amount: number, currency: string, price: Obj|null, quantity: number, description: string|null, metadata: Obj, subscription?: string|null, proration?: boolean, period?: { start: number, end: number } }} p */
function invoiceItem(p) {
  const o = fixture('invoiceitem');
  const t = now();
  Object.assign(o, {
    id: newId('ii'),
    amount: p.amount,
    net_amount: p.amount,
    currency: p.currency,
    customer: p.customer,
    date: t,
    description: p.description,
    invoice: p.invoice,
    metadata: p.metadata,
    period: p.period ?? { start: t, end: t },
    proration: Boolean(p.proration),
    quantity: p.quantity,
    quantity_decimal: String(p.quantity),
    discounts: [],
    tax_rates: [],
    test_clock: null,
    parent: p.subscription ? { type: 'subscription_details', subscription_details: { subscription: p.subscription } } : null,
    pricing: p.price
      ? { type: 'price_details', price_details: { price: p.price.id, product: p.price.product }, unit_amount_decimal: p.price.unit_amount_decimal }
      : { type: 'price_details', price_details: null, unit_amount_decimal: String(Math.round(p.amount / Math.max(1, p.quantity))) },
  });
  return o;
}

/** @param {{ amount: number, currency: string, customer: string, description?: string|null, metadata?: Obj }} p */
function paymentIntent(p) {
  const o = fixture('payment_intent');
  const id = newId('pi');
  Object.assign(o, {
    id,
    amount: p.amount,
    amount_capturable: 0,
    amount_received: 0,
    amount_details: { tip: {} },
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    client_secret: `${id}_secret_${random(25)}`,
    confirmation_method: 'automatic',
    created: now(),
    currency: p.currency,
    customer: p.customer,
    description: p.description ?? null,
    last_payment_error: null,
    latest_charge: null,
    metadata: p.metadata ?? {},
    next_action: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    processing: null,
    shipping: null,
    status: 'requires_payment_method',
    transfer_data: null,
    managed_payments: { enabled: false },
  });
  return o;
}

/** @param {{ pi: Obj, pm: Obj, succeeded: boolean, code?: string, decline_code?: string, message?: string }} p */
function charge(p) {
  const o = fixture('charge');
  const id = newId('ch');
  Object.assign(o, {
    id,
    amount: p.pi.amount,
    amount_captured: p.succeeded ? p.pi.amount : 0,
    amount_refunded: 0,
    balance_transaction: p.succeeded ? newId('txn') : null,
    billing_details: clone(p.pm.billing_details),
    calculated_statement_descriptor: 'BRANCHIFY',
    captured: p.succeeded,
    created: now(),
    currency: p.pi.currency,
    customer: p.pi.customer,
    description: p.pi.description,
    failure_code: p.succeeded ? null : (p.code ?? 'card_declined'),
    failure_message: p.succeeded ? null : (p.message ?? 'Your card was declined.'),
    fraud_details: {},
    metadata: {},
    outcome: p.succeeded
      ? {
          advice_code: null,
          network_advice_code: null,
          network_decline_code: null,
          network_status: 'approved_by_network',
          reason: null,
          risk_level: 'normal',
          risk_score: 20,
          seller_message: 'Payment complete.',
          type: 'authorized',
        }
      : {
          advice_code: 'try_again_later',
          network_advice_code: null,
          network_decline_code: null,
          network_status: 'declined_by_network',
          reason: p.decline_code ?? 'generic_decline',
          risk_level: 'normal',
          risk_score: 20,
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        },
    paid: p.succeeded,
    payment_intent: p.pi.id,
    payment_method: p.pm.id,
    receipt_url: p.succeeded ? `https://pay.stripe.com/receipts/payment/${random(40)}` : null,
    refunded: false,
    refunds: list([], `/v1/charges/${id}/refunds`),
    shipping: null,
    source: null,
    status: p.succeeded ? 'succeeded' : 'failed',
    transfer_data: null,
  });
  Object.assign(o.payment_method_details.card, {
    brand: p.pm.card.brand,
    last4: p.pm.card.last4,
    exp_month: p.pm.card.exp_month,
    exp_year: p.pm.card.exp_year,
    funding: p.pm.card.funding,
    fingerprint: p.pm.card.fingerprint,
    network: p.pm.card.brand,
    amount_authorized: p.succeeded ? p.pi.amount : null,
    wallet: null,
    installments: null,
  });
  return o;
}

/** @param {{ charge: Obj, amount: number, reason?: string|null, metadata?: Obj }} p */
function refund(p) {
  const o = fixture('refund');
  Object.assign(o, {
    id: newId('re'),
    amount: p.amount,
    balance_transaction: newId('txn'),
    charge: p.charge.id,
    created: now(),
    currency: p.charge.currency,
    customer: p.charge.customer,
    metadata: p.metadata ?? {},
    payment_intent: p.charge.payment_intent,
    payment_method: p.charge.payment_method,
    reason: p.reason ?? null,
    status: 'succeeded',
  });
  return o;
}

/** @param {{ invoice: Obj, pi: Obj }} p */
function invoicePayment(p) {
  const o = fixture('invoice_payment');
  Object.assign(o, {
    id: newId('inpay'),
    amount_paid: null,
    amount_requested: p.invoice.amount_due,
    created: now(),
    currency: p.invoice.currency,
    invoice: p.invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: p.pi.id },
    status: 'open',
    status_transitions: { canceled_at: null, paid_at: null },
  });
  return o;
}

/** @param {{ type: string, object: Obj, previous?: Obj|null, account?: string|null, request?: { id: string|null, idempotency_key: string|null } }} p */
function event(p) {
  const o = fixture('event');
  Object.assign(o, {
    id: newId('evt'),
    api_version: '2026-10-28.endive',
    created: now(),
    data: { object: clone(p.object), ...(p.previous ? { previous_attributes: clone(p.previous) } : {}) },
    livemode: false,
    pending_webhooks: 0,
    request: p.request ?? { id: null, idempotency_key: null },
    type: p.type,
  });
  if (p.account) o.account = p.account;
  return o;
}

/** @param {string} clientId */
function application(clientId) {
  return { ...fixture('application'), id: clientId, name: 'Branchify (test)' };
}

module.exports = {
  TEST_CARDS,
  TEST_CARD_NUMBERS,
  DECLINE_MESSAGES,
  clone,
  list,
  customer,
  paymentMethod,
  product,
  price,
  planOf,
  subscription,
  subscriptionItem,
  invoice,
  lineItem,
  invoiceItem,
  paymentIntent,
  charge,
  refund,
  invoicePayment,
  event,
  application,
};
