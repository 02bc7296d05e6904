import type { Strapi } from '../utils/strapi';
import { BatchWriter } from './batch-writer';
import { codeOf, isRefusedValue } from '../utils/db-errors';
import { DropLog, type DropReason } from './integrity';
import { RollupDeltas, dayOf, edgeMark, markId, newMarks, reachedMark } from './rollups';
import { asDate, inTransaction, INTERACTIONS, VIEWS } from './store';
import type { FunnelViewInsert } from '../content-types/funnel-view';
import type { FunnelInteractionInsert } from '../content-types/funnel-interaction';

interface PendingView {
  row: FunnelViewInsert;
  root: string | null;
}

/** An interaction as ingest hands it over (the funnel and the timestamps are added here). */
export type InteractionEvent = Omit<FunnelInteractionInsert, 'funnel_id' | 'created_at' | 'updated_at'>;

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
      const marks = await newMarks(
        trx,
        stored.filter((p) => p.root).map((p) => ({ funnel_id: p.row.funnel_id, view_key: p.row.event_id, mark: reachedMark(p.root!) })),
      );
      const deltas = new RollupDeltas();
      for (const { row, root } of stored) {
        const day = dayOf(row.created_at);
        deltas.add(row.funnel_id, day, 'views', 1);
        if (!root) continue;
        deltas.add(row.funnel_id, day, 'ended', 1, { node: root });
        if (marks.has(markId(row.event_id, reachedMark(root)))) deltas.add(row.funnel_id, day, 'reached', 1, { node: root });
      }
      await deltas.write(trx);
      return stored;
    });

/** A batch of interactions with their counters; each belongs to its view's day (its own without a stored view). */
const writeInteractions =
  (strapi: Strapi) =>
  async (rows: FunnelInteractionInsert[]): Promise<FunnelInteractionInsert[]> =>
    inTransaction(strapi, async (trx) => {
      const inserted: Array<{ event_id: string }> = await trx(INTERACTIONS).insert(rows).onConflict('event_id').ignore().returning(['event_id']);
      const fresh = new Set(inserted.map((r) => r.event_id));
      const stored = rows.filter((r) => fresh.has(r.event_id));
      if (!stored.length) return stored;
      const viewIds = [...new Set(stored.map((r) => r.view_id).filter((id): id is string => Boolean(id)))];
      const views = new Map<string, { funnel_id: number; created_at: unknown }>();
      for (let i = 0; i < viewIds.length; i += 500) {
        const found: Array<{ event_id: string; funnel_id: number; created_at: unknown }> = await trx(VIEWS)
          .whereIn('event_id', viewIds.slice(i, i + 500))
          .select('event_id', 'funnel_id', 'created_at');
        for (const v of found) views.set(v.event_id, v);
      }
      const owner = (r: FunnelInteractionInsert) => {
        const view = r.view_id ? views.get(r.view_id) : undefined;
        return view && view.funnel_id === r.funnel_id
          ? { key: r.view_id!, day: dayOf(asDate(view.created_at)) }
          : { key: r.view_id ?? r.event_id, day: dayOf(r.created_at) };
      };
      const marks = await newMarks(
        trx,
        stored.flatMap((r) => {
          const { key } = owner(r);
          const list = [{ funnel_id: r.funnel_id, view_key: key, mark: edgeMark(r.video_id, r.node_id, r.connected_node, r.type) }];
          if (r.connected_node) list.push({ funnel_id: r.funnel_id, view_key: key, mark: reachedMark(r.connected_node) });
          return list;
        }),
      );
      const deltas = new RollupDeltas();
      for (const r of stored) {
        const own = dayOf(r.created_at);
        const { key, day } = owner(r);
        const edge = { node: r.video_id, branch: r.node_id, target: r.connected_node ?? '', kind: r.type ?? '' };
        deltas.add(r.funnel_id, own, 'taken', 1, edge);
        if (r.type !== 'inaction') deltas.add(r.funnel_id, own, 'clicks', 1);
        const edgeId = markId(key, edgeMark(r.video_id, r.node_id, r.connected_node, r.type));
        if (marks.delete(edgeId)) deltas.add(r.funnel_id, day, 'edge_views', 1, edge);
        if (r.connected_node && marks.delete(markId(key, reachedMark(r.connected_node))))
          deltas.add(r.funnel_id, day, 'reached', 1, { node: r.connected_node });
      }
      await deltas.write(trx);
      return stored;
    });

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
  const interactions = new BatchWriter<FunnelInteractionInsert>(writeInteractions(strapi), {
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
          row: { funnel_id: funnelId, event_id: eventId, viewer_token: viewerToken, watch_time: 0, last_watch_time: 0, created_at: now, updated_at: now },
          root: context.root,
        },
      ]);
      return stored.length > 0;
    },

    /** Stores interactions; answers the event ids this call stored (a retried event is not stored again). */
    recordInteractions: async (funnelId: number, events: InteractionEvent[]): Promise<Set<string>> => {
      const now = new Date();
      const stored = await interactions.add(events.map((e) => ({ ...e, funnel_id: funnelId, created_at: now, updated_at: now })));
      return new Set(stored.map((r) => r.event_id));
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
