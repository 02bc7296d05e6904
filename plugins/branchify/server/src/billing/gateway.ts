import type { CardResource } from '@branchify/shared';
import { Stripe, type StripeClient } from './stripe-client';

/** The invoice fields billing reads, normalised across Stripe API versions. */
export interface InvoiceView {
  id: string;
  status: string;
  customer: string | null;
  subscription: string | null;
  total: number;
  amount_due: number;
  amount_paid: number;
  currency: string;
  created: number;
  billing_reason: string | null;
  number: string | null;
  hosted_invoice_url: string | null;
  metadata: Record<string, string>;
  payment_intent: { id: string; status: string; client_secret: string | null } | null;
}

export interface SubscriptionView {
  id: string;
  status: string;
  customer: string;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  current_period_end: number | null;
  item_id: string | null;
  price_id: string | null;
  metadata: Record<string, string>;
  latest_invoice: InvoiceView | null;
}

/** A card as the API shows it. */
export type CardView = CardResource;

/**
 * Fields older Stripe API versions still send, which the SDK's types (of its newest version) no
 * longer name: read when present, else their newer place.
 */
type SubscriptionAnyVersion = Stripe.Subscription & { current_period_end?: number | null };
type InvoiceAnyVersion = Stripe.Invoice & { subscription?: string | Stripe.Subscription | null; payment_intent?: string | Stripe.PaymentIntent | null };
/** A charge; `invoice` only on older API versions. */
export type ChargeView = Stripe.Charge & { invoice?: string | Stripe.Invoice | null };

const idOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : value && typeof value === 'object' && 'id' in value ? String(value.id) : null;

/** The metadata key naming the install that made a Stripe object. */
export const INSTALL_METADATA = 'branchify_install';

/**
 * The billing gateway: every Stripe call the product makes, with an idempotency key on every
 * mutation and `stripeAccount` on every call when a Connect account is linked. Keys and the
 * objects made carry the install's id: several installs may share one Stripe account, and each
 * one's user 1 or plan 1 is its own (a key without it would replay another install's answer).
 */
export class StripeGateway {
  constructor(
    private readonly stripe: StripeClient,
    private readonly stripeAccount: string | null,
    private readonly install: string,
  ) {}

  private opts(idempotencyKey?: string) {
    return {
      ...(this.stripeAccount ? { stripeAccount: this.stripeAccount } : {}),
      ...(idempotencyKey ? { idempotencyKey: `${this.install}:${idempotencyKey}` } : {}),
    };
  }

  /** Metadata of the objects this install makes: whose they are. */
  private tagged(metadata: Record<string, string>): Record<string, string> {
    return { ...metadata, [INSTALL_METADATA]: this.install };
  }

  /** A read any working secret key may make: answers when Stripe accepts the key, throws the SDK's error otherwise. */
  async checkKey(): Promise<void> {
    await this.stripe.customers.list({ limit: 1 }, this.opts());
  }

  async createCustomer(params: { email: string; name: string; userId: number }): Promise<string> {
    const customer = await this.stripe.customers.create(
      { email: params.email, name: params.name, metadata: this.tagged({ branchify_user_id: String(params.userId) }) },
      this.opts(`customer:${params.userId}`),
    );
    return customer.id;
  }

  async attachDefaultCard(customer: string, paymentMethod: string): Promise<CardView> {
    const pm = await this.stripe.paymentMethods.retrieve(paymentMethod, {}, this.opts());
    if (idOf(pm.customer) !== customer) {
      await this.stripe.paymentMethods.attach(paymentMethod, { customer }, this.opts(`attach:${customer}:${paymentMethod}`));
    }
    await this.stripe.customers.update(
      customer,
      { invoice_settings: { default_payment_method: paymentMethod } },
      this.opts(`default-pm:${customer}:${paymentMethod}`),
    );
    return this.card(pm);
  }

  async defaultCard(customer: string): Promise<CardView | null> {
    const c = await this.stripe.customers.retrieve(customer, { expand: ['invoice_settings.default_payment_method'] }, this.opts());
    // A deleted customer has no settings (and no card).
    const pm = 'invoice_settings' in c ? c.invoice_settings?.default_payment_method : null;
    if (!pm) return null;
    return this.card(typeof pm === 'string' ? await this.stripe.paymentMethods.retrieve(pm, {}, this.opts()) : pm);
  }

  private card(pm: Stripe.PaymentMethod): CardView {
    return {
      id: pm.id,
      brand: pm.card?.brand ?? null,
      last4: pm.card?.last4 ?? null,
      exp_month: pm.card?.exp_month ?? null,
      exp_year: pm.card?.exp_year ?? null,
    };
  }

  /** Mirrors a plan to a product and a price (a new price whenever amount, currency or schedule change). */
  async createPrice(plan: { id: number; name: string; amount: number; currency: string; interval: 'month' | 'year' | null; productId: string | null }) {
    const key = `plan:${plan.id}:${plan.amount}:${plan.currency}:${plan.interval ?? 'once'}`;
    const productId =
      plan.productId ??
      (await this.stripe.products.create({ name: plan.name, metadata: this.tagged({ branchify_plan_id: String(plan.id) }) }, this.opts(`product:${plan.id}`)))
        .id;
    const price = await this.stripe.prices.create(
      {
        product: productId,
        unit_amount: plan.amount,
        currency: plan.currency,
        ...(plan.interval ? { recurring: { interval: plan.interval } } : {}),
        metadata: this.tagged({ branchify_plan_id: String(plan.id) }),
      },
      this.opts(key),
    );
    return { productId, priceId: price.id };
  }

  /** What a price charges: its amount in minor units, currency and interval (null: one-time). */
  async retrievePrice(id: string): Promise<{ unit_amount: number | null; currency: string; interval: 'month' | 'year' | null }> {
    const price: Stripe.Price = await this.stripe.prices.retrieve(id, {}, this.opts());
    const interval = price.recurring?.interval;
    return {
      unit_amount: price.unit_amount ?? null,
      currency: price.currency,
      interval: interval === 'month' ? 'month' : interval === 'year' ? 'year' : null,
    };
  }

  async createSubscription(params: {
    customer: string;
    price: string;
    paymentMethod: string | null;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<SubscriptionView> {
    const sub = await this.stripe.subscriptions.create(
      {
        customer: params.customer,
        items: [{ price: params.price }],
        ...(params.paymentMethod ? { default_payment_method: params.paymentMethod } : {}),
        // Charge now when a card is there; otherwise leave the first invoice open for the user.
        payment_behavior: params.paymentMethod ? 'allow_incomplete' : 'default_incomplete',
        metadata: this.tagged(params.metadata),
      },
      this.opts(params.idempotencyKey),
    );
    return this.retrieveSubscription(sub.id);
  }

  async retrieveSubscription(id: string): Promise<SubscriptionView> {
    const sub: SubscriptionAnyVersion = await this.stripe.subscriptions.retrieve(id, {}, this.opts());
    const item = sub.items?.data?.[0] ?? null;
    const latestId = idOf(sub.latest_invoice);
    return {
      id: sub.id,
      status: sub.status,
      customer: idOf(sub.customer)!,
      cancel_at_period_end: Boolean(sub.cancel_at_period_end),
      canceled_at: sub.canceled_at ?? null,
      ended_at: sub.ended_at ?? null,
      current_period_end: item?.current_period_end ?? sub.current_period_end ?? null,
      item_id: item?.id ?? null,
      price_id: idOf(item?.price),
      metadata: sub.metadata ?? {},
      latest_invoice: latestId ? await this.retrieveInvoice(latestId) : null,
    };
  }

  /** Moves to another price, invoicing the difference now: charged when `charge`, else left open to pay. */
  async changePrice(
    sub: SubscriptionView,
    price: string,
    metadata: Record<string, string>,
    options: { charge: boolean; idempotencyKey: string },
  ): Promise<SubscriptionView> {
    await this.stripe.subscriptions.update(
      sub.id,
      {
        items: [{ id: sub.item_id!, price }],
        proration_behavior: 'always_invoice',
        cancel_at_period_end: false,
        payment_behavior: options.charge ? 'allow_incomplete' : 'default_incomplete',
        metadata: this.tagged(metadata),
      },
      this.opts(options.idempotencyKey),
    );
    return this.retrieveSubscription(sub.id);
  }

  async setCancelAtPeriodEnd(id: string, value: boolean, idempotencyKey: string): Promise<SubscriptionView> {
    await this.stripe.subscriptions.update(id, { cancel_at_period_end: value }, this.opts(idempotencyKey));
    return this.retrieveSubscription(id);
  }

  async cancelNow(id: string, idempotencyKey: string): Promise<SubscriptionView> {
    await this.stripe.subscriptions.cancel(id, {}, this.opts(idempotencyKey));
    return this.retrieveSubscription(id);
  }

  /** A one-time purchase: an invoice in the price's currency with its item, charged now when `charge` is set. */
  async createOneTimeInvoice(params: {
    customer: string;
    price: string;
    currency: string;
    paymentMethod: string | null;
    charge: boolean;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<InvoiceView> {
    const invoice = await this.stripe.invoices.create(
      {
        customer: params.customer,
        // Else the customer's (or the account's) currency, which an item in another currency does not fit.
        currency: params.currency.toLowerCase(),
        collection_method: 'charge_automatically',
        auto_advance: false,
        pending_invoice_items_behavior: 'exclude',
        metadata: this.tagged(params.metadata),
        ...(params.paymentMethod ? { default_payment_method: params.paymentMethod } : {}),
      },
      this.opts(`${params.idempotencyKey}:invoice`),
    );
    await this.stripe.invoiceItems.create(
      { customer: params.customer, invoice: invoice.id, pricing: { price: params.price } },
      this.opts(`${params.idempotencyKey}:item`),
    );
    await this.stripe.invoices.finalizeInvoice(invoice.id, {}, this.opts(`${params.idempotencyKey}:finalize`));
    if (params.charge) {
      try {
        return await this.payInvoice(invoice.id, params.paymentMethod, `${params.idempotencyKey}:pay`);
      } catch (error) {
        // A declined card leaves the invoice open for the user to pay with another card.
        if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
      }
    }
    return this.retrieveInvoice(invoice.id);
  }

  /** Pays an open invoice; a declined card throws (StripeCardError) after the attempt is recorded. */
  async payInvoice(id: string, paymentMethod: string | null, idempotencyKey: string): Promise<InvoiceView> {
    await this.stripe.invoices.pay(id, paymentMethod ? { payment_method: paymentMethod } : {}, this.opts(idempotencyKey));
    return this.retrieveInvoice(id);
  }

  /** Voids an open invoice nobody will pay (a purchase that was given up). */
  async voidInvoice(id: string, idempotencyKey: string): Promise<InvoiceView> {
    await this.stripe.invoices.voidInvoice(id, {}, this.opts(idempotencyKey));
    return this.retrieveInvoice(id);
  }

  async retrieveInvoice(id: string): Promise<InvoiceView> {
    const inv: InvoiceAnyVersion = await this.stripe.invoices.retrieve(id, {}, this.opts());
    return {
      id: inv.id,
      // Null only on an invoice preview, never on one retrieved.
      status: inv.status!,
      customer: idOf(inv.customer),
      subscription: idOf(inv.subscription) ?? idOf(inv.parent?.subscription_details?.subscription),
      total: inv.total ?? inv.amount_due ?? 0,
      amount_due: inv.amount_due ?? 0,
      amount_paid: inv.amount_paid ?? 0,
      currency: inv.currency,
      created: inv.created,
      billing_reason: inv.billing_reason ?? null,
      number: inv.number ?? null,
      hosted_invoice_url: inv.hosted_invoice_url ?? null,
      metadata: inv.metadata ?? {},
      payment_intent: await this.invoicePaymentIntent(inv),
    };
  }

  /** The invoice's payment intent: a field on older API versions, an invoice payment on newer ones. */
  private async invoicePaymentIntent(inv: InvoiceAnyVersion): Promise<InvoiceView['payment_intent']> {
    const intentOf = (payments: Stripe.InvoicePayment[] | undefined) => payments?.find((p) => p.payment?.payment_intent)?.payment?.payment_intent;
    let pi: string | Stripe.PaymentIntent | null | undefined = inv.payment_intent ?? intentOf(inv.payments?.data);
    if (!pi && inv.status !== 'draft') {
      try {
        pi = intentOf((await this.stripe.invoicePayments.list({ invoice: inv.id }, this.opts())).data);
      } catch {
        pi = null;
      }
    }
    const id = idOf(pi);
    if (!id) return null;
    const intent = pi && typeof pi === 'object' ? pi : await this.stripe.paymentIntents.retrieve(id, {}, this.opts());
    return { id, status: intent.status, client_secret: inv.confirmation_secret?.client_secret ?? intent.client_secret ?? null };
  }

  async refund(paymentIntent: string, amount: number | undefined, idempotencyKey: string) {
    return this.stripe.refunds.create({ payment_intent: paymentIntent, ...(amount ? { amount } : {}) }, this.opts(idempotencyKey));
  }

  async retrieveEvent(id: string) {
    return this.stripe.events.retrieve(id, {}, this.opts());
  }

  async listEventsSince(since: number) {
    const events: Stripe.Event[] = [];
    for await (const event of this.stripe.events.list({ created: { gte: since }, limit: 100 }, this.opts())) events.push(event);
    return events.reverse();
  }

  /**
   * The invoice a payment intent paid. Charges carry no `invoice` on current API versions; the
   * link is the invoice payment.
   */
  async invoiceIdForPaymentIntent(paymentIntent: string): Promise<string | null> {
    const payments = await this.stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentIntent }, limit: 1 }, this.opts());
    return idOf(payments.data?.[0]?.invoice);
  }

  async retrieveCharge(id: string): Promise<ChargeView> {
    return this.stripe.charges.retrieve(id, {}, this.opts());
  }
}

/** OAuth for Stripe Connect (platform credentials, never on behalf of an account); keys carry the install's id too. */
export class StripeConnect {
  constructor(
    private readonly stripe: StripeClient,
    private readonly install: string,
  ) {}

  authorizeUrl(params: { clientId: string; redirectUri: string; state: string }): string {
    return this.stripe.oauth.authorizeUrl({
      client_id: params.clientId,
      redirect_uri: params.redirectUri,
      state: params.state,
      scope: 'read_write',
      response_type: 'code',
    });
  }

  async exchange(code: string): Promise<{ accountId: string; publishableKey: string | null }> {
    // Keyed by the code (single-use at Stripe): a retried exchange replays instead of failing.
    const token = await this.stripe.oauth.token({ grant_type: 'authorization_code', code }, { idempotencyKey: `${this.install}:oauth-token:${code}` });
    return { accountId: token.stripe_user_id!, publishableKey: token.stripe_publishable_key ?? null };
  }

  async deauthorize(clientId: string, accountId: string): Promise<void> {
    await this.stripe.oauth.deauthorize(
      { client_id: clientId, stripe_user_id: accountId },
      { idempotencyKey: `${this.install}:oauth-deauthorize:${accountId}:${Date.now()}` },
    );
  }
}
