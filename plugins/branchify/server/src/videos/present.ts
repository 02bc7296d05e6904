import type { VideoResource } from '@branchify/shared';
import type { VideoRow } from '../content-types/video';
import { presentCaptionTrack } from '../captions/present';
import type { CaptionTrackSummary } from '../captions/service';

const iso = (value: string | Date | null | undefined): string | null => (value ? new Date(value).toISOString() : null);

/** A library video as the API shows it. */
export const presentVideo = (row: VideoRow, totalFunnels = 0, captions: readonly CaptionTrackSummary[] = []): VideoResource => ({
  id: row.id,
  title: row.title,
  size: Number(row.size ?? 0),
  thumbnail: row.thumbnail ?? null,
  duration: row.duration === null || row.duration === undefined ? null : Number(row.duration),
  provider: row.provider,
  external_id: row.external_id ?? null,
  embed_url: row.embed_url ?? null,
  source: row.source ?? null,
  source_url: row.source_url ?? null,
  total_funnels: totalFunnels,
  captions: captions.map(presentCaptionTrack),
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});
