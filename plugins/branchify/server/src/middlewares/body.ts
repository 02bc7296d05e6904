import { MESSAGES } from '@branchify/shared';
import type { Context, Middleware } from 'koa';
import type { Next } from '../http/next';
import { bodyKind, bodyModes, isApiPath, WRITE_METHODS, type BodyRoute } from '../http/body-rules';
import { isContractPath, requestPath } from '../http/request-path';
import { failureBody, strapiFailureBody } from '../http/respond';
import routes from '../routes';
import { LATER_JSON, MULTIPART, RAW_BODY } from '../routes/define';
import { CMS_UPLOAD_ROUTES } from '../uploads/cms-uploads';
import type { Strapi } from '../utils/strapi';

type MiddlewareFactory = (config: Record<string, unknown> | undefined, context: { strapi: Strapi }) => Middleware;

/** The app's routes that read their body themselves (multipart, raw, JSON after their guards), and Strapi's /cms upload routes. */
const bodyRoutes = (): BodyRoute[] => {
  const own = routes['content-api'].routes.flatMap((route): BodyRoute[] => {
    const names = route.config.middlewares.map((m) => (typeof m === 'string' ? m : m.name));
    const modes = names.includes(RAW_BODY)
      ? (['raw'] as const)
      : [...(names.includes(MULTIPART) ? (['multipart'] as const) : []), ...(names.includes(LATER_JSON) ? (['json-later'] as const) : [])];
    return modes.length ? [{ method: route.method, path: `/api${route.path}`, modes }] : [];
  });
  return [...own, ...CMS_UPLOAD_ROUTES.map((r) => ({ method: r.method, path: `${r.prefix}${r.path}`, modes: ['multipart' as const] }))];
};

/**
 * The body parser: Strapi's strapi::body, wrapped (plugin register), before routing and authentication:
 * - multipart is left unread for the routes that parse it themselves after their authentication
 *   (the upload routes, Strapi's /cms upload routes) and refused everywhere else (415);
 * - /api writes take JSON, or nothing; any other body is refused (415) unread, so a browser
 *   form or a text/plain request from another site never reaches a handler;
 * - a route that verifies its body's signature (the Stripe webhook) gets it unread;
 * - a route whose JSON is costly to check (funnel saves and imports) gets it unread, and reads it
 *   once the caller has passed its authentication, rate limit and plan checks;
 * - everything else goes to Strapi's own parser (JSON, and forms and text outside /api).
 * A request whose body is left unread closes its connection once answered, so the rest of it is
 * never waited for.
 */
export const bodyGate =
  (strapiBody: MiddlewareFactory): MiddlewareFactory =>
  (config, { strapi }) => {
    const modeOf = bodyModes(bodyRoutes());
    // Strapi's own parser never sees multipart: it keeps the JSON, form and text parsing Strapi had.
    const parse = strapiBody({ ...config, multipart: false }, { strapi });

    const refuse = (ctx: Context, path: string, message: string) => {
      ctx.status = 415;
      ctx.body = isContractPath(path) ? failureBody(message) : strapiFailureBody(415, message);
    };

    return async (ctx: Context, next: Next) => {
      const path = requestPath(ctx).key;
      const kind = bodyKind(ctx.req.headers);
      const modes = modeOf(ctx.method, path);
      try {
        if (modes.includes('raw')) {
          ctx.request.body = {};
          return await next();
        }
        if (kind === 'multipart') {
          if (!modes.includes('multipart')) return refuse(ctx, path, MESSAGES.bodyMustBeJson);
          ctx.request.body = {};
          return await next();
        }
        if (kind === 'other' && isApiPath(path) && WRITE_METHODS.has(ctx.method)) {
          return refuse(ctx, path, modes.includes('multipart') ? MESSAGES.bodyMustBeJsonOrFiles : MESSAGES.bodyMustBeJson);
        }
        if (kind === 'json' && modes.includes('json-later')) {
          ctx.request.body = {};
          return await next();
        }
        await parse(ctx, next);
      } finally {
        if (!ctx.req.complete) ctx.set('Connection', 'close');
      }
    };
  };
