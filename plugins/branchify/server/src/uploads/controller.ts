import { MESSAGES } from '@branchify/shared';
import type { Context } from 'koa';
import { validationError } from '../http/errors';
import { created } from '../http/respond';
import { filesIn } from '../customization/upload-store';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import { IMAGE_FIELD } from './service';
import { signedInUser } from '../http/request-state';

/** Creator uploads: images for branch buttons and overlays. */
export default ({ strapi }: { strapi: Strapi }) => ({
  /** Multipart with exactly one file in `image`; answers the URL the funnel document stores. */
  async images(ctx: Context) {
    const user = signedInUser(ctx);
    const files = filesIn(ctx, IMAGE_FIELD);
    if (files.length !== 1) throw validationError({ [IMAGE_FIELD]: [MESSAGES.branchImageRequired] });
    const image = await getService(strapi, 'creator-images').store(user.id, files[0]!);
    strapi.log.info(`[uploads] user ${user.id} uploaded image ${image.id} (${image.size} bytes)`);
    created(ctx, { url: image.url });
  },
});
