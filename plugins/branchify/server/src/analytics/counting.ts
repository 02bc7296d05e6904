import type { Knex } from 'knex';
import type { Progress } from '../content-types/funnel-view';
import type { FunnelInteractionInsert } from '../content-types/funnel-interaction';
import { RollupDeltas, dayOf, edgeMark, isComplete, markId, newMarks, reachedMark } from './rollups';
import { asDate, VIEWS } from './store';

/**
 * What stored rows add to the per-day counters: one set of rules for the writers (rows they have
 * just stored) and for counter builds (rows stored without counters). Runs in the caller's
 * transaction, which also marks the rows counted.
 */

/** A view as the counters see it, with what they need of its funnel. */
export interface ViewToCount {
  funnel_id: number;
  event_id: string;
  created_at: Date;
  /** The video it is on now (NULL: still on the root). */
  editor_id: string | null;
  progress: Progress;
  root: string | null;
  /** Each video's library duration, for completion when the player reported none. */
  durations: ReadonlyMap<string, number | null>;
}

/** An interaction as the counters see it. */
export type InteractionToCount = Pick<
  FunnelInteractionInsert,
  'funnel_id' | 'event_id' | 'view_id' | 'video_id' | 'node_id' | 'connected_node' | 'type' | 'created_at'
>;

/** The videos a view has reached: the root, and every video it reported progress on. */
const reachedVideos = (view: ViewToCount): string[] => [...new Set([...(view.root ? [view.root] : []), ...Object.keys(view.progress)])];

/**
 * A view counts on its day: once as a view, once where it ended (its video, else the root), once
 * per video reached (unless an interaction already reached it), and per video it started and
 * completed.
 */
export const countViews = async (trx: Knex.Transaction, views: readonly ViewToCount[]): Promise<void> => {
  const marks = await newMarks(
    trx,
    views.flatMap((v) => reachedVideos(v).map((node) => ({ funnel_id: v.funnel_id, view_key: v.event_id, mark: reachedMark(node) }))),
  );
  const deltas = new RollupDeltas();
  for (const view of views) {
    const funnel = view.funnel_id;
    const day = dayOf(view.created_at);
    deltas.add(funnel, day, 'views', 1);
    const ended = view.editor_id ?? view.root;
    if (ended) deltas.add(funnel, day, 'ended', 1, { node: ended });
    for (const node of reachedVideos(view)) if (marks.delete(markId(view.event_id, reachedMark(node)))) deltas.add(funnel, day, 'reached', 1, { node });
    for (const [video, p] of Object.entries(view.progress)) {
      deltas.add(funnel, day, 'started', 1, { node: video });
      if (isComplete(p.max, p.duration ?? view.durations.get(video) ?? null)) deltas.add(funnel, day, 'completed', 1, { node: video });
    }
  }
  await deltas.write(trx);
};

/** A stored view as interactions need it: its funnel (an interaction belongs to a view of its own funnel) and its day. */
interface StoredView {
  funnel_id: number;
  created_at: unknown;
}

/** The stored views the rows name, by view id (one query per 500 views). */
export const viewsOf = async (trx: Knex.Transaction, rows: ReadonlyArray<Pick<InteractionToCount, 'view_id'>>): Promise<Map<string, StoredView>> => {
  const viewIds = [...new Set(rows.map((r) => r.view_id).filter((id): id is string => Boolean(id)))];
  const views = new Map<string, StoredView>();
  for (let i = 0; i < viewIds.length; i += 500) {
    const found: Array<{ event_id: string; funnel_id: number; created_at: unknown }> = await trx(VIEWS)
      .whereIn('event_id', viewIds.slice(i, i + 500))
      .select('event_id', 'funnel_id', 'created_at');
    for (const v of found) views.set(v.event_id, v);
  }
  return views;
};

/**
 * An interaction counts on its own day as taken (and as a click unless it is an inaction
 * default); on its view's day (its own without a stored view) once per view for the edge and
 * for the video it reached. `known`: the rows' views when the caller has already read them.
 */
export const countInteractions = async (trx: Knex.Transaction, rows: readonly InteractionToCount[], known?: ReadonlyMap<string, StoredView>): Promise<void> => {
  if (!rows.length) return;
  const views = known ?? (await viewsOf(trx, rows));
  const owner = (r: InteractionToCount) => {
    const view = r.view_id ? views.get(r.view_id) : undefined;
    return view && view.funnel_id === r.funnel_id
      ? { key: r.view_id!, day: dayOf(asDate(view.created_at)) }
      : { key: r.view_id ?? r.event_id, day: dayOf(r.created_at) };
  };
  const marks = await newMarks(
    trx,
    rows.flatMap((r) => {
      const { key } = owner(r);
      const list = [{ funnel_id: r.funnel_id, view_key: key, mark: edgeMark(r.video_id, r.node_id, r.connected_node, r.type) }];
      if (r.connected_node) list.push({ funnel_id: r.funnel_id, view_key: key, mark: reachedMark(r.connected_node) });
      return list;
    }),
  );
  const deltas = new RollupDeltas();
  for (const r of rows) {
    const own = dayOf(r.created_at);
    const { key, day } = owner(r);
    const edge = { node: r.video_id, branch: r.node_id, target: r.connected_node ?? '', kind: r.type };
    deltas.add(r.funnel_id, own, 'taken', 1, edge);
    if (r.type !== 'inaction') deltas.add(r.funnel_id, own, 'clicks', 1);
    if (marks.delete(markId(key, edgeMark(r.video_id, r.node_id, r.connected_node, r.type)))) deltas.add(r.funnel_id, day, 'edge_views', 1, edge);
    if (r.connected_node && marks.delete(markId(key, reachedMark(r.connected_node)))) deltas.add(r.funnel_id, day, 'reached', 1, { node: r.connected_node });
  }
  await deltas.write(trx);
};
