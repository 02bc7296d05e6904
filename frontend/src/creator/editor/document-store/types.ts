import type { FunnelElement, FunnelSettings, FunnelVariable, VideoResource } from '@branchify/shared';

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
  /** Where it sits on the funnel map (left out: laid out automatically). */
  map?: MapPosition;
}

/** A video's place on the funnel map (its top-left corner). */
export interface MapPosition {
  x: number;
  y: number;
}

export interface EditorDocument {
  title: string;
  description: string;
  settings: FunnelSettings;
  /** The funnel's variables (what conditions, assignments and `{{name}}` texts use). */
  variables: FunnelVariable[];
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

/** What new elements take from the app's branding: the background of a new button (the schema's default when null). */
export interface NewElementLook {
  buttonColor: string | null;
}

export type AddResult = { ok: true; id: string } | { ok: false; message: string };

/** A branch made on the map: its element and button, or why the plan refuses it. */
export type BranchResult = { ok: true; elementId: string; branchId: string } | { ok: false; message: string };
