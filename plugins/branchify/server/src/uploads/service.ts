import { CONTENT_LIMITS, messageTemplates } from '@branchify/shared';
import { deleteImages, storeImage, type ImageRules, type IncomingFile } from '../customization/upload-store';
import { query, UID, type Strapi } from '../utils/strapi';
import type { CreatorImageRow } from '../content-types/creator-image';

/** Branch button and overlay images: the spec's branch image limit, with its own sentence. */
export const BRANCH_IMAGE_RULES: ImageRules = { maxKb: CONTENT_LIMITS.branchImageKb, tooLarge: messageTemplates.imageTooLarge(CONTENT_LIMITS.branchImageKb) };

/** The rate limit every stored image counts against (uploads, video thumbnails, imported images). */
export const IMAGE_UPLOAD_LIMIT = 'image-upload';

/** The multipart field the image comes in. */
export const IMAGE_FIELD = 'image';

/** Images creators upload for their funnels, each recorded against its owner. */
export default ({ strapi }: { strapi: Strapi }) => {
  const images = () => query(strapi, UID.creatorImage);

  return {
    /** Validates and stores the file, then records it; a file whose row cannot be written is deleted again. */
    async store(ownerId: number, file: IncomingFile): Promise<CreatorImageRow> {
      const stored = await storeImage(strapi, IMAGE_FIELD, file, BRANCH_IMAGE_RULES);
      try {
        return await images().create({ data: { owner_id: ownerId, url: stored.url, size: stored.size, file_id: stored.fileId } });
      } catch (error) {
        await deleteImages(strapi, [stored]);
        throw error;
      }
    },

    /**
     * An image an import embedded: the owner's image with the same bytes when an earlier import
     * stored one (`created` false), else stored as an upload is and recorded with its hash.
     */
    async storeImported(ownerId: number, file: IncomingFile, sha256: string): Promise<{ row: CreatorImageRow; created: boolean }> {
      const existing = await images().findOne({ where: { owner_id: ownerId, content_hash: sha256 } });
      // Reused: touched, so the unused-image sweep leaves it for another grace period.
      if (existing) return { row: await images().update({ where: { id: existing.id }, data: { updatedAt: new Date() } }), created: false };
      const stored = await storeImage(strapi, IMAGE_FIELD, file, BRANCH_IMAGE_RULES);
      try {
        return {
          row: await images().create({ data: { owner_id: ownerId, url: stored.url, size: stored.size, file_id: stored.fileId, content_hash: sha256 } }),
          created: true,
        };
      } catch (error) {
        await deleteImages(strapi, [stored]);
        throw error;
      }
    },

    /** Deletes one of the owner's images (row and file); a URL that is not one of theirs is left alone. */
    async release(ownerId: number, url: string): Promise<void> {
      const rows = await images().findMany({ where: { owner_id: ownerId, url } });
      if (!rows.length) return;
      await images().deleteMany({ where: { owner_id: ownerId, url } });
      await deleteImages(
        strapi,
        rows.map((r) => ({ url: r.url, fileId: r.file_id ?? null })),
      );
    },

    /** The pixel size of one of the owner's stored images, when the upload plugin recorded it (null otherwise). */
    async dimensions(ownerId: number, url: string): Promise<{ width: number; height: number } | null> {
      const row = await images().findOne({ where: { owner_id: ownerId, url }, select: ['id', 'file_id'] });
      if (!row?.file_id || !strapi.plugin('upload')) return null;
      const file = (await strapi.db.query('plugin::upload.file').findOne({ where: { id: row.file_id }, select: ['id', 'width', 'height'] })) as {
        width?: number | null;
        height?: number | null;
      } | null;
      return file?.width && file.height ? { width: Number(file.width), height: Number(file.height) } : null;
    },

    /**
     * Deletes an owner's rows (inside the caller's transaction, when there is one) and returns
     * what they pointed at, for `deleteFiles` once that transaction has committed.
     */
    async detachAllOf(ownerId: number): Promise<CreatorImageRow[]> {
      const rows = await images().findMany({ where: { owner_id: ownerId } });
      if (rows.length) await images().deleteMany({ where: { owner_id: ownerId } });
      return rows;
    },

    async deleteFiles(rows: readonly CreatorImageRow[]): Promise<void> {
      await deleteImages(
        strapi,
        rows.map((r) => ({ url: r.url, fileId: r.file_id ?? null })),
      );
    },
  };
};
