import type { Knex } from 'knex';
import type { Strapi } from '../utils/strapi';
import { RollupDeltas, dayOf, isComplete, newMarks, reachedMark } from './rollups';
import { asDate, inTransaction, isPostgres, VIEWS } from './store';
import type { FunnelViewRow, Progress } from '../content-types/funnel-view';

/** What the player's view carries for the counters: the funnel's root and each video's library duration. */
export interface ViewContext {
  root: string | null;
  durations: ReadonlyMap<string, number | null>;
}

/** A progress report of the player on one view. */
export interface ViewUpdate {
  view_id: string;
  viewer_token: string;
  editor_id: string;
  last_watch_time: number;
  watch_time?: number;
  duration?: number | null;
  /** Declared variables, already checked (left as stored when absent). */
  variables?: Record<string, string | number | boolean> | null;
}

export type ViewUpdateResult =
  | { status: 'missing' }
  | { status: 'implausible' }
  | { status: 'moved'; before: number; reached: number; duration: number | null };

/** A view as knex reads it: snake_case timestamps, and progress as JSON text on SQLite. */
type Row = Omit<FunnelViewRow, 'progress'> & { progress: Progress | string | null; counted: boolean | number | null; created_at: string | number | Date };

/** The counters a view's move changes: started and reached on a first report of a video, completed, ended. */
const moveCounters = async (
  trx: Knex.Transaction,
  funnelId: number,
  input: ViewUpdate,
  context: ViewContext,
  view: { row: Pick<Row, 'editor_id' | 'created_at'>; previous: Progress[string] | undefined; next: Progress[string] },
): Promise<void> => {
  const { row, previous, next } = view;
  const day = dayOf(asDate(row.created_at));
  const deltas = new RollupDeltas();
  const node = { node: input.editor_id };
  if (!previous) {
    deltas.add(funnelId, day, 'started', 1, node);
    const marks = await newMarks(trx, [{ funnel_id: funnelId, view_key: input.view_id, mark: reachedMark(input.editor_id) }]);
    if (marks.size) deltas.add(funnelId, day, 'reached', 1, node);
  }
  const library = context.durations.get(input.editor_id) ?? null;
  const was = previous ? isComplete(previous.max, previous.duration ?? library) : false;
  const now = isComplete(next.max, next.duration ?? library);
  if (was !== now) deltas.add(funnelId, day, 'completed', now ? 1 : -1, node);
  const ended = row.editor_id ?? context.root;
  if (ended !== input.editor_id) {
    if (ended) deltas.add(funnelId, day, 'ended', -1, { node: ended });
    deltas.add(funnelId, day, 'ended', 1, node);
  }
  await deltas.write(trx);
};

/** A view moving on as the player reports progress. */
export const viewProgress = (strapi: Strapi) => ({
  /**
   * Moves a view on (and its counters, in the same transaction): 'missing' when no such view
   * belongs to this funnel and viewer, 'implausible' (nothing stored) when it reports more watch
   * time than the view can have had since it started; else how far the viewer had got in this
   * video before and now.
   */
  updateView: async (
    funnelId: number,
    input: ViewUpdate,
    context: ViewContext & { watchTimeLimit: (startedAt: Date) => number },
  ): Promise<ViewUpdateResult> => {
    return inTransaction(strapi, async (trx) => {
      const query = trx<Row>(VIEWS)
        .where({ funnel_id: funnelId, event_id: input.view_id, viewer_token: input.viewer_token })
        .first('id', 'watch_time', 'progress', 'editor_id', 'counted', 'created_at');
      // Two updates of one view apply one after the other.
      const row = await (isPostgres(strapi) ? query.forUpdate() : query);
      if (!row) return { status: 'missing' };
      if ((input.watch_time ?? 0) > context.watchTimeLimit(asDate(row.created_at))) return { status: 'implausible' };
      const progress: Progress = (typeof row.progress === 'string' ? (JSON.parse(row.progress) as Progress | null) : row.progress) ?? {};
      const previous = progress[input.editor_id];
      const next = {
        max: Math.max(previous?.max ?? 0, input.last_watch_time),
        duration: input.duration ?? previous?.duration ?? null,
      };
      progress[input.editor_id] = next;
      await trx(VIEWS)
        .where({ id: row.id })
        .update({
          editor_id: input.editor_id,
          last_watch_time: input.last_watch_time,
          watch_time: Math.max(Number(row.watch_time ?? 0), input.watch_time ?? 0),
          progress: JSON.stringify(progress),
          ...(input.variables ? { variables: JSON.stringify(input.variables) } : {}),
          updated_at: new Date(),
        });
      // A view stored without counters is counted by a build, as it is when the build reaches it.
      if (row.counted) await moveCounters(trx, funnelId, input, context, { row, previous, next });
      return { status: 'moved', before: previous?.max ?? 0, reached: next.max, duration: next.duration };
    });
  },
});
