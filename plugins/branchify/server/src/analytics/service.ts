import type { Strapi } from '../utils/strapi';
import { counterBuilds } from './counter-builds';
import { deleteForFunnels } from './maintenance';
import { viewProgress } from './progress';
import { eventRecording } from './recording';
import { funnelReports } from './report';
import { storedEvents } from './stored';

/**
 * Views and interactions: recorded through group-committing writers with the per-day counters kept
 * with them (recording.ts), views moved on by the player's progress (progress.ts), stored events
 * read back for ingest (stored.ts), counters built where rows lack them (counter-builds.ts), a funnel's analytics removed
 * (maintenance.ts), and the report (report.ts).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const recording = eventRecording(strapi);
  const progress = viewProgress(strapi);
  const stored = storedEvents(strapi);
  const builds = counterBuilds(strapi);
  const reports = funnelReports(strapi, { ensureCounters: builds.ensureCounters });

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
    prepareBuilds: builds.prepare,
    ensureCounters: builds.ensureCounters,
    startBuilds: builds.start,
    stopBuilds: builds.stop,
    deleteForFunnels,

    // The report
    report: reports.report,
  };
};
