import { MESSAGES } from '@branchify/shared';
import type { MultipartConfig } from '../middlewares/multipart';
import { MULTIPART } from '../routes/define';
import type { Strapi } from '../utils/strapi';

const MB = 1024 * 1024;

/** Media library uploads: up to 20 files and 200 MB a request (the limit Strapi's own parser had). */
const LIBRARY: MultipartConfig = {
  fields: () => ({ files: { maxBytes: 200 * MB, maxFiles: 20, tooLarge: MESSAGES.requestTooLarge, tooMany: MESSAGES.requestTooLarge } }),
  maxFilesBytes: 200 * MB,
  strapiErrors: true,
};

/** The /cms project settings' logos: one each, at most the 1 MB Strapi accepts. */
const PROJECT_SETTINGS: MultipartConfig = {
  fields: () => {
    const logo = { maxBytes: MB, maxFiles: 1, tooLarge: MESSAGES.requestTooLarge, tooMany: MESSAGES.requestTooLarge };
    return { menuLogo: logo, authLogo: logo };
  },
  strapiErrors: true,
};

interface CmsUploadRoute {
  /** Whose routes: the upload plugin's or Strapi's admin's (both served under their prefix). */
  owner: 'upload' | 'admin';
  method: 'POST';
  prefix: string;
  path: string;
  config: MultipartConfig;
}

/** Strapi's /cms routes that take files (operators use them from the Media Library and Settings). */
export const CMS_UPLOAD_ROUTES: readonly CmsUploadRoute[] = [
  { owner: 'upload', method: 'POST', prefix: '/upload', path: '/', config: LIBRARY },
  { owner: 'upload', method: 'POST', prefix: '/upload', path: '/files', config: LIBRARY },
  { owner: 'upload', method: 'POST', prefix: '/upload', path: '/files/:id/replace', config: LIBRARY },
  { owner: 'admin', method: 'POST', prefix: '/admin', path: '/project-settings', config: PROJECT_SETTINGS },
];

interface RouteLike {
  method: string;
  path: string;
  config?: { middlewares?: unknown[] };
}

/**
 * Gives Strapi's /cms upload routes the app's multipart parser as a route middleware, so their
 * files are read only once Strapi's own admin authentication and policies have passed, within
 * limits, and removed after the request. Runs at register, before Strapi composes its routes.
 */
export const parseCmsUploadsAfterAuth = (strapi: Strapi): void => {
  const routersOf = (owner: CmsUploadRoute['owner']) =>
    (owner === 'admin' ? strapi.admin?.routes : strapi.plugin('upload')?.routes) as Record<string, unknown> | undefined;
  for (const wanted of CMS_UPLOAD_ROUTES) {
    const routes = Object.values(routersOf(wanted.owner) ?? {}).flatMap((router) => {
      const list = (router as { routes?: unknown }).routes;
      return Array.isArray(list) ? (list as RouteLike[]) : [];
    });
    const route = routes.find((r) => r.method === wanted.method && r.path === wanted.path);
    if (!route) {
      // A Strapi upgrade moved it: multipart there is then read by nobody (its handler sees no files).
      strapi.log.warn(`[uploads] Strapi route ${wanted.method} ${wanted.prefix}${wanted.path} not found; it takes no files`);
      continue;
    }
    const middlewares = route.config?.middlewares ?? [];
    if (middlewares.some((m) => (m as { name?: string }).name === MULTIPART)) continue;
    route.config = { ...route.config, middlewares: [...middlewares, { name: MULTIPART, config: wanted.config }] };
  }
};
