import {
  MESSAGES,
  currencyRule,
  type InvoiceResource,
  fitsCurrency,
  formatMoney,
  fromMinor,
  refundableMinor,
  messageTemplates,
  toMinor,
} from '@branchify/shared';
import { conflict, notFound, validationError } from '../http/errors';
import { query, UID } from '../utils/strapi';
import type { UserRecord } from '../content-types/users-permissions';
import type { SubscriptionRow } from '../content-types/subscription';
import type { InvoiceRow } from '../content-types/invoice';
import type { BillingContext } from './context';
import { customerOf, setCurrent } from './current';
import { isCardError } from './errors';
import type { InvoiceView } from './gateway';
import { refundState } from './mapping';
import { outcomeOf, type PaymentOutcome } from './outcome';
import { presentInvoice } from './present';
import { serialised } from './customer-lock';

export const invoicesOf = async (ctx: BillingContext, sub: SubscriptionRow): Promise<InvoiceRow[]> =>
  ctx.invoices().findMany({ where: { subscription_id: sub.id }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });

/** Every invoice of the user, of every subscription they had, newest first. */
export const invoicesOfUser = async (ctx: BillingContext, userId: number): Promise<InvoiceRow[]> =>
  ctx.invoices().findMany({ where: { user_id: userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });

/** Invoices as the API shows them, each with the plan it was for (recorded on it, else its subscription's). */
export const presentInvoices = async (ctx: BillingContext, rows: InvoiceRow[]): Promise<InvoiceResource[]> => {
  const unplanned = [...new Set(rows.filter((r) => !r.plan_id && r.subscription_id).map((r) => r.subscription_id!))];
  const subs = unplanned.length ? await ctx.subscriptions().findMany({ where: { id: { $in: unplanned } }, select: ['id', 'plan_id'] }) : [];
  const planOfSub = new Map(subs.map((s) => [s.id, s.plan_id]));
  const planIds = [
    ...new Set(rows.map((r) => r.plan_id ?? (r.subscription_id ? planOfSub.get(r.subscription_id) : undefined)).filter((id): id is number => Boolean(id))),
  ];
  const found = planIds.length ? await query(ctx.strapi, UID.plan).findMany({ where: { id: { $in: planIds } }, select: ['id', 'name'] }) : [];
  const byId = new Map(found.map((p) => [p.id, p]));
  return rows.map((row) => {
    const planId = row.plan_id ?? (row.subscription_id ? planOfSub.get(row.subscription_id) : undefined);
    return presentInvoice(row, (planId && byId.get(planId)) || null);
  });
};

export const findInvoice = async (ctx: BillingContext, sub: SubscriptionRow, invoiceId: string | number): Promise<InvoiceRow> => {
  const key = typeof invoiceId === 'number' || /^\d+$/.test(String(invoiceId)) ? { id: Number(invoiceId) } : { invoice_id: String(invoiceId) };
  const row = await ctx.invoices().findOne({ where: { ...key, subscription_id: sub.id } });
  if (!row) throw notFound();
  return row;
};

/** Pays an open invoice with the user's default card; success activates the subscription. */
export const payInvoice = async (ctx: BillingContext, user: UserRecord, sub: SubscriptionRow, invoice: InvoiceRow): Promise<PaymentOutcome> => {
  if (invoice.status !== 'open') throw conflict(MESSAGES.invoiceNotOpen);
  const g = await ctx.gateway();
  return ctx.forUser(user.id, 'user', (user) =>
    ctx.stripeCall(async () => {
      const customer = await customerOf(ctx, user, g);
      const card = await g.defaultCard(customer);
      if (!card) throw validationError({ payment_method_id: [MESSAGES.paymentMethodRequired] });
      return serialised(customer, async () => {
        let paid: InvoiceView;
        try {
          paid = await g.payInvoice(invoice.invoice_id!, card.id, `pay:${invoice.invoice_id}:${card.id}`);
        } catch (error) {
          if (!isCardError(error)) throw error;
          await ctx.sync().invoice(await g.retrieveInvoice(invoice.invoice_id!), { userId: user.id, subscriptionId: sub.id });
          return { kind: 'declined', subscription: sub };
        }
        await ctx.sync().invoice(paid, { userId: user.id, subscriptionId: sub.id });
        if (sub.stripe_subscription_id) {
          const row = (await ctx.sync().subscription(await g.retrieveSubscription(sub.stripe_subscription_id), { makeCurrent: true }))!;
          return outcomeOf(row, paid);
        }
        const status = paid.status === 'paid' ? 'active' : paid.payment_intent?.status === 'requires_action' ? 'pending' : 'payment_required';
        const row = await ctx.activating(async () => (await ctx.activation.update(sub.id, { status, payment_method_id: card.id }))!);
        await setCurrent(ctx, user.id, row.id);
        return outcomeOf(row, paid);
      });
    }),
  );
};

/**
 * Refunds: only a paid invoice, 0 < amount ≤ what is still unrefunded of it (the whole rest when
 * no amount is given). Partial refunds may follow each other until the total went back; the
 * invoice is 'refunded' only then and stays 'paid' (with the refunded amount) until then.
 */
export const refund = async (ctx: BillingContext, sub: SubscriptionRow, invoice: InvoiceRow, amount: number | undefined): Promise<InvoiceRow> => {
  if (invoice.status === 'refunded') throw conflict(MESSAGES.alreadyRefunded);
  if (invoice.status !== 'paid') throw validationError({ invoice_id: [MESSAGES.invoiceMayBePending] }, MESSAGES.invoiceMayBePending);
  const currency = invoice.currency ?? 'usd';
  const left = refundableMinor(invoice);
  if (left <= 0) throw conflict(MESSAGES.alreadyRefunded);
  if (amount !== undefined && amount <= 0) throw validationError({ refund_amount: [MESSAGES.refundAmountPositive] });
  if (amount !== undefined && !fitsCurrency(amount, currency)) {
    throw validationError({ refund_amount: [messageTemplates.tooManyDecimals('refund amount', currency, currencyRule(currency).decimals)] });
  }
  // Compared and sent in Stripe's minor units of the invoice's currency.
  const requested = amount === undefined ? left : toMinor(amount, currency);
  if (requested > toMinor(Number(invoice.amount ?? 0), currency)) throw validationError({ refund_amount: [MESSAGES.refundExceedsAmount] });
  if (requested > left) throw validationError({ refund_amount: [messageTemplates.refundExceedsRemaining(formatMoney(fromMinor(left, currency), currency))] });
  const before = toMinor(Number(invoice.amount_refunded ?? 0), currency);
  const g = await ctx.gateway();
  return ctx.stripeCall(async () => {
    const live = await g.retrieveInvoice(invoice.invoice_id!);
    if (!live.payment_intent) throw validationError({ invoice_id: [MESSAGES.invoiceMayBePending] }, MESSAGES.invoiceMayBePending);
    // One key per refund of this invoice: a retry is the same refund, the next partial refund a
    // new one. No amount asks Stripe for all that is left (also what a refund elsewhere left).
    const asked = amount === undefined ? undefined : requested;
    const refund = await g.refund(live.payment_intent.id, asked, `refund:${invoice.invoice_id}:${before}:${asked ?? 'rest'}`);
    ctx.strapi.log.info(`[billing] refunded ${refund.amount} ${refund.currency} of invoice ${invoice.invoice_id} (subscription ${sub.id})`);
    const after = before + refund.amount;
    return ctx.invoices().update({
      where: { id: invoice.id },
      data: { ...refundState(Number(invoice.amount ?? 0), after, currency) },
    });
  });
};
