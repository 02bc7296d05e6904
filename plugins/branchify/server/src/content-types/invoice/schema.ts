import { belongsTo, belongsToUser, date, defineSchema, int, money, str, text } from '../define';
import { UID } from '../uids';

export default defineSchema({
  collectionName: 'branchify_invoices',
  singularName: 'invoice',
  pluralName: 'invoices',
  displayName: 'Invoice',
  attributes: {
    user_id: int({ required: true }),
    subscription_id: int(),
    user: belongsToUser('user_id'),
    subscription: belongsTo(UID.subscription, 'subscription_id'),
    /** The plan the invoice was for, kept when the subscription later moves to another plan. */
    plan_id: int(),
    invoice_id: str(),
    number: str(),
    amount: money(),
    amount_refunded: money(),
    currency: str({ default: 'usd' }),
    status: str({ required: true, default: 'draft' }),
    paid_at: date(),
    hosted_invoice_url: text(),
  },
  indexes: [
    { name: 'branchify_invoices_user_idx', columns: ['user_id'] },
    { name: 'branchify_invoices_subscription_idx', columns: ['subscription_id'] },
    { name: 'branchify_invoices_stripe_uq', columns: ['invoice_id'], type: 'unique' },
  ],
});
