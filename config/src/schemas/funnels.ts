import type { FunnelDocument, FunnelSettings } from '../content/funnel-schema';
import type { VideoResource } from './videos';

/** The funnel input schemas live with the content model (content/funnel-schema.ts); these are its answers. */

/** A funnel in the dashboard list. */
export interface FunnelSummaryResource {
  id: number;
  identifier: string;
  title: string;
  description: string;
  settings: FunnelSettings;
  total_videos: number;
  created_at: string | null;
  updated_at: string | null;
}

/** The whole funnel for its owner's editor: each funnel video with the library video it plays (null once removed). */
export interface FunnelResource extends FunnelSummaryResource {
  version: number;
  /** The funnel's variables, with their defaults. */
  variables: FunnelDocument['variables'];
  videos: Array<Pick<FunnelDocument['videos'][number], 'id' | 'editor_id' | 'elements' | 'map'> & { video: VideoResource | null }>;
  last_view_state: { last_watch_time: number; editor_id: string } | null;
}

/** What an import makes, shown before it is made. */
export interface FunnelImportPlan {
  title: string;
  videos: number;
  elements: { branches: number; texts: number };
  /** Library entries of the file the importer's library already has (same source). */
  matched: Array<{ ref: string; title: string; video_id: number }>;
  /** Library entries added to the importer's library. */
  added: Array<{ ref: string; title: string; provider: string }>;
  images: number;
  /** The file's caption tracks: those the videos get, and those left out with the reason. */
  captions: {
    added: Array<{ ref: string; video: string; language: string; label: string }>;
    skipped: Array<{ ref: string; video: string; language: string | null; label: string | null; reason: string }>;
  };
}
