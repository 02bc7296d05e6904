import type { Strapi } from '../utils/strapi';
import { BatchWriter } from './batch-writer';
import { codeOf, isRefusedValue } from '../utils/db-errors';
import { DropLog, type DropReason } from './integrity';
import { countInteractions, countViews, viewsOf } from './counting';
import { inTransaction, INTERACTIONS, VIEWS } from './store';
import type { FunnelViewInsert } from '../content-types/funnel-view';
import type { FunnelInteractionInsert } from '../content-types/funnel-interaction';

/** A view just started has reported no progress: no duration is needed to count it. */
const NO_DURATIONS: ReadonlyMap<string, number | null> = new Map();

interface PendingView {
  row: FunnelViewInsert;
  root: string | null;
}

/** An interaction as ingest hands it over (the funnel and the timestamps are added here). */
export type InteractionEvent = Omit<FunnelInteractionInsert, 'funnel_id' | 'counted' | 'created_at' | 'updated_at'>;

/**
 * A batch of views: stored once per client-generated id (the unique index decides), and only the
 * rows this transaction stored are counted — a retried event is neither stored nor counted twice.
 */
const writeViews =
  (strapi: Strapi) =>
  async (pending: PendingView[]): Promise<PendingView[]> =>
    inTransaction(strapi, async (trx) => {
      const inserted: Array<{ event_id: string }> = await trx(VIEWS)
        .insert(pending.map((p) => p.row))
        .onConflict('event_id')
        .ignore()
        .returning(['event_id']);
      const fresh = new Set(inserted.map((r) => r.event_id));
      const stored = pending.filter((p) => fresh.has(p.row.event_id));
      await countViews(
        trx,
        stored.map(({ row, root }) => ({ ...row, editor_id: null, progress: {}, root, durations: NO_DURATIONS })),
      );
      return stored;
    });

/**
 * A batch of interactions with their counters. An interaction is stored only in a view stored for
 * its funnel: the batch's views are read once, before the insert (the counters need them anyway),
 * and a row without one is left out and put in `viewless` for its caller.
 */
const writeInteractions =
  (strapi: Strapi, viewless: WeakSet<FunnelInteractionInsert>) =>
  async (rows: FunnelInteractionInsert[]): Promise<FunnelInteractionInsert[]> =>
    inTransaction(strapi, async (trx) => {
      const views = await viewsOf(trx, rows);
      const owned = rows.filter((r) => {
        const ok = r.view_id !== null && views.get(r.view_id)?.funnel_id === r.funnel_id;
        if (!ok) viewless.add(r);
        return ok;
      });
      if (!owned.length) return [];
      const inserted: Array<{ event_id: string }> = await trx(INTERACTIONS).insert(owned).onConflict('event_id').ignore().returning(['event_id']);
      const fresh = new Set(inserted.map((r) => r.event_id));
      const stored = owned.filter((r) => fresh.has(r.event_id));
      await countInteractions(trx, stored, views);
      return stored;
    });

/** What storing a request's interactions did: the event ids it stored, and those it left out for want of a stored view. */
export interface RecordedInteractions {
  stored: Set<string>;
  viewless: Set<string>;
}

/**
 * New views and interactions, stored through group-committing writers with the per-day counters
 * kept with them; rows the database refuses, and events ingest drops, are counted in the drop log.
 */
export const eventRecording = (strapi: Strapi) => {
  const drops = new DropLog((line) => strapi.log.warn(line));
  /** A row the database refuses (a value it will never take) is dropped and counted, not retried forever. */
  const refused =
    <Row extends { funnel_id: number; event_id: string }>(table: string) =>
    (row: Row, error: unknown) => {
      const code = codeOf(error);
      drops.drop(
        { id: row.funnel_id },
        new Map([['refused_by_the_database', 1]]),
        `${table} event ${row.event_id}: ${code} ${(error as Error)?.message ?? ''}`,
      );
    };
  const views = new BatchWriter<PendingView>(writeViews(strapi), {
    maxRows: 500,
    maxWaitMs: 250,
    isRowError: isRefusedValue,
    onDropped: (p, error) => refused<FunnelViewInsert>(VIEWS)(p.row, error),
  });
  const viewless = new WeakSet<FunnelInteractionInsert>();
  const interactions = new BatchWriter<FunnelInteractionInsert>(writeInteractions(strapi, viewless), {
    maxRows: 500,
    maxWaitMs: 250,
    isRowError: isRefusedValue,
    onDropped: refused<FunnelInteractionInsert>(INTERACTIONS),
  });

  return {
    /** Stores a view; true when this call stored it (not a retry of a stored one, not refused). */
    startView: async (funnelId: number, eventId: string, viewerToken: string, context: { root: string | null }): Promise<boolean> => {
      const now = new Date();
      const stored = await views.add([
        {
          row: {
            funnel_id: funnelId,
            event_id: eventId,
            viewer_token: viewerToken,
            watch_time: 0,
            last_watch_time: 0,
            counted: true,
            created_at: now,
            updated_at: now,
          },
          root: context.root,
        },
      ]);
      return stored.length > 0;
    },

    /**
     * Stores interactions; answers the event ids this call stored (a retried event is not stored
     * again) and those left out because their view is not stored for this funnel.
     */
    recordInteractions: async (funnelId: number, events: InteractionEvent[]): Promise<RecordedInteractions> => {
      const now = new Date();
      const rows = events.map((e) => ({ ...e, funnel_id: funnelId, counted: true as const, created_at: now, updated_at: now }));
      const stored = new Set(await interactions.add(rows));
      return {
        stored: new Set([...stored].map((r) => r.event_id)),
        viewless: new Set(rows.filter((r) => viewless.has(r) && !stored.has(r)).map((r) => r.event_id)),
      };
    },

    /** Counts events ingest dropped for a funnel (logged for the operator). */
    dropped: (funnel: { id: number; identifier: string }, reasons: ReadonlyMap<DropReason, number>): void => {
      drops.drop(funnel, reasons);
    },

    /** Writes what the writers hold and logs the drops counted so far. */
    drain: async (): Promise<void> => {
      await Promise.all([views.drain(), interactions.drain()]);
      drops.flush();
    },
  };
};
