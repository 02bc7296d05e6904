import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import type { UserRecord } from '../content-types/users-permissions';
import { durableTransaction } from '../utils/durable-transaction';

/**
 * Deleting an account: billing at Stripe ends first (refused while it cannot), then everything the
 * user owned goes in one transaction: funnels with their analytics, the library, uploaded images,
 * subscriptions and invoices, sessions and reset links, and the user row. Both run under the
 * user's billing lock, so no billing action lands in between. The image files are deleted once
 * that has committed (a file store is not part of the transaction).
 */
export default ({ strapi }: { strapi: Strapi }) => ({
  async remove(user: UserRecord): Promise<void> {
    const images = await getService(strapi, 'billing').closeAccount(user, () =>
      durableTransaction(strapi, async () => {
        await getService(strapi, 'funnels').removeAllOf(user.id);
        await getService(strapi, 'videos').removeAllOf(user.id);
        const detached = await getService(strapi, 'creator-images').detachAllOf(user.id);
        await getService(strapi, 'billing').removeRowsOf(user.id);
        await getService(strapi, 'tokens').deleteAllForUser(user.id);
        await getService(strapi, 'links').deleteAllForUser(user.id);
        await query(strapi, UID.user).delete({ where: { id: user.id } });
        return detached;
      }),
    );
    await getService(strapi, 'creator-images').deleteFiles(images);
    if (images.length) strapi.log.info(`[users] deleted ${images.length} uploaded image(s) of user ${user.id}`);
    // Their funnels stop loading at once on this node.
    getService(strapi, 'player-payload').invalidateAll();
  },
});
