import crypto from 'node:crypto';
import type { Strapi } from '../utils/strapi';
import { BatchWriter } from './batch-writer';

const VIEWS = 'branchify_funnel_views';
const INTERACTIONS = 'branchify_funnel_interactions';

interface ViewRow {
  funnel_id: number;
  event_id: string;
  viewer_token: string;
  watch_time: number;
  last_watch_time: number;
  created_at: Date;
  updated_at: Date;
}

interface InteractionRow {
  funnel_id: number;
  event_id: string;
  view_id: string | null;
  video_id: string;
  node_id: string;
  connected_node: string | null;
  type: string;
  player_time: number;
  created_at: Date;
  updated_at: Date;
}

type Progress = Record<string, { max: number; duration: number | null }>;

const DAY_MS = 86_400_000;

/** Views, interactions (through group-committing writers) and the analytics report over them. */
export default ({ strapi }: { strapi: Strapi }) => {
  const db = () => strapi.db.connection;
  // A retried event (same client-generated id) is stored once: the unique index decides.
  const insertIgnoring = (table: string) => async (rows: object[]) => {
    await db()(table).insert(rows).onConflict('event_id').ignore();
  };
  const views = new BatchWriter<ViewRow>(insertIgnoring(VIEWS));
  const interactions = new BatchWriter<InteractionRow>(insertIgnoring(INTERACTIONS));

  return {
    newViewerToken: (): string => crypto.randomBytes(24).toString('base64url'),

    async startView(funnelId: number, eventId: string, viewerToken: string): Promise<void> {
      const now = new Date();
      await views.add([
        { funnel_id: funnelId, event_id: eventId, viewer_token: viewerToken, watch_time: 0, last_watch_time: 0, created_at: now, updated_at: now },
      ]);
    },

    /** Moves a view on; false when no such view belongs to this funnel and viewer. */
    async updateView(
      funnelId: number,
      input: { view_id: string; viewer_token: string; editor_id: string; last_watch_time: number; watch_time?: number; duration?: number | null },
    ): Promise<boolean> {
      const row = await db()(VIEWS)
        .where({ funnel_id: funnelId, event_id: input.view_id, viewer_token: input.viewer_token })
        .first('id', 'watch_time', 'progress');
      if (!row) return false;
      const progress: Progress = (typeof row.progress === 'string' ? JSON.parse(row.progress) : row.progress) ?? {};
      const previous = progress[input.editor_id];
      progress[input.editor_id] = {
        max: Math.max(previous?.max ?? 0, input.last_watch_time),
        duration: input.duration ?? previous?.duration ?? null,
      };
      await db()(VIEWS)
        .where({ id: row.id })
        .update({
          editor_id: input.editor_id,
          last_watch_time: input.last_watch_time,
          watch_time: Math.max(Number(row.watch_time ?? 0), input.watch_time ?? 0),
          progress: JSON.stringify(progress),
          updated_at: new Date(),
        });
      return true;
    },

    async recordInteractions(funnelId: number, events: Array<Omit<InteractionRow, 'funnel_id' | 'created_at' | 'updated_at'>>): Promise<void> {
      const now = new Date();
      await interactions.add(events.map((e) => ({ ...e, funnel_id: funnelId, created_at: now, updated_at: now })));
    },

    async drain(): Promise<void> {
      await Promise.all([views.drain(), interactions.drain()]);
    },

    /**
     * The report of `POST funnels/{id}/analytics` (docs/api.md "Analytics"): views, watch time,
     * completion per video, clicks per branch, the paths taken and a per-day series.
     */
    async report(
      funnel: { id: number; videos: Array<{ editor_id: string }> | null },
      libraryDurations: ReadonlyMap<string, number | null>,
      range: { from: Date; to: Date },
    ) {
      const inRange = <T extends { whereBetween: (c: string, r: [Date, Date]) => T }>(q: T) => q.whereBetween('created_at', [range.from, range.to]);
      const viewRows: Array<{ viewer_token: string | null; watch_time: string | number | null; progress: unknown; created_at: unknown }> = await inRange(
        db()(VIEWS).where({ funnel_id: funnel.id }),
      ).select('viewer_token', 'watch_time', 'progress', 'created_at');
      const clickRows: Array<{ video_id: string; node_id: string; connected_node: string | null; n: number | string }> = await inRange(
        db()(INTERACTIONS).where({ funnel_id: funnel.id }),
      )
        .select('video_id', 'node_id', 'connected_node')
        .count({ n: '*' })
        .groupBy('video_id', 'node_id', 'connected_node');
      const clickDays: Array<{ created_at: unknown }> = await inRange(db()(INTERACTIONS).where({ funnel_id: funnel.id })).select('created_at');

      const totalWatch = viewRows.reduce((s, r) => s + Number(r.watch_time ?? 0), 0);
      const dayOf = (value: unknown) => new Date(value as string | number | Date).toISOString().slice(0, 10);
      const series = new Map<string, { date: string; views: number; clicks: number }>();
      for (let t = Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth(), range.from.getUTCDate()); t <= range.to.getTime(); t += DAY_MS) {
        const date = new Date(t).toISOString().slice(0, 10);
        series.set(date, { date, views: 0, clicks: 0 });
      }
      for (const r of viewRows) {
        const d = series.get(dayOf(r.created_at));
        if (d) d.views += 1;
      }
      for (const r of clickDays) {
        const d = series.get(dayOf(r.created_at));
        if (d) d.clicks += 1;
      }

      const completion = (funnel.videos ?? []).map(({ editor_id }) => {
        let started = 0;
        let completed = 0;
        for (const r of viewRows) {
          const progress: Progress = (typeof r.progress === 'string' ? JSON.parse(r.progress) : r.progress) ?? {};
          const p = progress[editor_id];
          if (!p) continue;
          started += 1;
          const duration = p.duration ?? libraryDurations.get(editor_id) ?? null;
          if (duration && p.max >= duration * 0.9) completed += 1;
        }
        return { editor_id, started, completed, rate: started ? Math.round((completed / started) * 1000) / 1000 : 0 };
      });

      const clicks = new Map<string, { video_id: string; node_id: string; clicks: number }>();
      for (const r of clickRows) {
        const key = `${r.video_id}\u0000${r.node_id}`;
        const entry = clicks.get(key) ?? { video_id: r.video_id, node_id: r.node_id, clicks: 0 };
        entry.clicks += Number(r.n);
        clicks.set(key, entry);
      }

      return {
        range: { from: range.from.toISOString().slice(0, 10), to: range.to.toISOString().slice(0, 10) },
        views: { total: viewRows.length, unique: new Set(viewRows.map((r) => r.viewer_token).filter(Boolean)).size },
        watch_time: { total: Math.round(totalWatch * 100) / 100, average: viewRows.length ? Math.round((totalWatch / viewRows.length) * 100) / 100 : 0 },
        completion,
        clicks: [...clicks.values()].sort((a, b) => b.clicks - a.clicks),
        paths: clickRows.map((r) => ({ from: r.video_id, branch: r.node_id, to: r.connected_node, count: Number(r.n) })).sort((a, b) => b.count - a.count),
        series: [...series.values()],
      };
    },
  };
};
