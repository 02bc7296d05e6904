import schema from './schema';

/** The content type as Strapi loads it. */
export default { schema };
