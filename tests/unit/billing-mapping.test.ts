import type { InvoiceView, SubscriptionView } from '../../plugins/branchify/server/src/billing/gateway';
import { localState } from '../../plugins/branchify/server/src/billing/mapping';
import { grantsAccess } from '@branchify/shared';

const now = new Date('2026-11-22T12:00:00Z');
const periodEnd = Math.floor(new Date('2026-12-22T12:00:00Z').getTime() / 1000);

const invoice = (status: string, piStatus?: string): InvoiceView => ({
  id: 'in_1',
  status,
  customer: 'cus_1',
  subscription: 'sub_1',
  total: 1999,
  amount_due: 1999,
  amount_paid: status === 'paid' ? 1999 : 0,
  currency: 'usd',
  created: 0,
  billing_reason: 'subscription_create',
  number: null,
  hosted_invoice_url: null,
  metadata: {},
  payment_intent: piStatus ? { id: 'pi_1', status: piStatus, client_secret: 'pi_1_secret' } : null,
});

const sub = (overrides: Partial<SubscriptionView>): SubscriptionView => ({
  id: 'sub_1',
  status: 'active',
  customer: 'cus_1',
  cancel_at_period_end: false,
  canceled_at: null,
  ended_at: null,
  current_period_end: periodEnd,
  item_id: 'si_1',
  price_id: 'price_1',
  metadata: {},
  latest_invoice: invoice('paid', 'succeeded'),
  ...overrides,
});

describe('Stripe subscription → Branchify status', () => {
  it('is active only with a paid invoice', () => {
    expect(localState(sub({}), now)).toMatchObject({ status: 'active', canceled_at: null });
    expect(localState(sub({ latest_invoice: invoice('open', 'requires_payment_method') }), now).status).toBe('payment_required');
  });

  it('waits on 3-D Secure as pending, on a declined card as payment_required', () => {
    expect(localState(sub({ status: 'incomplete', latest_invoice: invoice('open', 'requires_action') }), now).status).toBe('pending');
    expect(localState(sub({ status: 'incomplete', latest_invoice: invoice('open', 'requires_payment_method') }), now).status).toBe('payment_required');
  });

  it('maps a failed renewal', () => {
    expect(localState(sub({ status: 'past_due', latest_invoice: invoice('open', 'requires_payment_method') }), now).status).toBe('failed_renewal');
    expect(localState(sub({ status: 'unpaid' }), now).status).toBe('failed_renewal');
  });

  it('waits for payment when an unpaid plan change (not a renewal) made it past_due', () => {
    const change = { ...invoice('open', 'requires_payment_method'), billing_reason: 'subscription_update' };
    expect(localState(sub({ status: 'past_due', latest_invoice: change }), now).status).toBe('payment_required');
    expect(
      localState(sub({ status: 'past_due', latest_invoice: { ...change, payment_intent: { id: 'pi_1', status: 'requires_action', client_secret: 's' } } }), now)
        .status,
    ).toBe('pending');
  });

  it('turns cancel-at-period-end into canceled with a grace period until the period ends', () => {
    const state = localState(sub({ cancel_at_period_end: true }), now);
    expect(state.status).toBe('canceled');
    expect(state.canceled_at?.getTime()).toBe(periodEnd * 1000);
    expect(grantsAccess(state, now)).toBe(true);
    expect(grantsAccess(state, new Date(periodEnd * 1000 + 1000))).toBe(false);
  });

  it('ends access at once when canceled immediately', () => {
    const ended = Math.floor(now.getTime() / 1000) - 5;
    const state = localState(sub({ status: 'canceled', ended_at: ended, canceled_at: ended }), now);
    expect(state.status).toBe('canceled');
    expect(grantsAccess(state, now)).toBe(false);
  });
});
