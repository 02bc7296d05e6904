import { createContext } from 'react';
import type { DocumentStore, EditorVideo } from '../editor/document-store';
import type { LaidOutEdge, LaidOutNode, MapSourceVideo, MapStats, NodeStats } from './funnel-graph';

export const percent = (share: number): string => `${Math.round(share * 100)}%`;
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export type EdgeFigures = { viewers: number; share: number };
export type VideoNodeData = { node: LaidOutNode; stats?: NodeStats; jumps?: ReadonlyMap<string, number>; editable?: boolean };
/** stats: the edge's figures; null on the analytics map when the player does not count it (a default that is a URL). */
export type RoutedEdgeData = { edge: LaidOutEdge; stats?: EdgeFigures | null };

export const WARNING = '#8a4b00';
export const DANGER = '#b3261e';
export const LINK = '#00695c';
export const FOCUS = '#0b57d0';
/** The video or branch the map's toolbar acts on. */
export const SELECTED = '#8e24aa';

export const edgeColor = (edge: LaidOutEdge): string => (edge.broken ? DANGER : edge.linkOut ? LINK : edge.kind === 'inaction' ? '#5f6368' : '#3d3a9e');

/** React Flow's layer for edge labels, looked up once for the whole map. */
export const EdgeLabels = createContext<Element | null>(null);

/** The id of the edge that has keyboard focus (its label is outlined). */
export const FocusedEdge = createContext<string | null>(null);

/** A video or a branch of the map, by its flow id. */
export type MapItem = { kind: 'node' | 'edge'; id: string };

/** The id of what is selected for the toolbar (outlined), if anything. */
export const SelectedItem = createContext<string | null>(null);

/** On the editing map, what a click on an edge's label does: select the branch, or (double-click) open it. */
export const PickEdge = createContext<{ select: (id: string) => void; open: (id: string) => void } | null>(null);

/** Where the user went to, in the editor: a video, or a branch element (and button) on it. */
interface MapTarget {
  elementId: string;
  branchId: string | null;
}

export interface FunnelMapProps {
  videos: ReadonlyArray<MapSourceVideo>;
  /** Opens a video (click, or Enter on a focused node), or the element behind an edge (click or Enter); omitted: the map only shows. */
  onOpen?: (editorId: string, at?: MapTarget) => void;
  stats?: MapStats;
  height?: number | string;
  label?: string;
  /** Given (the editor page): the map edits the funnel through the editor's document store. */
  editing?: MapEditing;
}

/** What the map edits with: the editor's store (one history, the plan's limits) and its dialogs. */
export interface MapEditing {
  store: DocumentStore;
  /** An action the plan does not allow: its message with 'Upgrade Plan'. */
  onRefused: (message: string) => void;
  /** The editor's own removal of a video (it asks first); `done` runs once removed. */
  removeVideo: (video: EditorVideo, done?: () => void) => void;
}
