import type { FunnelElement, FunnelSettings, VideoResource } from '@branchify/shared';

/** The design box every element is placed in (the public player scales it to its own size). */
export const DESIGN_SIZE = { width: 640, height: 360 } as const;

export type TextElement = Extract<FunnelElement, { type: 'text' }>;
export type BranchElement = Extract<FunnelElement, { type: 'branch' }>;

export interface EditorVideo {
  /** The library video's id. */
  id: number;
  editor_id: string;
  elements: FunnelElement[];
  /** The library video it plays (null once removed from the library). */
  video: VideoResource | null;
}

export interface EditorDocument {
  title: string;
  description: string;
  settings: FunnelSettings;
  videos: EditorVideo[];
}

export interface EditorState {
  doc: EditorDocument;
  /** The video open in the funnel-video editor. */
  selectedVideo: string | null;
  selectedElement: string | null;
  /** Inside a selected branch element: the branch (button) being edited. */
  selectedBranch: string | null;
  canUndo: boolean;
  canRedo: boolean;
  /** Something changed since the last save. */
  dirty: boolean;
}

/** The plan's per-funnel cap on branch elements, and on text elements counted alike (null: none). */
export interface EditorLimits {
  perFunnel: number | null;
}

export type AddResult = { ok: true; id: string } | { ok: false; message: string };
