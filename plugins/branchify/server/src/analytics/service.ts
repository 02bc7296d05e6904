import type { Strapi } from '../utils/strapi';
import { analyticsMaintenance } from './maintenance';
import { viewProgress } from './progress';
import { eventRecording } from './recording';
import { funnelReports } from './report';
import { storedEvents } from './stored';

/**
 * Views and interactions: recorded through group-committing writers with the per-day counters kept
 * with them (recording.ts), views moved on by the player's progress (progress.ts), stored events
 * read back for ingest (stored.ts), counters built where missing and a funnel's analytics removed
 * (maintenance.ts), and the report (report.ts).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const recording = eventRecording(strapi);
  const progress = viewProgress(strapi);
  const stored = storedEvents(strapi);
  const maintenance = analyticsMaintenance(strapi);
  const reports = funnelReports(strapi, { ensureCounters: maintenance.ensureCounters });

  return {
    // Ingest
    newViewerToken: stored.newViewerToken,
    lastViewState: stored.lastViewState,
    startView: recording.startView,
    updateView: progress.updateView,
    recordInteractions: recording.recordInteractions,
    storedView: stored.storedView,
    storedInteractions: stored.storedInteractions,
    dropped: recording.dropped,
    drain: recording.drain,

    // Counters and removal
    ensureCounters: maintenance.ensureCounters,
    deleteForFunnels: maintenance.deleteForFunnels,

    // The report
    report: reports.report,
  };
};
