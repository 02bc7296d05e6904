import type { VideoResource } from '@branchify/shared';
import { defaultHideAt, round, timelineDuration } from '../timeline-math';
import { mapElement, mapVideo, newElement, newId } from './edits';
import { limitRefusal } from './limits';
import type { EditorDocument, EditorLimits, EditorVideo, MapPosition, NewElementLook } from './types';

/** Pure changes the funnel map makes to the document: branches drawn between videos, targets, positions. */

/** A branch drawn on the map shows for the last seconds of its video. */
const MAP_BRANCH_LEAD_SECONDS = 5;
/** A button drawn on the map says where it leads, cut to this many characters. */
const MAP_BUTTON_TEXT_MAX = 40;

/** When a branch drawn on the map shows: the last 5 s of its video; with the duration unknown, the editor's own default bar from 0. */
const mapBranchTiming = (video: EditorVideo): { showAt: number; hideAt: number } => {
  const duration = video.video?.duration;
  if (duration && duration > 0) return { showAt: round(Math.max(0, duration - MAP_BRANCH_LEAD_SECONDS)), hideAt: round(duration) };
  return { showAt: 0, hideAt: round(defaultHideAt(0, timelineDuration(null, Math.max(0, ...video.elements.map((e) => e.hideAt))))) };
};

/** A video's name on a button or in a sentence: its title, else its place in the funnel. */
export const videoTitle = (doc: EditorDocument, editorId: string): string => {
  const at = doc.videos.findIndex((v) => v.editor_id === editorId);
  return at < 0 ? 'a removed video' : (doc.videos[at].video?.title ?? `Video ${at + 1}`);
};

const buttonText = (title: string): string => (title.length > MAP_BUTTON_TEXT_MAX ? `${title.slice(0, MAP_BUTTON_TEXT_MAX - 1)}…` : title);

/** The document with each listed video at its place on the map (the same document when none moves). */
export const withPositions = (doc: EditorDocument, positions: ReadonlyMap<string, MapPosition>): EditorDocument => {
  let changed = false;
  const videos = doc.videos.map((v) => {
    const p = positions.get(v.editor_id);
    if (!p) return v;
    const at = { x: Math.round(p.x), y: Math.round(p.y) };
    if (v.map && v.map.x === at.x && v.map.y === at.y) return v;
    changed = true;
    return { ...v, map: at };
  });
  return changed ? { ...doc, videos } : doc;
};

export type MapBranch = { doc: EditorDocument; elementId: string; branchId: string };

/**
 * A new branch element on `sourceId` whose one button leads to `targetId` and is named after it,
 * shown at the end of the source video where it overlaps nothing; null when either video is not
 * in the funnel, or the plan's refusal.
 */
export const withBranchTo = (
  doc: EditorDocument,
  limits: EditorLimits,
  look: NewElementLook,
  sourceId: string,
  targetId: string,
): MapBranch | { refused: string } | null => {
  const source = doc.videos.find((v) => v.editor_id === sourceId);
  if (!source || !doc.videos.some((v) => v.editor_id === targetId)) return null;
  const refused = limitRefusal(doc, limits, 'branch');
  if (refused) return { refused };
  const element = newElement(doc, source, 'branch', mapBranchTiming(source), look, { video: targetId, text: buttonText(videoTitle(doc, targetId)) });
  if (element.type !== 'branch') return null;
  return {
    doc: mapVideo(doc, sourceId, (v) => ({ ...v, elements: [...v.elements, element] })),
    elementId: element.id,
    branchId: element.data.branches[0].id,
  };
};

/** Library videos added to the funnel, each at its place on the map; their new editor ids in order. */
export const withVideosAt = (
  doc: EditorDocument,
  videos: ReadonlyArray<{ video: VideoResource; at: MapPosition }>,
): { doc: EditorDocument; editorIds: string[] } => {
  const added: EditorVideo[] = videos.map(({ video, at }) => ({
    id: video.id,
    editor_id: newId('v'),
    elements: [],
    video,
    map: { x: Math.round(at.x), y: Math.round(at.y) },
  }));
  return { doc: { ...doc, videos: [...doc.videos, ...added] }, editorIds: added.map((v) => v.editor_id) };
};

/**
 * A button pointed at another video of the funnel (a link-out button becomes a branch to it); a
 * button still saying its old target's title says the new one's.
 */
export const retargeted = (doc: EditorDocument, elementId: string, branchId: string, targetId: string): EditorDocument =>
  mapElement(doc, elementId, (e) => {
    if (e.type !== 'branch') return e;
    const branch = e.data.branches.find((b) => b.id === branchId);
    if (!branch || (branch.onclick === 'branch' && branch.video === targetId)) return e;
    const named = branch.onclick === 'branch' && branch.video !== null && branch.standard.text === buttonText(videoTitle(doc, branch.video));
    const standard = named ? { ...branch.standard, text: buttonText(videoTitle(doc, targetId)) } : branch.standard;
    const next = { ...branch, onclick: 'branch' as const, video: targetId, standard };
    return { ...e, data: { ...e.data, branches: e.data.branches.map((b) => (b.id === branchId ? next : b)) } };
  });

/** A button removed; its element goes with it when it was the element's last button; an inaction that chose it goes back to skip-and-continue. */
export const withoutBranch = (doc: EditorDocument, elementId: string, branchId: string): EditorDocument => {
  let changed = false;
  const videos = doc.videos.map((v) => {
    const element = v.elements.find((e) => e.id === elementId);
    if (element?.type !== 'branch' || !element.data.branches.some((b) => b.id === branchId)) return v;
    changed = true;
    const branches = element.data.branches.filter((b) => b.id !== branchId);
    if (branches.length === 0) return { ...v, elements: v.elements.filter((e) => e.id !== elementId) };
    const inaction = element.data.settings.inaction === branchId ? 'skip-and-continue' : element.data.settings.inaction;
    const next = { ...element, data: { ...element.data, branches, settings: { ...element.data.settings, inaction } } };
    return { ...v, elements: v.elements.map((e) => (e.id === elementId ? next : e)) };
  });
  return changed ? { ...doc, videos } : doc;
};
