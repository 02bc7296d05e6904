import { FUNNEL_IMPORT_LIMITS, MESSAGES, messageTemplates } from '@branchify/shared';
import { route } from '../routes/define';
import { IMPORT_FIELD } from './import-body';

const USER_AREA = { verified: true };
const INGEST = { name: 'ingest', budget: 'ingest' as const };
/** The funnel must be the caller's before a save's body is read. */
const OWN_FUNNEL = 'plugin::branchify.own-funnel-guard';
/** The plan must allow one more funnel before an import's file is read. */
const IMPORT_ALLOWED = 'plugin::branchify.funnel-import-guard';

export default [
  route('GET', '/funnels', 'funnels.index', { auth: USER_AREA }),
  route('POST', '/funnels', 'funnels.create', { auth: USER_AREA }),
  route('GET', '/funnels/:id', 'funnels.show', { auth: USER_AREA }),
  // A save's document is checked on a worker thread, once the caller passed its limits.
  route('PUT', '/funnels/:id', 'funnels.update', {
    auth: USER_AREA,
    rateLimit: { name: 'funnel-save', account: 'user', budget: 'edit' },
    jsonLater: { guard: OWN_FUNNEL },
  }),
  route('DELETE', '/funnels/:id', 'funnels.destroy', { auth: USER_AREA }),
  route('GET', '/funnels/:id/duplicate', 'funnels.duplicate', { auth: USER_AREA }),
  // Exports stream their images from storage; each account has the uploads' budget.
  route('GET', '/funnels/:id/export', 'funnels.exportFile', { auth: USER_AREA, rateLimit: { name: 'funnel-export', account: 'user', budget: 'upload' } }),
  // An import stores images and adds videos: each account has the image uploads' budget, and the
  // file (JSON, or one .json file) is read only once the caller passed it and their plan allows
  // one more funnel; it is checked on a worker thread.
  route('POST', '/funnels/import', 'funnels.importFile', {
    auth: USER_AREA,
    rateLimit: { name: 'funnel-import', account: 'user', budget: 'upload' },
    jsonLater: { guard: IMPORT_ALLOWED },
    multipart: {
      fields: () => ({
        [IMPORT_FIELD]: {
          maxBytes: FUNNEL_IMPORT_LIMITS.maxFileBytes,
          maxFiles: 1,
          tooLarge: messageTemplates.importFileTooLarge(FUNNEL_IMPORT_LIMITS.maxFileBytes / (1024 * 1024)),
          tooMany: MESSAGES.importFileRequired,
        },
      }),
    },
  }),
  route('POST', '/funnels/:id/analytics', 'analytics.report', { auth: USER_AREA }),
  route('GET', '/funnels/:id/analytics.csv', 'analytics.reportCsv', { auth: USER_AREA }),

  // Public: what the player needs, by the funnel's unguessable reference.
  route('GET', '/funnels/:reference/player', 'funnels.player'),
  route('POST', '/funnels/:reference/views', 'analytics.startView', { rateLimit: INGEST }),
  route('PUT', '/funnels/:reference/views', 'analytics.updateView', { rateLimit: INGEST }),
  route('POST', '/funnels/:reference/interactions', 'analytics.interactions', { rateLimit: INGEST }),
];
