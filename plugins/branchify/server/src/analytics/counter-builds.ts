import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { getService } from '../utils/services';
import type { Strapi } from '../utils/strapi';
import type { FunnelViewRow, Progress } from '../content-types/funnel-view';
import type { FunnelInteractionRow } from '../content-types/funnel-interaction';
import { SETTINGS_TABLE as SETTINGS } from '../content-types/setting';
import { countInteractions, countViews } from './counting';
import { rootEditorId } from './map';
import { ROLLUPS } from './rollups';
import { asDate, inTransaction, INTERACTIONS, isPostgres, VIEWS } from './store';

/**
 * Counter builds: the rows the counters do not include (loaded in bulk, or stored before counters
 * existed: their `counted` flag is empty) are counted a chunk at a time, each chunk in its own
 * short transaction that also flags its rows, while writers keep storing and counting new rows.
 * Two processes building one funnel share the work (PostgreSQL skips the rows the other holds).
 */

/**
 * How long one chunk's transaction should take; rows per chunk are scaled by how long the last
 * one took. On SQLite every writer waits for the chunk (one connection): short chunks. On
 * PostgreSQL a writer waits only for a counter row the chunk also holds: longer ones.
 */
const CHUNK_TARGET_MS = { sqlite: 20, postgres: 100 } as const;
const CHUNK_ROWS = { first: 200, min: 20, max: 5000 } as const;
/** How long a build waits for rows another process's build holds before it looks again. */
const OTHERS_WAIT_MS = 25;

const UNCOUNTED_INDEXES = [
  { name: 'branchify_funnel_views_uncounted_day_idx', table: VIEWS },
  { name: 'branchify_funnel_interactions_uncounted_day_idx', table: INTERACTIONS },
] as const;

/** Set once an install's rows carry the counted flag (rows stored before it were flagged by their funnel's counters). */
const FLAGGED_SETTING = 'analytics-rows-flagged';

/** Funnels (all, or the one given) with rows the counters do not include yet. */
const toBuild = async (knex: Knex, funnelId?: number): Promise<number[]> => {
  const uncounted = async (table: string): Promise<number[]> => {
    const q = knex<{ funnel_id: number }>(table).whereNull('counted');
    const rows = funnelId === undefined ? await q.distinct('funnel_id') : await q.where({ funnel_id: funnelId }).limit(1).select('funnel_id');
    return rows.map((r) => Number(r.funnel_id));
  };
  return [...new Set([...(await uncounted(VIEWS)), ...(await uncounted(INTERACTIONS))])];
};

/** Whether any of the funnel's rows is still uncounted (held by another build, or stored since). */
const anyUncounted = async (knex: Knex, funnelId: number): Promise<boolean> => (await toBuild(knex, funnelId)).length > 0;

/** Each video's library duration by editor id, and the root, as the counters need them. */
const countingContext = async (strapi: Strapi, funnelId: number) => {
  const funnel = await getService(strapi, 'funnels').findById(funnelId);
  const videos = funnel?.videos ?? [];
  const library = funnel
    ? await getService(strapi, 'videos').findMany(
        funnel.owner_id,
        videos.map((v) => v.id),
      )
    : [];
  const durations = new Map(
    videos.map((v) => {
      const video = library.find((l) => l.id === v.id);
      return [v.editor_id, video?.duration === null || video?.duration === undefined ? null : Number(video.duration)] as const;
    }),
  );
  return { root: rootEditorId(videos) ?? null, durations };
};
type Context = Awaited<ReturnType<typeof countingContext>>;

/** A row's place in a build's walk: its time as stored, then its id. */
type Place = { at: unknown; id: number } | null;

/**
 * Where a build is: the last place it took in each table (each pass walks forward, not over the
 * rows it flagged: on PostgreSQL their stale index entries stay until vacuum), and its chunk size.
 * It walks in time order so a chunk's rows share days: fewer counter rows to write per chunk.
 */
interface Cursor {
  views: Place;
  interactions: Place;
  rows: number;
}

/** The next chunk of a funnel's uncounted rows after `after`, in time order; on PostgreSQL locked until commit, skipping rows another build holds. */
const uncountedChunk = <Q extends Knex.QueryBuilder>(query: Q, pg: boolean, funnelId: number, after: Place, rows: number): Q => {
  void query
    .where('funnel_id', funnelId)
    .whereNull('counted')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .limit(rows);
  if (after) void query.whereRaw('(created_at, id) > (?, ?)', [after.at as Knex.Value, after.id]);
  if (pg) void query.forUpdate().skipLocked();
  return query;
};

/** A view's progress as stored (JSON text on SQLite); what cannot be read counts as none, so one bad row never stops a build. */
const progressOf = (stored: Progress | string | null): Progress => {
  if (typeof stored !== 'string') return stored ?? {};
  try {
    const parsed: unknown = JSON.parse(stored);
    return parsed && typeof parsed === 'object' ? (parsed as Progress) : {};
  } catch {
    return {};
  }
};

/** Where a chunk ends. */
const lastPlace = (rows: ReadonlyArray<{ id: number; created_at: unknown }>): Place => {
  const last = rows[rows.length - 1];
  return last ? { at: last.created_at, id: Number(last.id) } : null;
};

const flagCounted = (trx: Knex.Transaction, table: string, rows: ReadonlyArray<{ id: number }>) =>
  trx(table)
    .whereIn(
      'id',
      rows.map((r) => r.id),
    )
    .update({ counted: true });

/** Counts one chunk of the funnel's uncounted views, else of its interactions; answers how many rows it counted. */
const countChunk = (strapi: Strapi, funnelId: number, context: Context, cursor: Cursor): Promise<number> =>
  inTransaction(strapi, async (trx) => {
    const pg = isPostgres(strapi);
    type ViewRow = Pick<FunnelViewRow, 'id' | 'funnel_id' | 'event_id' | 'editor_id'> & { progress: Progress | string | null; created_at: unknown };
    const views = await uncountedChunk(
      trx<ViewRow>(VIEWS).select('id', 'funnel_id', 'event_id', 'created_at', 'editor_id', 'progress'),
      pg,
      funnelId,
      cursor.views,
      cursor.rows,
    );
    if (views.length) {
      cursor.views = lastPlace(views);

      await countViews(
        trx,
        views.map((v) => ({
          funnel_id: Number(v.funnel_id),
          event_id: v.event_id,
          created_at: asDate(v.created_at),
          editor_id: v.editor_id,
          progress: progressOf(v.progress),
          ...context,
        })),
      );
      await flagCounted(trx, VIEWS, views);
      return views.length;
    }
    type InteractionRow = Pick<FunnelInteractionRow, 'id' | 'funnel_id' | 'event_id' | 'view_id' | 'video_id' | 'node_id' | 'connected_node' | 'type'> & {
      created_at: unknown;
    };
    const interactions = await uncountedChunk(
      trx<InteractionRow>(INTERACTIONS).select('id', 'funnel_id', 'event_id', 'view_id', 'video_id', 'node_id', 'connected_node', 'type', 'created_at'),
      pg,
      funnelId,
      cursor.interactions,
      cursor.rows,
    );
    if (interactions.length) cursor.interactions = lastPlace(interactions);
    await countInteractions(
      trx,
      interactions.map((r) => ({
        ...r,
        funnel_id: Number(r.funnel_id),
        video_id: r.video_id ?? '',
        node_id: r.node_id ?? '',
        type: r.type ?? '',
        created_at: asDate(r.created_at),
      })),
    );
    if (interactions.length) await flagCounted(trx, INTERACTIONS, interactions);
    return interactions.length;
  });

/** Counter builds of one app process; `stop` ends its builds after their current chunk (a later start resumes them). */
export const counterBuilds = (strapi: Strapi) => {
  let stopping = false;
  let background: Promise<unknown> | null = null;

  /** Counts the funnel's uncounted rows (with any other process doing the same); answers whether this build finished it. */
  const build = async (funnelId: number): Promise<boolean> => {
    const context = await countingContext(strapi, funnelId);
    const started = Date.now();
    const cursor: Cursor = { views: null, interactions: null, rows: CHUNK_ROWS.first };
    const target = CHUNK_TARGET_MS[isPostgres(strapi) ? 'postgres' : 'sqlite'];
    let rows = 0;
    while (!stopping) {
      const chunkStarted = performance.now();
      const counted = await countChunk(strapi, funnelId, context, cursor);
      rows += counted;
      if (counted) {
        const took = Math.max(1, performance.now() - chunkStarted);
        cursor.rows = Math.round(Math.min(CHUNK_ROWS.max, Math.max(CHUNK_ROWS.min, (cursor.rows * target) / took)));
        // Let the requests that arrived meanwhile run before the next chunk.
        await new Promise((resolve) => setImmediate(resolve));
      } else if (await anyUncounted(strapi.db.connection, funnelId)) {
        // Rows another build held, or loaded since this pass went by: another pass.
        cursor.views = null;
        cursor.interactions = null;
        await sleep(OTHERS_WAIT_MS);
      } else {
        if (rows) strapi.log.info(`[branchify] analytics counters built for funnel ${funnelId}: ${rows} rows counted in ${Date.now() - started} ms`);
        return true;
      }
    }
    return false;
  };

  /** Counts the rows the counters do not include, of every funnel or of the one given; answers the funnels this call finished. */
  const ensureCounters = async (funnelId?: number): Promise<number[]> => {
    const built: number[] = [];
    for (const id of await toBuild(strapi.db.connection, funnelId)) {
      if (stopping) break;
      if (await build(id)) built.push(id);
    }
    return built;
  };

  return {
    ensureCounters,

    /**
     * Readies the tables for builds: the partial indexes they read uncounted rows by (Strapi's
     * schema cannot declare them), and, once per install, the flag on rows stored before it
     * existed: set where their funnel has counters (its writers counted them), left empty where
     * it has none (a build counts them).
     */
    prepare: async (): Promise<void> => {
      const knex = strapi.db.connection;
      for (const { name, table } of UNCOUNTED_INDEXES)
        await knex.raw(`CREATE INDEX IF NOT EXISTS ${name} ON ${table} (funnel_id, created_at, id) WHERE counted IS NULL`);
      await inTransaction(strapi, async (trx) => {
        // One process flags them; the others wait, then find it done.
        if (isPostgres(strapi)) await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [FLAGGED_SETTING]);
        if (await trx(SETTINGS).where({ name: FLAGGED_SETTING }).first('id')) return;
        for (const table of [VIEWS, INTERACTIONS])
          await trx(table).whereNull('counted').whereIn('funnel_id', trx(ROLLUPS).distinct('funnel_id')).update({ counted: true });
        const now = new Date();
        await trx(SETTINGS).insert({ name: FLAGGED_SETTING, value: now.toISOString(), created_at: now, updated_at: now });
      });
    },

    /** Builds in the background (the app serves meanwhile). */
    start: (): void => {
      background = ensureCounters().catch((error: Error) => strapi.log.error(`[branchify] analytics counter build failed: ${error.message}`));
    },

    stop: async (): Promise<void> => {
      stopping = true;
      await background;
    },
  };
};
