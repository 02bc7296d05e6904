/**
 * The player payload (`GET /api/funnels/{reference}/player`, inlined in `/player/{reference}`).
 * Element shapes come from the shared funnel schema (type-only imports: no zod in the bundle).
 */
import type { Branch, FunnelElement, FunnelVariable, PlayerCaptionTrack } from '@branchify/shared';

export type { Branch, FunnelElement, PlayerCaptionTrack };
export type TextElement = Extract<FunnelElement, { type: 'text' }>;
export type BranchElement = Extract<FunnelElement, { type: 'branch' }>;

export interface PlayerVideo {
  editor_id: string;
  title: string;
  /** One of VIDEO_PROVIDERS when the payload is sound; anything else is reported, not trusted. */
  provider: string;
  external_id: string | null;
  embed_url: string | null;
  source_url: string | null;
  thumbnail: string | null;
  duration: number | null;
  elements: FunnelElement[];
  /** Its WebVTT caption tracks (absent in payloads cached before tracks existed). */
  captions?: PlayerCaptionTrack[];
}

interface PlayerApp {
  name: string;
  favicon_url: string | null;
  logo_url: string | null;
  color_scheme: Record<string, string> | null;
}

export interface PlayerPayload {
  identifier: string;
  title: string;
  description: string;
  settings: { enable_resume_play: boolean };
  /** The funnel's variables (absent from payloads cached before they existed). */
  variables?: FunnelVariable[];
  version: number;
  root_editor_id: string | null;
  videos: PlayerVideo[];
  app: PlayerApp;
}

export interface LastViewState {
  editor_id: string;
  last_watch_time: number;
  /** The viewer's variables then (funnels that declare some). */
  variables?: Record<string, string | number | boolean>;
}
