import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { PaymentOutcome } from './service';
import type { UserRecord } from '../content-types/users-permissions';
import type { SubscriptionRow } from '../content-types/subscription';

/** What the signed-in user pays for themselves. */
export default ({ strapi }: { strapi: Strapi }) => ({
  /** An open invoice of the user's own subscription; another subscription's invoice is not found. */
  async payInvoice(user: UserRecord, sub: SubscriptionRow, invoiceId: string | number): Promise<PaymentOutcome> {
    const billing = getService(strapi, 'billing');
    return billing.payInvoice(user, sub, await billing.findInvoice(sub, invoiceId));
  },
});
