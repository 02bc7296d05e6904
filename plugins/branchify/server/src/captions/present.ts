import type { CaptionTrackResource, PlayerCaptionTrack } from '@branchify/shared';
import type { CaptionTrackSummary } from './service';

/** Where a track's WebVTT file is served (same origin as the app and the player). */
const captionFileUrl = (key: string): string => `/api/captions/${key}`;

export const presentCaptionTrack = (row: CaptionTrackSummary): CaptionTrackResource => ({
  id: row.id,
  language: row.language,
  label: row.label,
  url: captionFileUrl(row.key),
  cues: Number(row.cues),
  created_at: row.createdAt ? new Date(row.createdAt).toISOString() : null,
});

/** What the player payload lists of a track. */
export const playerCaptionTrack = (row: CaptionTrackSummary): PlayerCaptionTrack => ({
  id: row.id,
  language: row.language,
  label: row.label,
  url: captionFileUrl(row.key),
});
