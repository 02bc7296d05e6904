import type { FunnelDocument, FunnelResource, FunnelSettings, FunnelSummaryResource, FunnelVariable } from '@branchify/shared';
import { presentVideo } from '../videos/present';
import type { VideoRow } from '../content-types/video';
import type { FunnelRow } from '../content-types/funnel';
import type { CaptionTrackSummary } from '../captions/service';

const iso = (value: string | Date | null | undefined): string | null => (value ? new Date(value).toISOString() : null);

/** The stored settings with every key present (rows saved before a setting existed read as its default). */
export const settingsOf = (row: Pick<FunnelRow, 'settings'>): FunnelSettings => ({
  enable_resume_play: Boolean(row.settings?.enable_resume_play),
  allow_indexing: Boolean(row.settings?.allow_indexing),
});

/** The stored variables (none on rows saved before variables existed). */
export const variablesOf = (row: Pick<FunnelRow, 'variables'>): FunnelVariable[] => row.variables ?? [];

/** A funnel in the dashboard list. */
export const presentFunnelSummary = (row: FunnelRow): FunnelSummaryResource => ({
  id: row.id,
  identifier: row.identifier,
  title: row.title,
  description: row.description ?? '',
  settings: settingsOf(row),
  total_videos: (row.videos ?? []).length,
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});

/**
 * The whole funnel for its owner's editor: each funnel video with its elements and the library
 * video it plays (`video`, null if it has left the library).
 */
export const presentFunnel = (
  row: FunnelRow,
  library: ReadonlyMap<number, VideoRow>,
  lastViewState: { last_watch_time: number; editor_id: string } | null,
  captions: ReadonlyMap<number, readonly CaptionTrackSummary[]> = new Map(),
): FunnelResource => ({
  ...presentFunnelSummary(row),
  version: row.version ?? 1,
  variables: variablesOf(row),
  videos: (row.videos ?? ([] as FunnelDocument['videos'])).map((v) => {
    const video = library.get(v.id);
    return {
      id: v.id,
      editor_id: v.editor_id,
      elements: v.elements,
      ...(v.map ? { map: v.map } : {}),
      video: video ? presentVideo(video, 0, captions.get(video.id)) : null,
    };
  }),
  last_view_state: lastViewState,
});
