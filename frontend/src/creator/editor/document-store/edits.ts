import { elementSchema, branchSchema, type Branch, type FunnelElement } from '@branchify/shared';
import { PLACEMENT_GAP_PX, PROMPT_ROW, branchElementBoxes, branchSize, elementBoxes, freeSpot, insideSafeArea, overlappingInTime } from '../placement';
import { BRANCH_STAGGER_PX, ELEMENT_STAGGER_PX, duplicatePosition, nextBranchName, staggered, type Point } from '../timeline-math';
import { DESIGN_SIZE, type BranchElement, type EditorDocument, type EditorVideo, type NewElementLook } from './types';

/** Pure changes to the document and the new elements and branches put into it. */

let counter = 0;
/** Ids unique in the funnel (the schema checks): a prefix, the time and a counter. */
export const newId = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A new element with the shared schema's defaults (font Abel, size 2, the branch settings, …). */
const makeElement = (type: 'text' | 'branch', fields: Record<string, unknown>): FunnelElement => elementSchema.parse({ type, ...fields });
const makeBranch = (fields: Record<string, unknown>): Branch => branchSchema.parse(fields);

export const mapVideo = (doc: EditorDocument, editorId: string, change: (video: EditorVideo) => EditorVideo): EditorDocument => ({
  ...doc,
  videos: doc.videos.map((v) => (v.editor_id === editorId ? change(v) : v)),
});

/** The document with one element changed (the same document when `change` returns it unchanged). */
export const mapElement = (doc: EditorDocument, id: string, change: (element: FunnelElement) => FunnelElement): EditorDocument => {
  let changed = false;
  const videos = doc.videos.map((v) => {
    const at = v.elements.findIndex((e) => e.id === id);
    if (at < 0) return v;
    const next = change(v.elements[at]);
    if (next === v.elements[at]) return v;
    changed = true;
    const elements = [...v.elements];
    elements[at] = next;
    return { ...v, elements };
  });
  return changed ? { ...doc, videos } : doc;
};

/** `item` inserted right after the entry with id `afterId` (first when none has it). */
export const insertAfter = <T extends { id: string }>(list: readonly T[], afterId: string, item: T): T[] => {
  const next = [...list];
  next.splice(next.findIndex((x) => x.id === afterId) + 1, 0, item);
  return next;
};

/** What a new button is made with instead of the defaults: where it leads and what it says. */
export interface BranchDraft {
  video: string;
  text: string;
}

/**
 * A new branch named as the next one, leading to the first other video of the funnel (or as
 * `draft` says), its button in the brand's colour when `look` names one.
 */
const draftBranch = (
  doc: EditorDocument,
  existing: readonly Branch[],
  editorId: string,
  position: Point,
  look: NewElementLook,
  draft?: BranchDraft,
): Branch => {
  const target = draft?.video ?? doc.videos.find((v) => v.editor_id !== editorId)?.editor_id ?? null;
  const name = nextBranchName(existing.map((b) => b.name));
  const background = look.buttonColor ? { color: look.buttonColor } : {};
  return makeBranch({
    id: newId('br'),
    name,
    onclick: 'branch',
    video: target,
    standard: { text: draft?.text ?? name, position, background },
    image: { position },
  });
};

/**
 * A new text or branch element for a video, showing from `showAt` to `hideAt`, where it overlaps
 * nothing shown meanwhile inside the safe area (staggered 30 px from the previous one when the
 * video is full).
 */
export const newElement = (
  doc: EditorDocument,
  video: EditorVideo,
  type: 'text' | 'branch',
  timing: { showAt: number; hideAt: number },
  look: NewElementLook,
  draft?: BranchDraft,
): FunnelElement => {
  const editorId = video.editor_id;
  const id = newId(type === 'text' ? 't' : 'b');
  const common = { id, position: { top: 0, left: 0 }, player: { ...DESIGN_SIZE }, showAt: timing.showAt, hideAt: timing.hideAt, belongsTo: editorId };
  const drafted =
    type === 'text'
      ? makeElement('text', { ...common, width: 240, data: { title: 'Your text here' } })
      : makeElement('branch', { ...common, data: { branches: [draftBranch(doc, [], editorId, { top: PROMPT_ROW.height, left: 0 }, look, draft)] } });
  // Placed where it overlaps nothing shown while it shows (a branch element: its prompt row and button).
  const parts = elementBoxes(drafted);
  const size = { width: Math.max(...parts.map((b) => b.left + b.width)), height: Math.max(...parts.map((b) => b.top + b.height)) };
  const taken = overlappingInTime(video.elements, timing).flatMap(elementBoxes);
  const position = freeSpot(size, taken, DESIGN_SIZE) ?? insideSafeArea(staggered(video.elements.length, ELEMENT_STAGGER_PX, DESIGN_SIZE), size, DESIGN_SIZE);
  return drafted.type === 'text' ? { ...drafted, position, data: { ...drafted.data, position } } : { ...drafted, position };
};

/** A new branch for a branch element: below its last button when that is free, otherwise the nearest free spot (relative to the element). */
export const newBranch = (doc: EditorDocument, video: EditorVideo, element: BranchElement, look: NewElementLook): Branch => {
  const drafted = draftBranch(doc, element.data.branches, video.editor_id, { top: 0, left: 0 }, look);
  const size = branchSize(drafted);
  const others = overlappingInTime(
    video.elements.filter((e) => e.id !== element.id),
    element,
  ).flatMap(elementBoxes);
  const own = branchElementBoxes(element);
  const last = own[own.length - 1];
  const near = { top: last.top + last.height + PLACEMENT_GAP_PX, left: last.left };
  const origin = element.position;
  const spot =
    freeSpot(size, [...others, ...own], DESIGN_SIZE, near) ??
    insideSafeArea(staggered(element.data.branches.length, BRANCH_STAGGER_PX, DESIGN_SIZE, origin), size, DESIGN_SIZE);
  const position = { top: spot.top - origin.top, left: spot.left - origin.left };
  return { ...drafted, standard: { ...drafted.standard, position }, image: { ...drafted.image, position } };
};

/** A duplicated branch element's branches get new ids; an inaction that chose one follows it. */
const withFreshBranchIds = (data: BranchElement['data']): BranchElement['data'] => {
  const ids = new Map(data.branches.map((b) => [b.id, newId('br')]));
  return {
    ...data,
    branches: data.branches.map((b) => ({ ...b, id: ids.get(b.id)! })),
    settings: { ...data.settings, inaction: ids.get(data.settings.inaction) ?? data.settings.inaction },
  };
};

/** A copy of an element 30 px down and right, with new ids. */
export const elementCopy = (element: FunnelElement): FunnelElement => {
  const copyId = newId(element.type === 'text' ? 't' : 'b');
  const position = duplicatePosition(element.position);
  return element.type === 'text'
    ? { ...structuredClone(element), id: copyId, position, data: { ...structuredClone(element.data), position } }
    : { ...structuredClone(element), id: copyId, position, data: withFreshBranchIds(structuredClone(element.data)) };
};

/** A copy of a branch 30 px down and right of it, named as the next branch. */
export const branchCopy = (original: Branch, siblings: readonly Branch[]): Branch => ({
  ...structuredClone(original),
  id: newId('br'),
  name: nextBranchName(siblings.map((b) => b.name)),
  standard: { ...original.standard, position: duplicatePosition(original.standard.position) },
  image: { ...original.image, position: duplicatePosition(original.image.position) },
});

/** Where an element sits (design pixels); a text element also keeps it in its data. */
export const placedAt = (element: FunnelElement, position: Point): FunnelElement =>
  element.type === 'text' ? { ...element, position, data: { ...element.data, position } } : { ...element, position };
