import { countElements, MESSAGES, type FunnelDocument, type FunnelSettings } from '@branchify/shared';
import { validationError, type FieldErrors } from '../http/errors';
import { isForeignKeyViolation } from '../utils/db-errors';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { settingsOf, variablesOf } from './present';
import { distinctTitle } from './titles';
import type { UserRecord } from '../content-types/users-permissions';
import type { FunnelRow } from '../content-types/funnel';

interface FunnelMeta {
  title: string;
  description: string;
  settings: FunnelSettings;
}

/**
 * What a creator does to their funnels, one use-case per function. Every change that the player
 * shows drops the funnel's cached player payload.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const funnels = () => getService(strapi, 'funnels');
  const limits = () => getService(strapi, 'plan-limits');
  const player = () => getService(strapi, 'player-payload');

  /** The plan's funnel limit, checked on the count taken inside the creating transaction. */
  const withinLimit = (user: UserRecord) => (count: number) => limits().assert(user, { kind: 'funnels', count });

  /** Every video of the document must be in the user's library (422 on each one that is not). */
  const refuseVideosOutsideLibrary = async (userId: number, doc: FunnelDocument): Promise<void> => {
    const owned = new Set(
      (
        await getService(strapi, 'videos').findMany(
          userId,
          doc.videos.map((v) => v.id),
        )
      ).map((v) => v.id),
    );
    const errors: FieldErrors = {};
    doc.videos.forEach((v, i) => {
      if (!owned.has(v.id)) errors[`videos.${i}.id`] = [MESSAGES.videoNotInLibrary];
    });
    if (Object.keys(errors).length) throw validationError(errors);
  };

  return {
    async create(user: UserRecord, input: FunnelMeta): Promise<FunnelRow> {
      const funnel = await funnels().createCounted(user.id, input, withinLimit(user));
      strapi.log.info(`[funnels] user ${user.id} created funnel ${funnel.id}`);
      return funnel;
    },

    /** Title, description and settings (the update-funnel modal), leaving the videos as they are. */
    async updateMeta(funnel: FunnelRow, input: FunnelMeta): Promise<FunnelRow> {
      const updated = await funnels().updateMeta(funnel, input);
      player().invalidate(funnel.identifier);
      return updated;
    },

    /** The editor's save: every video must be in the user's library and the elements within the plan. */
    async save(user: UserRecord, funnel: FunnelRow, doc: FunnelDocument): Promise<FunnelRow> {
      await refuseVideosOutsideLibrary(user.id, doc);
      await limits().assert(user, { kind: 'elements', branches: countElements(doc.videos, 'branch'), texts: countElements(doc.videos, 'text') });
      let saved: FunnelRow;
      try {
        saved = await funnels().saveDocument(funnel, doc);
      } catch (error) {
        // A video deleted since the check: the database refused the link, and the save is undone.
        if (!isForeignKeyViolation(error)) throw error;
        await refuseVideosOutsideLibrary(user.id, doc);
        throw error;
      }
      player().invalidate(funnel.identifier);
      strapi.log.info(`[funnels] user ${user.id} saved funnel ${funnel.id} (version ${saved.version})`);
      return saved;
    },

    /** A copy counts against the plan's funnel limit like a new funnel; its title is the first free copy title. */
    async duplicate(user: UserRecord, source: FunnelRow): Promise<FunnelRow> {
      return funnels().createCounted(
        user.id,
        async () => ({
          title: await distinctTitle(strapi, user.id, source.title),
          description: source.description ?? '',
          settings: settingsOf(source),
          videos: source.videos ?? [],
          variables: variablesOf(source),
        }),
        withinLimit(user),
      );
    },

    async remove(funnel: FunnelRow, userId: number): Promise<void> {
      await funnels().remove(funnel);
      player().invalidate(funnel.identifier);
      strapi.log.info(`[funnels] user ${userId} deleted funnel ${funnel.id}`);
    },
  };
};
