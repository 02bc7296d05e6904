import crypto from 'node:crypto';
import { MESSAGES, endingVideos, rootVideo, grantsAccess, messageTemplates } from '@branchify/shared';
import { env } from '@branchify/shared/node';
import { notFound } from '../http/errors';
import { versionWatch } from '../operations/cache-versions';
import { getService } from '../utils/services';
import { query, UID, type Strapi } from '../utils/strapi';
import type { FunnelRow } from '../content-types/funnel';
import type { VideoRow } from '../content-types/video';
import { playerCaptionTrack } from '../captions/present';
import type { CaptionTrackSummary } from '../captions/service';
import { variablesOf } from './present';

export interface PlayerEntry {
  /** The funnel's row id, for the view and interaction writers (never sent to viewers). */
  funnelId: number;
  /** editor_ids of the funnel's videos, to reject events for another funnel's video. */
  editorIds: ReadonlySet<string>;
  resume: boolean;
  /** Videos that branch nowhere else: reaching the end of one completes the funnel. */
  endings: ReadonlySet<string>;
  payload: ReturnType<typeof buildPayload>;
  /** What a shared link's preview needs beyond the payload (player-page/preview-tags.ts). */
  preview: PlayerPreview;
  /** The `/api` envelope, serialised once. */
  json: string;
  etag: string;
}

interface PlayerPreview {
  /** The creator lets search engines index the player page (settings.allow_indexing). */
  allowIndexing: boolean;
  /** The first video's stored poster (as stored: absolute, or a path on this app), with its size when recorded. */
  poster: { url: string; width: number | null; height: number | null; alt: string } | null;
}

const buildPayload = (
  funnel: FunnelRow,
  library: ReadonlyMap<number, VideoRow>,
  captions: ReadonlyMap<number, readonly CaptionTrackSummary[]>,
  app: { app_name: string; app_favicon_url: string | null; app_logo_url: string | null; app_color_scheme: Record<string, string> },
) => {
  const videos = (funnel.videos ?? []).flatMap((v) => {
    const video = library.get(v.id);
    if (!video) return [];
    return [
      {
        editor_id: v.editor_id,
        title: video.title,
        provider: video.provider,
        external_id: video.external_id ?? null,
        embed_url: video.embed_url ?? null,
        source_url: video.source_url ?? null,
        thumbnail: video.thumbnail ?? null,
        duration: video.duration === null || video.duration === undefined ? null : Number(video.duration),
        elements: v.elements, // opaque here: readers check each element's shape
        captions: (captions.get(video.id) ?? []).map(playerCaptionTrack),
      },
    ];
  });
  return {
    identifier: funnel.identifier,
    title: funnel.title,
    description: funnel.description ?? '',
    settings: { enable_resume_play: Boolean(funnel.settings?.enable_resume_play) },
    /** Declared variables (the player loads its condition code only when there are some). */
    variables: variablesOf(funnel),
    version: funnel.version ?? 1,
    root_editor_id: rootVideo(videos as Array<{ editor_id: string; elements: Array<{ type: string; data: unknown }> }>)?.editor_id ?? null,
    videos,
    app: { name: app.app_name, favicon_url: app.app_favicon_url, logo_url: app.app_logo_url, color_scheme: app.app_color_scheme },
  };
};

/**
 * The public player payload (`GET funnels/{reference}/player` and the inlined JSON of
 * `/player/{reference}`): the funnel with its videos, embed URLs and elements and the app's
 * branding — nothing private. Cached per process for PLAYER_CACHE_TTL_SECONDS at most, and dropped
 * when the 'player' cache version in the database moves (every write to a funnel, video, owner,
 * subscription or the branding bumps it, through any node; each node looks every
 * CACHE_VERSION_CHECK_MS).
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const cache = new Map<string, { entry: PlayerEntry | null; expires: number }>();
  const MAX_ENTRIES = 10_000;
  const version = versionWatch(
    () => getService(strapi, 'cache-versions').read('player'),
    () => env().CACHE_VERSION_CHECK_MS,
    () => cache.clear(),
  );

  const ownerMayPublish = async (ownerId: number): Promise<boolean> => {
    const owner = await query(strapi, UID.user).findOne({ where: { id: ownerId }, select: ['id', 'status', 'is_admin', 'subscription_id'] });
    if (!owner || owner.status !== 'active') return false;
    if (owner.is_admin) return true;
    if (!owner.subscription_id) return false;
    const sub = await query(strapi, UID.subscription).findOne({ where: { id: owner.subscription_id, user_id: owner.id } });
    return grantsAccess(sub);
  };

  const load = async (reference: string): Promise<PlayerEntry | null> => {
    const funnel = await query(strapi, UID.funnel).findOne({ where: { identifier: reference } });
    if (!funnel || !(await ownerMayPublish(funnel.owner_id))) return null;
    const ids = (funnel.videos ?? []).map((v) => v.id);
    const rows: VideoRow[] = await getService(strapi, 'videos').findMany(funnel.owner_id, ids);
    const library = new Map(rows.map((r) => [r.id, r]));
    const [app, captions] = await Promise.all([
      getService(strapi, 'customization').publicView(),
      getService(strapi, 'captions').byVideos(rows.map((r) => r.id)),
    ]);
    const payload = buildPayload(funnel, library, captions, app);
    const json = JSON.stringify({ success: true, data: payload });
    const first = payload.videos.find((v) => v.editor_id === payload.root_editor_id) ?? payload.videos[0];
    const poster = first?.thumbnail
      ? {
          url: first.thumbnail,
          ...((await getService(strapi, 'creator-images').dimensions(funnel.owner_id, first.thumbnail)) ?? { width: null, height: null }),
          alt: messageTemplates.funnelPreviewImageAlt(first.title),
        }
      : null;
    return {
      funnelId: funnel.id,
      editorIds: new Set(payload.videos.map((v) => v.editor_id)),
      resume: payload.settings.enable_resume_play,
      endings: endingVideos(payload.videos),
      payload,
      preview: { allowIndexing: Boolean(funnel.settings?.allow_indexing), poster },
      json,
      etag: `"${crypto.createHash('sha1').update(json).digest('base64url')}"`,
    };
  };

  return {
    /** The entry for a reference, or null when unknown or blocked (suspended owner, no access). */
    async find(reference: string): Promise<PlayerEntry | null> {
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(reference)) return null;
      await version.check();
      const now = Date.now();
      const hit = cache.get(reference);
      if (hit && hit.expires > now) return hit.entry;
      const entry = await load(reference);
      if (cache.size >= MAX_ENTRIES) cache.clear();
      cache.set(reference, { entry, expires: now + env().PLAYER_CACHE_TTL_SECONDS * 1000 });
      return entry;
    },

    async get(reference: string): Promise<PlayerEntry> {
      const entry = await this.find(reference);
      if (!entry) throw notFound(MESSAGES.funnelUnavailable);
      return entry;
    },

    invalidate(reference: string): void {
      cache.delete(reference);
    },

    /** After a change that may touch many funnels (a video renamed, an owner suspended). */
    invalidateAll(): void {
      cache.clear();
    },

    /** A write made here bumped the version to `to` (its copies were dropped when it committed). */
    versionBumped(to: number): void {
      version.adopt(to);
    },
  };
};
