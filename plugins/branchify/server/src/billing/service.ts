import type { Strapi } from '../utils/strapi';
import { cancel, resume } from './cancel-resume';
import { paymentMethod, setPaymentMethod } from './cards';
import { change, setRenewal } from './change-plan';
import { closeAccount, removeRowsOf } from './close-account';
import { ensureConstraints } from './constraints';
import { billingContext, type BillingContext } from './context';
import { currentOf } from './current';
import { findInvoice, invoicesOf, invoicesOfUser, payInvoice, presentInvoices, refund } from './invoices';
import { mirrorPlan, subscriberCount, subscriberCounts } from './plans';
import { subscribe } from './subscribe';

export type { PaymentOutcome } from './outcome';

/** A use-case with the context given: what callers of the service see. */
const withContext =
  (ctx: BillingContext) =>
  <A extends unknown[], R>(useCase: (ctx: BillingContext, ...args: A) => R) =>
  (...args: A): R =>
    useCase(ctx, ...args);

/**
 * Plans, subscriptions, invoices and refunds, one module per use-case around one shared context
 * (billing/context.ts). Stripe is reached only through the gateway; every state we store comes
 * from a freshly read Stripe object through the sync service, the same path the webhooks take.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const ctx = billingContext(strapi);
  const use = withContext(ctx);
  return {
    gateway: ctx.gateway,
    currentOf: use(currentOf),
    mirrorPlan: use(mirrorPlan),
    subscribe: use(subscribe),
    change: use(change),
    cancel: use(cancel),
    resume: use(resume),
    setRenewal: use(setRenewal),
    closeAccount: use(closeAccount),
    removeRowsOf: use(removeRowsOf),
    subscriberCount: use(subscriberCount),
    subscriberCounts: use(subscriberCounts),
    ensureConstraints: use(ensureConstraints),
    invoicesOf: use(invoicesOf),
    invoicesOfUser: use(invoicesOfUser),
    presentInvoices: use(presentInvoices),
    findInvoice: use(findInvoice),
    payInvoice: use(payInvoice),
    refund: use(refund),
    paymentMethod: use(paymentMethod),
    setPaymentMethod: use(setPaymentMethod),
  };
};
