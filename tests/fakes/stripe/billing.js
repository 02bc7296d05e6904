'use strict';
/**
 * What Stripe does behind the endpoints: customers and payment methods, products and prices,
 * subscriptions that invoice and charge, invoices (draft → open → paid | void), payment intents,
 * charges, refunds, and an event for every state change.
 */
const objects = require('./objects');
const { invalid, missing, cardError, StripeError } = require('./errors');
const { newId, now } = require('./ids');

/** @typedef {Record<string, any>} Obj */
/** @typedef {{ account: string|null, requestId: string|null, idempotencyKey: string|null }} Ctx */

const { clone, TEST_CARDS, TEST_CARD_NUMBERS, DECLINE_MESSAGES } = objects;
const DAY = 86_400;

/** Adds `count` intervals to a unix time (calendar months/years, like Stripe). */
function addInterval(/** @type {number} */ from, /** @type {string} */ interval, count = 1) {
  const d = new Date(from * 1000);
  if (interval === 'day') d.setUTCDate(d.getUTCDate() + count);
  else if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * count);
  else if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + count);
  else if (interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + count);
  return Math.floor(d.getTime() / 1000);
}

/**
 * Stripe's minor units per currency (docs.stripe.com/currencies): zero-decimal currencies count
 * whole units, three-decimal ones thousandths, everything else hundredths. ISK and UGX are charged
 * in whole units but still counted in hundredths (a multiple of 100); a three-decimal amount must
 * end in 0. Kept here on its own: this server plays Stripe, it does not share the app's table.
 */
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);
const WHOLE_IN_HUNDREDTHS = new Set(['isk', 'ugx']);
const exponentOf = (/** @type {string} */ currency) => (ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2);

const money = (/** @type {number} */ minor, /** @type {string} */ currency) => {
  const e = exponentOf(currency);
  return `${currency === 'usd' ? '$' : `${currency.toUpperCase()} `}${(minor / 10 ** e).toFixed(e)}`;
};

/** Refuses an amount Stripe would not charge in its currency, as Stripe does when a payment is made. */
const requireChargeable = (/** @type {number} */ amount, /** @type {string} */ currency, /** @type {string} */ param) => {
  if (WHOLE_IN_HUNDREDTHS.has(currency) && amount % 100 !== 0)
    throw invalid(
      `Invalid amount. Currency ${currency.toUpperCase()} has become effectively zero-decimal and charged amounts must be evenly divisible by 100. See https://stripe.com/docs/currencies#special-cases for more information.`,
      param,
      'invalid_charge_amount_no_decimal_compatible',
    );
  if (THREE_DECIMAL.has(currency) && amount % 10 !== 0)
    throw invalid(
      `Invalid amount. Amounts in ${currency.toUpperCase()} must be rounded to the nearest ten (the last digit must be 0). See https://stripe.com/docs/currencies#three-decimal for more information.`,
      param,
      'invalid_charge_amount',
    );
};

/** Stripe metadata semantics: merge; an empty string removes a key. */
function mergeMetadata(/** @type {Obj} */ current, /** @type {Obj|string|undefined} */ update) {
  if (update === undefined) return current;
  if (update === '') return {};
  const out = { ...current };
  for (const [k, v] of Object.entries(update ?? {})) {
    if (v === '') delete out[k];
    else out[k] = String(v);
  }
  return out;
}

const toInt = (/** @type {unknown} */ v, /** @type {string} */ param) => {
  if (v === undefined || v === '') return undefined;
  if (!/^-?\d+$/.test(String(v))) throw invalid(`Invalid integer: ${v}`, param);
  return Number(v);
};
const toBool = (/** @type {unknown} */ v, /** @type {string} */ param) => {
  if (v === undefined || v === '') return undefined;
  if (v === 'true' || v === true) return true;
  if (v === 'false' || v === false) return false;
  throw invalid(`Invalid boolean: ${v}`, param);
};

class Billing {
  /**
   * @param {import('./store').Store} store
   * @param {(event: Obj) => void} onEvent
   */
  constructor(store, onEvent) {
    this.store = store;
    this.onEvent = onEvent;
    /** @type {Ctx} who the current operation acts for (events carry it) */
    this.ctx = { account: null, requestId: null, idempotencyKey: null };
  }

  /** Runs `fn` on behalf of a request (or of the control API when ctx is empty). */
  within(/** @type {Partial<Ctx>} */ ctx, /** @type {() => any} */ fn) {
    const previous = this.ctx;
    this.ctx = { account: null, requestId: null, idempotencyKey: null, ...ctx };
    try {
      return fn();
    } finally {
      this.ctx = previous;
    }
  }

  /** Records an event (a snapshot of the object now) and hands it to the webhook queue. */
  emit(/** @type {string} */ type, /** @type {Obj} */ object, /** @type {Obj|null} */ previous = null) {
    const event = objects.event({
      type,
      object,
      previous,
      account: this.ctx.account,
      request: { id: this.ctx.requestId, idempotency_key: this.ctx.idempotencyKey },
    });
    this.store.put(event);
    this.store.events.push(event);
    this.onEvent(event);
    return event;
  }

  // ---------------------------------------------------------------- customers & payment methods

  customer(/** @type {string} */ id, param = 'id') {
    const c = this.store.get(id, 'customer');
    if (!c || c.deleted) throw missing('customer', id, param);
    return c;
  }

  createCustomer(/** @type {Obj} */ p) {
    const c = this.store.put(
      objects.customer({ email: p.email, name: p.name, phone: p.phone, description: p.description, metadata: mergeMetadata({}, p.metadata) }),
    );
    this.emit('customer.created', c);
    if (p.payment_method) {
      this.attachPaymentMethod(p.payment_method, c.id);
    }
    if (p.invoice_settings?.default_payment_method) {
      c.invoice_settings.default_payment_method = this.resolvePaymentMethod(
        p.invoice_settings.default_payment_method,
        c.id,
        'invoice_settings[default_payment_method]',
      ).id;
    }
    return c;
  }

  updateCustomer(/** @type {string} */ id, /** @type {Obj} */ p) {
    const c = this.customer(id);
    /** @type {Obj} */
    const previous = {};
    for (const field of ['email', 'name', 'phone', 'description']) {
      if (p[field] !== undefined) {
        previous[field] = c[field];
        c[field] = p[field] === '' ? null : p[field];
      }
    }
    if (p.metadata !== undefined) {
      previous.metadata = c.metadata;
      c.metadata = mergeMetadata(c.metadata, p.metadata);
    }
    if (p.invoice_settings && p.invoice_settings.default_payment_method !== undefined) {
      previous.invoice_settings = clone(c.invoice_settings);
      const pm = p.invoice_settings.default_payment_method;
      c.invoice_settings.default_payment_method = pm === '' ? null : this.resolvePaymentMethod(pm, c.id, 'invoice_settings[default_payment_method]').id;
    }
    this.emit('customer.updated', c, previous);
    return c;
  }

  /** The reusable, customer-less object a test card id (`pm_card_visa`) retrieves as. */
  testCard(/** @type {string} */ token) {
    let pm = this.store.get(token, 'payment_method');
    if (!pm) {
      pm = this.store.put(objects.paymentMethod(token, /** @type {any} */ (token), null));
      this.store.cardOf.set(token, token);
    }
    return pm;
  }

  /**
   * `POST /v1/payment_methods` as Stripe.js sends it from the card form (`type=card`, `card[number]`,
   * `card[exp_month]`, `card[exp_year]`, `card[cvc]`): one of Stripe's test card numbers becomes a new,
   * unattached payment method that behaves as that test card; any other number is refused as test mode does.
   */
  createPaymentMethod(/** @type {Obj} */ p) {
    if (p.type !== 'card')
      throw invalid(
        p.type ? `Invalid type: ${p.type}. The test server creates card payment methods only.` : 'Missing required param: type.',
        'type',
        p.type ? undefined : 'parameter_missing',
      );
    const card = p.card && typeof p.card === 'object' ? p.card : {};
    const number = String(card.number ?? '').replace(/[\s-]/g, '');
    if (!number) throw invalid('Missing required param: card[number].', 'card[number]', 'parameter_missing');
    const token = TEST_CARD_NUMBERS[number];
    if (!token) throw cardError({ code: 'incorrect_number', param: 'number', message: 'Your card number is incorrect.' });
    const expMonth = toInt(card.exp_month, 'card[exp_month]');
    const expYear = toInt(card.exp_year, 'card[exp_year]');
    if (expMonth !== undefined && (expMonth < 1 || expMonth > 12))
      throw cardError({ code: 'invalid_expiry_month', param: 'exp_month', message: "Your card's expiration month is invalid." });
    if (expYear !== undefined && expYear < new Date().getUTCFullYear())
      throw cardError({ code: 'invalid_expiry_year', param: 'exp_year', message: "Your card's expiration year is invalid." });
    if (card.cvc !== undefined && !/^\d{3,4}$/.test(String(card.cvc)))
      throw cardError({ code: 'invalid_cvc', param: 'cvc', message: "Your card's security code is invalid." });
    const pm = this.store.put(objects.paymentMethod(newId('pm'), token, null));
    if (expMonth !== undefined) pm.card.exp_month = expMonth;
    if (expYear !== undefined) pm.card.exp_year = expYear;
    if (p.metadata && typeof p.metadata === 'object') pm.metadata = mergeMetadata({}, p.metadata);
    this.store.cardOf.set(pm.id, token);
    return pm;
  }

  retrievePaymentMethod(/** @type {string} */ id) {
    if (id in TEST_CARDS) return this.testCard(id);
    const pm = this.store.get(id, 'payment_method');
    if (!pm) throw missing('PaymentMethod', id);
    return pm;
  }

  /** A new payment method made from a test card, attached to a customer (what Stripe does with test ids). */
  fromTestCard(/** @type {string} */ token, /** @type {string} */ customerId) {
    const pm = this.store.put(objects.paymentMethod(newId('pm'), /** @type {any} */ (token), customerId));
    this.store.cardOf.set(pm.id, token);
    this.store.tokenForCustomer.set(`${customerId}|${token}`, pm.id);
    this.emit('payment_method.attached', pm);
    return pm;
  }

  attachPaymentMethod(/** @type {string} */ id, /** @type {string} */ customerId) {
    const c = this.customer(customerId, 'customer');
    if (id in TEST_CARDS) return this.fromTestCard(id, c.id);
    const pm = this.retrievePaymentMethod(id);
    if (pm.customer && pm.customer !== c.id)
      throw invalid('The payment method you provided has already been attached to a customer.', 'payment_method', 'payment_method_unexpected_state');
    if (pm.customer !== c.id) {
      pm.customer = c.id;
      this.emit('payment_method.attached', pm);
    }
    return pm;
  }

  detachPaymentMethod(/** @type {string} */ id) {
    const pm = this.retrievePaymentMethod(id);
    if (!pm.customer)
      throw invalid(
        'The payment method you provided is not attached to a customer so detachment is impossible.',
        'payment_method',
        'payment_method_unexpected_state',
      );
    const customer = this.store.get(pm.customer, 'customer');
    pm.customer = null;
    if (customer && customer.invoice_settings.default_payment_method === pm.id) customer.invoice_settings.default_payment_method = null;
    this.emit('payment_method.detached', pm, { customer: customer?.id ?? null });
    return pm;
  }

  /**
   * A payment method the customer may be charged with: an attached one, or a test card id, which
   * stands for the card the customer attached from it (or becomes a newly attached one).
   */
  resolvePaymentMethod(/** @type {string} */ id, /** @type {string} */ customerId, /** @type {string} */ param) {
    if (id in TEST_CARDS) {
      const known = this.store.tokenForCustomer.get(`${customerId}|${id}`);
      const pm = known && this.store.get(known, 'payment_method');
      if (pm && pm.customer === customerId) return pm;
      return this.fromTestCard(id, customerId);
    }
    const pm = this.store.get(id, 'payment_method');
    if (!pm) throw missing('PaymentMethod', id, param);
    if (pm.customer !== customerId) {
      throw invalid(`The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`, param);
    }
    return pm;
  }

  /** The test card behaviour behind a payment method. */
  cardBehaviour(/** @type {Obj} */ pm) {
    const token = this.store.cardOf.get(pm.id) ?? 'pm_card_visa';
    return TEST_CARDS[/** @type {keyof typeof TEST_CARDS} */ (token)];
  }

  // ---------------------------------------------------------------- products & prices

  createProduct(/** @type {Obj} */ p) {
    if (!p.name) throw invalid('Missing required param: name.', 'name', 'parameter_missing');
    const product = this.store.put(
      objects.product({ name: p.name, description: p.description, metadata: mergeMetadata({}, p.metadata), active: toBool(p.active, 'active') }),
    );
    this.emit('product.created', product);
    return product;
  }

  createPrice(/** @type {Obj} */ p) {
    if (!p.currency) throw invalid('Missing required param: currency.', 'currency', 'parameter_missing');
    const amount = toInt(p.unit_amount, 'unit_amount');
    if (amount === undefined) throw invalid('Missing required param: unit_amount.', 'unit_amount', 'parameter_missing');
    if (amount < 0) throw invalid('This value must be greater than or equal to 0.', 'unit_amount');
    let productId = p.product;
    if (!productId && p.product_data) productId = this.createProduct(p.product_data).id;
    if (!productId) throw invalid('Missing required param: product.', 'product', 'parameter_missing');
    if (!this.store.get(productId, 'product')) throw missing('product', productId, 'product');
    let recurring = null;
    if (p.recurring) {
      if (!['day', 'week', 'month', 'year'].includes(p.recurring.interval))
        throw invalid(`Invalid recurring[interval]: must be one of day, month, week, or year`, 'recurring[interval]');
      recurring = { interval: p.recurring.interval, interval_count: toInt(p.recurring.interval_count, 'recurring[interval_count]') ?? 1 };
    }
    const price = this.store.put(
      objects.price({
        product: productId,
        unit_amount: amount,
        currency: String(p.currency).toLowerCase(),
        recurring,
        metadata: mergeMetadata({}, p.metadata),
        nickname: p.nickname,
        lookup_key: p.lookup_key,
      }),
    );
    const product = this.store.get(productId, 'product');
    if (product && !product.default_price) product.default_price = price.id;
    this.emit('price.created', price);
    return price;
  }

  price(/** @type {string} */ id, param = 'price') {
    const price = this.store.get(id, 'price');
    if (!price) throw missing('price', id, param);
    return price;
  }

  // ---------------------------------------------------------------- invoices

  invoice(/** @type {string} */ id, param = 'id') {
    const inv = this.store.get(id, 'invoice');
    if (!inv) throw missing('invoice', id, param);
    return inv;
  }

  recalc(/** @type {Obj} */ inv) {
    const subtotal = inv.lines.data.reduce((/** @type {number} */ sum, /** @type {Obj} */ l) => sum + l.amount, 0);
    Object.assign(inv, { subtotal, subtotal_excluding_tax: subtotal, total: subtotal, total_excluding_tax: subtotal, amount_due: Math.max(0, subtotal) });
    inv.amount_remaining = inv.amount_due - inv.amount_paid;
  }

  /** @param {Obj} inv @param {Omit<Parameters<typeof objects.lineItem>[0], 'invoice'|'currency'>} line */
  addLine(inv, line) {
    const l = objects.lineItem({ ...line, invoice: inv.id, currency: inv.currency });
    inv.lines.data.push(l);
    if (line.period.start < inv.period_start) inv.period_start = line.period.start;
    this.recalc(inv);
    return l;
  }

  createInvoice(/** @type {Obj} */ p) {
    if (!p.customer) throw invalid('Missing required param: customer.', 'customer', 'parameter_missing');
    const customer = this.customer(p.customer, 'customer');
    const sub = p.subscription ? this.subscription(p.subscription, 'subscription') : null;
    const pm = p.default_payment_method ? this.resolvePaymentMethod(p.default_payment_method, customer.id, 'default_payment_method').id : null;
    const inv = this.store.put(
      objects.invoice({
        customer,
        subscription: sub,
        billing_reason: 'manual',
        metadata: mergeMetadata({}, p.metadata),
        collection_method: p.collection_method,
        auto_advance: toBool(p.auto_advance, 'auto_advance') ?? false,
        default_payment_method: pm,
        description: p.description,
        currency: p.currency ?? customer.currency ?? 'usd',
      }),
    );
    if ((p.pending_invoice_items_behavior ?? 'exclude') === 'include') {
      for (const item of this.store.all('invoiceitem', (i) => i.customer === customer.id && !i.invoice).reverse()) this.invoiceItemOnto(inv, item);
    }
    this.emit('invoice.created', inv);
    return inv;
  }

  invoiceItemOnto(/** @type {Obj} */ inv, /** @type {Obj} */ item) {
    item.invoice = inv.id;
    const price = item.pricing?.price_details?.price ? this.store.get(item.pricing.price_details.price, 'price') : null;
    this.addLine(inv, {
      amount: item.amount,
      description: item.description ?? '',
      price,
      quantity: item.quantity,
      period: item.period,
      invoiceItem: item.id,
      proration: item.proration,
      subscription: item.parent?.subscription_details?.subscription ?? null,
      metadata: item.metadata,
    });
  }

  createInvoiceItem(/** @type {Obj} */ p) {
    if (!p.customer) throw invalid('Missing required param: customer.', 'customer', 'parameter_missing');
    const customer = this.customer(p.customer, 'customer');
    const inv = p.invoice ? this.invoice(p.invoice, 'invoice') : null;
    if (inv && inv.status !== 'draft')
      throw invalid(`You can only add invoice items to draft invoices. Invoice ${inv.id} is ${inv.status}.`, 'invoice', 'invoice_not_editable');
    if (inv && inv.customer !== customer.id) throw invalid('The invoice does not belong to this customer.', 'invoice');
    const priceId = p.pricing?.price ?? p.price;
    const price = priceId ? this.price(priceId, p.pricing?.price ? 'pricing[price]' : 'price') : null;
    const quantity = toInt(p.quantity, 'quantity') ?? 1;
    let amount = toInt(p.amount, 'amount');
    if (amount === undefined) {
      const unit = price ? price.unit_amount : toInt(p.unit_amount_decimal ?? p.unit_amount, 'unit_amount');
      if (unit === undefined) throw invalid('You must specify either `amount`, `pricing[price]` or `unit_amount_decimal`.', 'amount');
      amount = unit * quantity;
    }
    const currency = (price?.currency ?? p.currency ?? inv?.currency ?? 'usd').toLowerCase();
    if (inv && inv.currency !== currency)
      throw invalid(
        `The currency of this invoice item (${currency}) must match the currency of the invoice it is added to (${inv.currency}).`,
        price ? 'pricing[price]' : 'currency',
      );
    const product = price ? this.store.get(price.product, 'product') : null;
    const item = this.store.put(
      objects.invoiceItem({
        customer: customer.id,
        invoice: null,
        amount,
        currency,
        price,
        quantity,
        description: p.description ?? (product ? product.name : null),
        metadata: mergeMetadata({}, p.metadata),
        subscription: p.subscription ?? null,
      }),
    );
    if (inv) this.invoiceItemOnto(inv, item);
    this.emit('invoiceitem.created', item);
    return item;
  }

  /** The payment intent (and invoice payment) that collects an invoice. */
  paymentOf(/** @type {Obj} */ inv) {
    const payment = this.store.all('invoice_payment', (p) => p.invoice === inv.id && p.is_default)[0];
    return payment ? { payment, pi: this.store.get(payment.payment.payment_intent, 'payment_intent') } : null;
  }

  invoiceOfPaymentIntent(/** @type {string} */ piId) {
    const payment = this.store.all('invoice_payment', (p) => p.payment.payment_intent === piId)[0];
    return payment ? this.store.get(payment.invoice, 'invoice') : null;
  }

  finalizeInvoice(/** @type {Obj} */ inv) {
    if (inv.status !== 'draft')
      throw invalid("This invoice is already finalized, you can't re-finalize a non-draft invoice.", undefined, 'invoice_not_editable');
    const customer = this.customer(inv.customer);
    const t = now();
    this.recalc(inv);
    inv.number = `${customer.invoice_prefix}-${String(customer.next_invoice_sequence).padStart(4, '0')}`;
    customer.next_invoice_sequence += 1;
    inv.status = 'open';
    inv.status_transitions.finalized_at = t;
    inv.effective_at = t;
    inv.hosted_invoice_url = `https://invoice.stripe.com/i/acct_test/test_${inv.id.slice(3)}`;
    inv.invoice_pdf = `https://pay.stripe.com/invoice/acct_test/test_${inv.id.slice(3)}/pdf`;
    inv.ending_balance = 0;
    if (inv.collection_method === 'send_invoice') inv.due_date = t + 30 * DAY;
    if (inv.amount_due > 0) {
      requireChargeable(inv.amount_due, inv.currency, 'amount');
      const pi = this.store.put(
        objects.paymentIntent({
          amount: inv.amount_due,
          currency: inv.currency,
          customer: inv.customer,
          description:
            inv.billing_reason === 'subscription_create' ? 'Subscription creation' : inv.billing_reason === 'subscription_cycle' ? 'Subscription update' : null,
        }),
      );
      this.store.put(objects.invoicePayment({ invoice: inv, pi }));
      this.emit('payment_intent.created', pi);
    }
    this.emit('invoice.finalized', inv);
    if (inv.amount_due === 0) this.markPaid(inv);
    return inv;
  }

  /** An invoice is paid: its subscription, if this was what it waited for, becomes active. */
  markPaid(/** @type {Obj} */ inv) {
    const t = now();
    const previous = { status: inv.status, amount_paid: inv.amount_paid, amount_remaining: inv.amount_remaining };
    Object.assign(inv, { status: 'paid', amount_paid: inv.amount_due, amount_remaining: 0, attempted: true, next_payment_attempt: null });
    inv.status_transitions.paid_at = t;
    const found = this.paymentOf(inv);
    if (found) Object.assign(found.payment, { status: 'paid', amount_paid: inv.amount_due, status_transitions: { canceled_at: null, paid_at: t } });
    if (inv.total < 0) {
      const customer = this.customer(inv.customer);
      customer.balance += inv.total;
      inv.ending_balance = customer.balance;
    }
    this.emit('invoice.paid', inv, previous);
    this.emit('invoice.payment_succeeded', inv, previous);
    const subId = inv.parent?.subscription_details?.subscription;
    const sub = subId ? this.store.get(subId, 'subscription') : null;
    if (sub && sub.latest_invoice === inv.id && ['incomplete', 'past_due', 'unpaid'].includes(sub.status)) {
      const before = sub.status;
      sub.status = 'active';
      this.emit('customer.subscription.updated', sub, { status: before });
    }
  }

  /** The card to charge for an invoice when none is given: invoice → subscription → customer default. */
  defaultPaymentMethod(/** @type {Obj} */ inv) {
    const subId = inv.parent?.subscription_details?.subscription;
    const sub = subId ? this.store.get(subId, 'subscription') : null;
    const customer = this.customer(inv.customer);
    const id = inv.default_payment_method ?? sub?.default_payment_method ?? customer.invoice_settings.default_payment_method;
    return id ? (this.store.get(id, 'payment_method') ?? null) : null;
  }

  /**
   * Charges an open invoice's payment intent with a card. `force` overrides the card's own
   * behaviour (the control API's renewal outcomes).
   * @returns {{ outcome: 'succeeded'|'declined'|'requires_action', charge?: Obj, pi: Obj, card: Obj }}
   */
  attemptPayment(/** @type {Obj} */ inv, /** @type {Obj} */ pm, /** @type {'succeed'|'decline'|undefined} */ force = undefined) {
    const found = this.paymentOf(inv);
    if (!found?.pi) throw invalid('This invoice has no payment to collect.', 'invoice');
    const { pi } = found;
    const card = { ...this.cardBehaviour(pm) };
    if (force === 'succeed') card.behaviour = 'succeed';
    if (force === 'decline' && card.behaviour !== 'decline')
      Object.assign(card, { behaviour: 'decline', code: 'card_declined', decline_code: 'generic_decline' });
    inv.attempted = true;
    inv.attempt_count += 1;
    pi.payment_method = pm.id;
    if (card.behaviour === '3ds') {
      Object.assign(pi, {
        status: 'requires_action',
        last_payment_error: null,
        next_action: {
          type: 'use_stripe_sdk',
          use_stripe_sdk: {
            type: 'stripe_3ds2_fingerprint',
            three_d_secure_2_source: `payatt_${pi.id.slice(3)}`,
            directory_server_name: card.brand,
            server_transaction_id: newId('3ds'),
          },
        },
      });
      this.emit('payment_intent.requires_action', pi);
      this.emit('invoice.payment_action_required', inv);
      return { outcome: 'requires_action', pi, card };
    }
    if (card.behaviour === 'decline') {
      const message = DECLINE_MESSAGES[/** @type {keyof typeof DECLINE_MESSAGES} */ (card.decline_code)] ?? 'Your card was declined.';
      const ch = this.store.put(objects.charge({ pi, pm, succeeded: false, code: card.code, decline_code: card.decline_code, message }));
      Object.assign(pi, {
        status: 'requires_payment_method',
        latest_charge: ch.id,
        next_action: null,
        last_payment_error: {
          type: 'card_error',
          charge: ch.id,
          code: card.code,
          decline_code: card.decline_code,
          doc_url: `https://stripe.com/docs/error-codes/${card.code}`,
          message,
          payment_method: clone(pm),
        },
      });
      inv.next_payment_attempt = inv.billing_reason === 'subscription_cycle' ? now() + 3 * DAY : null;
      this.emit('charge.failed', ch);
      this.emit('payment_intent.payment_failed', pi);
      this.emit('invoice.payment_failed', inv);
      return { outcome: 'declined', charge: ch, pi, card };
    }
    const ch = this.store.put(objects.charge({ pi, pm, succeeded: true }));
    Object.assign(pi, { status: 'succeeded', amount_received: pi.amount, latest_charge: ch.id, next_action: null, last_payment_error: null });
    this.emit('charge.succeeded', ch);
    this.emit('payment_intent.succeeded', pi);
    this.markPaid(inv);
    return { outcome: 'succeeded', charge: ch, pi, card };
  }

  /** POST /v1/invoices/:id/pay — a decline or a needed 3-D Secure step answers 402 after the attempt is recorded. */
  payInvoice(/** @type {Obj} */ inv, /** @type {Obj} */ p) {
    if (inv.status === 'paid') throw invalid('Invoice is already paid', undefined, 'invoice_already_paid');
    if (inv.status === 'void' || inv.status === 'uncollectible')
      throw invalid(`You cannot pay an invoice with status ${inv.status}.`, undefined, 'invoice_not_editable');
    if (inv.status === 'draft') this.finalizeInvoice(inv);
    if (inv.status === 'paid') return inv;
    if (toBool(p.paid_out_of_band, 'paid_out_of_band')) {
      this.markPaid(inv);
      return inv;
    }
    const pm = p.payment_method ? this.resolvePaymentMethod(p.payment_method, inv.customer, 'payment_method') : this.defaultPaymentMethod(inv);
    if (!pm)
      throw invalid(
        'This customer has no attached payment source or default payment method. Please consider adding a default payment method.',
        undefined,
        'invoice_no_payment_method_types',
      );
    const result = this.attemptPayment(inv, pm);
    if (result.outcome === 'declined') {
      const err = result.pi.last_payment_error;
      throw cardError({
        code: err.code,
        decline_code: err.decline_code,
        message: err.message,
        charge: err.charge,
        doc_url: err.doc_url,
        payment_method: clone(pm),
      });
    }
    if (result.outcome === 'requires_action') {
      throw cardError({
        code: 'invoice_payment_intent_requires_action',
        message:
          'This payment requires additional user action before it can be completed successfully. Payment can be completed using the PaymentIntent associated with the invoice. For more details see: https://docs.stripe.com/billing/subscriptions/overview#requires-action',
        doc_url: 'https://stripe.com/docs/error-codes/invoice-payment-intent-requires-action',
        payment_intent: clone(result.pi),
      });
    }
    return inv;
  }

  voidInvoice(/** @type {Obj} */ inv) {
    if (inv.status !== 'open') throw invalid(`You can only void open invoices. This invoice is ${inv.status}.`, undefined, 'invoice_not_editable');
    inv.status = 'void';
    inv.status_transitions.voided_at = now();
    const found = this.paymentOf(inv);
    if (found?.pi && found.pi.status !== 'succeeded') {
      Object.assign(found.pi, { status: 'canceled', canceled_at: now(), cancellation_reason: 'void_invoice' });
      found.payment.status = 'canceled';
      this.emit('payment_intent.canceled', found.pi);
    }
    this.emit('invoice.voided', inv);
    return inv;
  }

  // ---------------------------------------------------------------- subscriptions

  subscription(/** @type {string} */ id, param = 'id') {
    const sub = this.store.get(id, 'subscription');
    if (!sub) throw missing('subscription', id, param);
    return sub;
  }

  describeLine(/** @type {Obj} */ price, quantity = 1) {
    const product = this.store.get(price.product, 'product');
    return `${quantity} × ${product?.name ?? price.product} (at ${money(price.unit_amount, price.currency)}${price.recurring ? ` / ${price.recurring.interval}` : ''})`;
  }

  /** Creates, finalizes and (unless told not to) charges a subscription invoice. */
  subscriptionInvoice(
    /** @type {Obj} */ sub,
    /** @type {string} */ reason,
    /** @type {(inv: Obj) => void} */ addLines,
    /** @type {{ charge: boolean, force?: 'succeed'|'decline' }} */ how,
  ) {
    const customer = this.customer(sub.customer);
    const inv = this.store.put(objects.invoice({ customer, subscription: sub, billing_reason: reason, currency: sub.currency, auto_advance: true }));
    addLines(inv);
    this.emit('invoice.created', inv);
    sub.latest_invoice = inv.id;
    this.finalizeInvoice(inv);
    /** @type {ReturnType<Billing['attemptPayment']> | null} */
    let result = null;
    if (inv.status === 'open' && how.charge) {
      const pm = this.defaultPaymentMethod(inv);
      if (pm) result = this.attemptPayment(inv, pm, how.force);
    }
    return { inv, result };
  }

  createSubscription(/** @type {Obj} */ p) {
    if (!p.customer) throw invalid('Missing required param: customer.', 'customer', 'parameter_missing');
    const customer = this.customer(p.customer, 'customer');
    const items = Array.isArray(p.items) ? p.items : [];
    if (!items.length) throw invalid('Missing required param: items.', 'items', 'parameter_missing');
    const prices = items.map((/** @type {Obj} */ item, /** @type {number} */ i) => {
      if (!item.price) throw invalid(`Missing required param: items[${i}][price].`, `items[${i}][price]`, 'parameter_missing');
      const price = this.price(item.price, `items[${i}][price]`);
      if (!price.recurring)
        throw invalid('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', `items[${i}][price]`);
      return { price, quantity: toInt(item.quantity, `items[${i}][quantity]`) ?? 1 };
    });
    const behaviour = p.payment_behavior ?? 'allow_incomplete';
    if (!['allow_incomplete', 'default_incomplete', 'error_if_incomplete', 'pending_if_incomplete'].includes(behaviour))
      throw invalid(`Invalid payment_behavior: ${behaviour}`, 'payment_behavior');
    const pm = p.default_payment_method ? this.resolvePaymentMethod(p.default_payment_method, customer.id, 'default_payment_method').id : null;
    const sub = objects.subscription({
      customer: customer.id,
      metadata: mergeMetadata({}, p.metadata),
      default_payment_method: pm,
      collection_method: p.collection_method,
      description: p.description,
    });
    const start = sub.start_date;
    const end = addInterval(start, prices[0].price.recurring.interval, prices[0].price.recurring.interval_count);
    sub.currency = prices[0].price.currency;
    sub.items.data = prices.map(({ price, quantity }) =>
      Object.assign(objects.subscriptionItem(price, sub.id, start, addInterval(start, price.recurring.interval, price.recurring.interval_count)), { quantity }),
    );
    sub.cancel_at_period_end = toBool(p.cancel_at_period_end, 'cancel_at_period_end') ?? false;
    if (sub.cancel_at_period_end) sub.cancel_at = end;
    this.store.put(sub);
    this.emit('customer.subscription.created', sub);

    const { inv, result } = this.subscriptionInvoice(
      sub,
      'subscription_create',
      (i) => {
        for (const si of sub.items.data) {
          this.addLine(i, {
            amount: si.price.unit_amount * si.quantity,
            description: this.describeLine(si.price, si.quantity),
            price: si.price,
            quantity: si.quantity,
            period: { start, end: si.current_period_end },
            subscription: sub.id,
            subscriptionItem: si.id,
          });
        }
      },
      { charge: behaviour !== 'default_incomplete' },
    );
    if (inv.status === 'paid' && sub.status === 'incomplete') {
      sub.status = 'active';
      this.emit('customer.subscription.updated', sub, { status: 'incomplete' });
    }
    if (behaviour === 'error_if_incomplete' && inv.status !== 'paid') {
      const err = result?.pi.last_payment_error;
      Object.assign(sub, { status: 'incomplete_expired', ended_at: now() });
      this.voidInvoice(inv);
      throw err
        ? cardError({ code: err.code, decline_code: err.decline_code, message: err.message, charge: err.charge })
        : invalid('This customer has no attached payment source or default payment method.', 'default_payment_method');
    }
    return sub;
  }

  /** Changes items (with proration), cancel_at_period_end, metadata, default payment method. */
  updateSubscription(/** @type {Obj} */ sub, /** @type {Obj} */ p) {
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      const allowed = Object.keys(p).every((k) => ['metadata', 'cancellation_details', 'expand'].includes(k));
      if (!allowed) throw invalid('A canceled subscription can only update its cancellation_details and metadata.', undefined, 'resource_missing');
    }
    /** @type {Obj} */
    const previous = {};
    const t = now();
    if (p.metadata !== undefined) {
      previous.metadata = sub.metadata;
      sub.metadata = mergeMetadata(sub.metadata, p.metadata);
    }
    if (p.default_payment_method !== undefined) {
      previous.default_payment_method = sub.default_payment_method;
      sub.default_payment_method =
        p.default_payment_method === '' ? null : this.resolvePaymentMethod(p.default_payment_method, sub.customer, 'default_payment_method').id;
    }
    const cancelAtEnd = toBool(p.cancel_at_period_end, 'cancel_at_period_end');
    if (cancelAtEnd !== undefined && cancelAtEnd !== sub.cancel_at_period_end) {
      Object.assign(previous, { cancel_at_period_end: sub.cancel_at_period_end, cancel_at: sub.cancel_at, canceled_at: sub.canceled_at });
      sub.cancel_at_period_end = cancelAtEnd;
      sub.cancel_at = cancelAtEnd ? sub.items.data[0].current_period_end : null;
      sub.canceled_at = cancelAtEnd ? t : null;
      sub.cancellation_details = { comment: null, feedback: null, reason: cancelAtEnd ? 'cancellation_requested' : null };
    }
    if (Array.isArray(p.items) && p.items.length) {
      previous.items = clone(sub.items);
      this.changeItems(sub, p.items, p.proration_behavior ?? 'create_prorations', p.payment_behavior ?? 'allow_incomplete');
    }
    if (Object.keys(previous).length) this.emit('customer.subscription.updated', sub, previous);
    return sub;
  }

  changeItems(/** @type {Obj} */ sub, /** @type {Obj[]} */ changes, /** @type {string} */ proration, /** @type {string} */ behaviour) {
    const t = now();
    /** @type {Array<{ amount: number, description: string, price: Obj, period: { start: number, end: number }, item: Obj, proration: boolean }>} */
    const lines = [];
    let resetAnchor = false;
    changes.forEach((change, i) => {
      const item = change.id ? sub.items.data.find((/** @type {Obj} */ s) => s.id === change.id) : null;
      if (change.id && !item) throw invalid(`Invalid subscription_item id: ${change.id}`, `items[${i}][id]`);
      if (!change.price) return;
      const price = this.price(change.price, `items[${i}][price]`);
      if (!price.recurring)
        throw invalid('The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', `items[${i}][price]`);
      if (!item) throw invalid('Adding items to a subscription is not supported by this test server; pass items[][id].', `items[${i}][id]`);
      const old = item.price;
      if (old.id === price.id) return;
      const start = item.current_period_start;
      const end = item.current_period_end;
      const total = Math.max(1, end - start);
      const remaining = Math.max(0, end - t);
      const unused = Math.round((old.unit_amount * item.quantity * remaining) / total);
      const intervalChanged = old.recurring.interval !== price.recurring.interval || old.recurring.interval_count !== price.recurring.interval_count;
      if (proration !== 'none' && unused > 0) {
        lines.push({
          amount: -unused,
          description: `Unused time on ${this.describeLine(old, item.quantity).replace(/^\d+ × /, '')} after ${new Date(t * 1000).toDateString()}`,
          price: old,
          period: { start: t, end },
          item,
          proration: true,
        });
      }
      item.price = clone(price);
      item.plan = objects.planOf(price);
      if (intervalChanged) {
        // A new interval restarts the billing cycle now, billed in full.
        resetAnchor = true;
        item.current_period_start = t;
        item.current_period_end = addInterval(t, price.recurring.interval, price.recurring.interval_count);
        lines.push({
          amount: price.unit_amount * item.quantity,
          description: this.describeLine(price, item.quantity),
          price,
          period: { start: t, end: item.current_period_end },
          item,
          proration: false,
        });
      } else if (proration !== 'none') {
        lines.push({
          amount: Math.round((price.unit_amount * item.quantity * remaining) / total),
          description: `Remaining time on ${this.describeLine(price, item.quantity).replace(/^\d+ × /, '')} after ${new Date(t * 1000).toDateString()}`,
          price,
          period: { start: t, end },
          item,
          proration: true,
        });
      }
    });
    if (resetAnchor) sub.billing_cycle_anchor = t;
    if (sub.cancel_at_period_end) sub.cancel_at = sub.items.data[0].current_period_end;
    if (!lines.length) return;
    if (proration === 'always_invoice' || resetAnchor) {
      const { inv } = this.subscriptionInvoice(
        sub,
        'subscription_update',
        (i) => {
          for (const l of lines)
            this.addLine(i, {
              amount: l.amount,
              description: l.description,
              price: l.price,
              quantity: l.item.quantity,
              period: l.period,
              subscription: sub.id,
              subscriptionItem: l.item.id,
              proration: l.proration,
            });
        },
        { charge: behaviour !== 'default_incomplete' },
      );
      if (inv.status === 'open' && sub.status === 'active' && behaviour !== 'default_incomplete') sub.status = 'past_due';
    } else {
      for (const l of lines) {
        const item = this.store.put(
          objects.invoiceItem({
            customer: sub.customer,
            invoice: null,
            amount: l.amount,
            currency: l.price.currency,
            price: l.price,
            quantity: l.item.quantity,
            description: l.description,
            metadata: {},
            subscription: sub.id,
            proration: true,
            period: l.period,
          }),
        );
        this.emit('invoiceitem.created', item);
      }
    }
  }

  cancelSubscription(/** @type {Obj} */ sub, /** @type {Obj} */ p = {}) {
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      throw invalid(`No such subscription: '${sub.id}'; it has already been canceled.`, 'id', 'resource_missing');
    }
    const t = now();
    const previous = { status: sub.status, canceled_at: sub.canceled_at, ended_at: sub.ended_at };
    Object.assign(sub, { status: 'canceled', canceled_at: t, ended_at: t, cancel_at: null });
    sub.cancellation_details = {
      comment: p.cancellation_details?.comment ?? null,
      feedback: p.cancellation_details?.feedback ?? null,
      reason: 'cancellation_requested',
    };
    this.emit('customer.subscription.deleted', sub, previous);
    return sub;
  }

  /** The control API's clock: the next billing period starts and its invoice is charged (or declined). */
  advance(/** @type {Obj} */ sub, /** @type {'paid'|'declined'} */ outcome) {
    if (!['active', 'past_due', 'trialing', 'unpaid'].includes(sub.status))
      throw invalid(`Subscription ${sub.id} is ${sub.status}; only active or past_due subscriptions renew.`);
    if (sub.cancel_at_period_end) {
      const t = now();
      const previous = { status: sub.status };
      Object.assign(sub, { status: 'canceled', ended_at: t });
      this.emit('customer.subscription.deleted', sub, previous);
      return { subscription: sub, invoice: null };
    }
    const previous = { items: clone(sub.items), latest_invoice: sub.latest_invoice, status: sub.status };
    for (const item of sub.items.data) {
      item.current_period_start = item.current_period_end;
      item.current_period_end = addInterval(item.current_period_start, item.price.recurring.interval, item.price.recurring.interval_count);
    }
    const { inv } = this.subscriptionInvoice(
      sub,
      'subscription_cycle',
      (i) => {
        for (const si of sub.items.data) {
          this.addLine(i, {
            amount: si.price.unit_amount * si.quantity,
            description: this.describeLine(si.price, si.quantity),
            price: si.price,
            quantity: si.quantity,
            period: { start: si.current_period_start, end: si.current_period_end },
            subscription: sub.id,
            subscriptionItem: si.id,
          });
        }
      },
      { charge: true, force: outcome === 'paid' ? 'succeed' : 'decline' },
    );
    if (inv.status !== 'paid') sub.status = 'past_due';
    else if (sub.status !== 'active') sub.status = 'active';
    if (previous.status === sub.status) delete (/** @type {Obj} */ (previous).status);
    this.emit('customer.subscription.updated', sub, previous);
    return { subscription: sub, invoice: inv };
  }

  /** The control API's bank: the customer passed 3-D Secure for this payment intent. */
  completeThreeDSecure(/** @type {string} */ piId) {
    const pi = this.store.get(piId, 'payment_intent');
    if (!pi) throw missing('payment_intent', piId);
    if (pi.status !== 'requires_action') throw invalid(`PaymentIntent ${piId} is ${pi.status}, not requires_action.`);
    const pm = this.store.get(pi.payment_method, 'payment_method');
    const ch = this.store.put(objects.charge({ pi, pm, succeeded: true }));
    ch.payment_method_details.card.three_d_secure = {
      authentication_flow: 'challenge',
      electronic_commerce_indicator: '05',
      exemption_indicator: null,
      result: 'authenticated',
      result_reason: null,
      transaction_id: newId('3ds'),
      version: '2.2.0',
    };
    Object.assign(pi, { status: 'succeeded', amount_received: pi.amount, latest_charge: ch.id, next_action: null, last_payment_error: null });
    this.emit('charge.succeeded', ch);
    this.emit('payment_intent.succeeded', pi);
    const inv = this.invoiceOfPaymentIntent(pi.id);
    if (inv && inv.status === 'open') this.markPaid(inv);
    return pi;
  }

  // ---------------------------------------------------------------- refunds

  createRefund(/** @type {Obj} */ p) {
    let ch;
    if (p.charge) {
      ch = this.store.get(p.charge, 'charge');
      if (!ch) throw missing('charge', p.charge, 'charge');
    } else if (p.payment_intent) {
      const pi = this.store.get(p.payment_intent, 'payment_intent');
      if (!pi) throw missing('payment_intent', p.payment_intent, 'payment_intent');
      ch = pi.latest_charge ? this.store.get(pi.latest_charge, 'charge') : null;
      if (!ch || ch.status !== 'succeeded')
        throw invalid(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`, 'payment_intent', 'charge_not_refundable');
    } else {
      throw invalid('One of the following params should be provided for this request: payment_intent or charge.', undefined, 'parameter_missing');
    }
    if (ch.status !== 'succeeded') throw invalid(`Charge ${ch.id} has not succeeded and cannot be refunded.`, 'charge', 'charge_not_refundable');
    if (ch.refunded) throw invalid(`Charge ${ch.id} has already been refunded.`, 'charge', 'charge_already_refunded');
    const left = ch.amount - ch.amount_refunded;
    const amount = toInt(p.amount, 'amount') ?? left;
    if (amount <= 0) throw invalid('Invalid positive integer', 'amount');
    requireChargeable(amount, ch.currency, 'amount');
    if (amount > left)
      throw invalid(
        `Refund amount (${money(amount, ch.currency)}) is greater than unrefunded amount on charge (${money(left, ch.currency)})`,
        'amount',
        'amount_too_large',
      );
    const refund = this.store.put(objects.refund({ charge: ch, amount, reason: p.reason ?? null, metadata: mergeMetadata({}, p.metadata) }));
    const previous = { amount_refunded: ch.amount_refunded, refunded: ch.refunded };
    ch.amount_refunded += amount;
    ch.refunded = ch.amount_refunded >= ch.amount;
    ch.refunds.data.unshift(clone(refund));
    this.emit('refund.created', refund);
    this.emit('charge.refunded', ch, previous);
    return refund;
  }

  // ---------------------------------------------------------------- Connect

  oauthToken(/** @type {Obj} */ p) {
    const oauthError = (/** @type {string} */ error, /** @type {string} */ description) =>
      new StripeError(400, /** @type {any} */ ({ type: 'invalid_request_error', message: description, error, error_description: description }));
    if (p.grant_type !== 'authorization_code') throw oauthError('unsupported_grant_type', `Unsupported grant type: ${p.grant_type}`);
    if (!p.code || !/^ac_/.test(p.code)) throw oauthError('invalid_grant', `Authorization code does not exist: ${p.code}`);
    if (this.store.usedCodes.has(p.code)) throw oauthError('invalid_grant', `Authorization code already used: ${p.code}`);
    this.store.usedCodes.add(p.code);
    const id = newId('acct', 16);
    const publishableKey = `pk_test_${newId('x').slice(2)}`;
    this.store.accounts.set(id, { id, publishableKey, authorized: true, clientId: this.store.clientId });
    return {
      access_token: `sk_test_${newId('x').slice(2)}`,
      livemode: false,
      refresh_token: `rt_${newId('x').slice(2)}`,
      scope: 'read_write',
      stripe_publishable_key: publishableKey,
      stripe_user_id: id,
      token_type: 'bearer',
    };
  }

  /** The app lost access to a connected account (the platform's deauthorize, or the account owner's). */
  deauthorize(/** @type {string} */ accountId, /** @type {string|null} */ clientId) {
    const account = this.store.accounts.get(accountId);
    if (!account || !account.authorized) return null;
    account.authorized = false;
    if (clientId) this.store.clientId = clientId;
    this.within({ account: accountId }, () =>
      this.emit('account.application.deauthorized', objects.application(clientId ?? account.clientId ?? this.store.clientId ?? 'ca_test_platform')),
    );
    return account;
  }
}

module.exports = { Billing, mergeMetadata, toInt };
