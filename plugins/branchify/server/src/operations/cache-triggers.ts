import { afterCommit } from '../utils/durable-transaction';
import { getService } from '../utils/services';
import { UID, type Strapi } from '../utils/strapi';

/** User fields the public player depends on (may the owner publish?); a login's update bumps nothing. */
const USER_FIELDS = ['status', 'is_admin', 'subscription_id', 'blocked'];

const WATCHED: string[] = [UID.funnel, UID.video, UID.captionTrack, UID.subscription, UID.customization, UID.user];

type Event = { action: string; model: { uid: string }; params?: { data?: Record<string, unknown> } };

/**
 * Every write through Strapi's query layer to what the player payload is built from bumps the
 * 'player' cache version once its transaction has committed (once per transaction); every process
 * then drops its cached payloads (this one at once). Never inside the write's transaction: every
 * writer shares the version's row, and holding it while waiting for other rows deadlocks.
 */
export const bumpCachesOnWrites = (strapi: Strapi): void => {
  const bump = async (event: Event) => {
    const userUpdate = event.model.uid === UID.user && event.action.startsWith('afterUpdate');
    if (userUpdate && !Object.keys(event.params?.data ?? {}).some((k) => USER_FIELDS.includes(k))) return;
    await afterCommit(strapi, 'player-cache-version', async () => {
      const payloads = getService(strapi, 'player-payload');
      // This process at once, as the write commits (before anything can answer after it).
      payloads.invalidateAll();
      payloads.versionBumped(await getService(strapi, 'cache-versions').bump('player'));
    });
  };
  strapi.db.lifecycles.subscribe({
    models: WATCHED,
    afterCreate: bump,
    afterCreateMany: bump,
    afterUpdate: bump,
    afterUpdateMany: bump,
    afterDelete: bump,
    afterDeleteMany: bump,
  });
};
