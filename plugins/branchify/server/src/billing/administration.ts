import { MESSAGES, type adminSubscribeSchema, type cancelSchema, type changeSchema } from '@branchify/shared';
import type { z } from 'zod';
import { notFound, validationError } from '../http/errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { PaymentOutcome } from './service';
import type { UserRecord } from '../content-types/users-permissions';
import type { InvoiceRow } from '../content-types/invoice';
import type { SubscriptionRow } from '../content-types/subscription';

type AdminSubscribe = z.output<typeof adminSubscribeSchema>;
type PlanChange = z.output<typeof changeSchema>;
type Cancellation = z.output<typeof cancelSchema>;

/** An admin never charges a card: an unpaid invoice is the user's to pay on login. */
const uncharged = (outcome: PaymentOutcome): PaymentOutcome => (outcome.kind === 'declined' ? { ...outcome, kind: 'awaiting_payment' } : outcome);

/** Subscriptions, invoices and refunds as an admin runs them for any user, one use-case per function. */
export default ({ strapi }: { strapi: Strapi }) => {
  const billing = () => getService(strapi, 'billing');

  const userById = async (id: number): Promise<UserRecord> => {
    const user = await getService(strapi, 'users').findRecord(id);
    if (!user) throw notFound();
    return user;
  };

  return {
    userById,

    /** The user's current subscription, or null; an unknown user is not found. */
    async currentFor(userId: number): Promise<SubscriptionRow | null> {
      return billing().currentOf(await userById(userId));
    },

    async subscribe(input: AdminSubscribe, actorId: number): Promise<PaymentOutcome> {
      const user = await userById(input.user_id);
      const outcome = await billing().subscribe(user, input, 'admin');
      strapi.log.info(`[billing] admin ${actorId} added plan ${input.plan_id} for user ${user.id} (${outcome.kind})`);
      return uncharged(outcome);
    },

    async change(user: UserRecord, sub: SubscriptionRow, input: PlanChange): Promise<PaymentOutcome> {
      return uncharged(await billing().change(user, sub, input, 'admin'));
    },

    /** An admin's cancellation states its reason. */
    async cancel(sub: SubscriptionRow, input: Cancellation, actorId: number): Promise<SubscriptionRow> {
      if (!input.reason) throw validationError({ cancellation_note: [MESSAGES.cancellationReasonRequired] });
      const row = await billing().cancel(sub, input, 'admin');
      strapi.log.info(`[billing] admin ${actorId} cancelled subscription ${sub.id}${input.immediately ? ' immediately' : ' at period end'}`);
      return row;
    },

    /** Refunds an invoice of the subscription, in full or the amount given. */
    async refund(sub: SubscriptionRow, invoiceId: string | number, amount: number | undefined, actorId: number): Promise<InvoiceRow> {
      const invoice = await billing().findInvoice(sub, invoiceId);
      const refunded = await billing().refund(sub, invoice, amount);
      strapi.log.info(`[billing] admin ${actorId} refunded invoice ${invoice.id}`);
      return refunded;
    },
  };
};
