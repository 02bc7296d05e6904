import { presentSubscription } from '../billing/records';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import { serializeUser, type UserRecord } from './serialize';

/**
 * Presents a user with their current subscription and its plan, which the client routes on after
 * login.
 */
export default ({ strapi }: { strapi: Strapi }) => ({
  async present(user: UserRecord) {
    if (!user.subscription_id) return serializeUser(user, null);
    const row = await query(strapi, UID.subscription).findOne({ where: { id: user.subscription_id, user_id: user.id } });
    if (!row) return serializeUser(user, null);
    return serializeUser(user, presentSubscription(row, await getService(strapi, 'plans').find(row.plan_id)));
  },
});
