import {
  countElements,
  DEFAULT_FONT_FAMILY,
  elementSchema,
  fontDefinition,
  branchSchema,
  MESSAGES,
  type Branch,
  type FontFamilyName,
  type FunnelElement,
  type FunnelResource,
  type VideoResource,
} from '@branchify/shared';
import { PLACEMENT_GAP_PX, PROMPT_ROW, branchElementBoxes, branchSize, elementBoxes, freeSpot, insideSafeArea, overlappingInTime } from './placement';
import { BRANCH_STAGGER_PX, ELEMENT_STAGGER_PX, duplicatePosition, nextBranchName, staggered, type Point } from './timeline-math';

/**
 * The funnel being edited, free of React: its videos and their elements, what is selected, the
 * undo history and whether anything is unsaved. Every change goes through `update`, which keeps
 * the old state for undo and notifies each listener once. Views read it with
 * `useSyncExternalStore(store.subscribe, store.getState)` and a selector.
 */

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
  settings: { enable_resume_play: boolean };
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

const HISTORY = 100;
/** Edits of the same field in a row within this time are one undo step (typing a title). */
const COALESCE_MS = 1500;

let counter = 0;
/** Ids unique in the funnel (the schema checks): a prefix, the time and a counter. */
export const newId = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A font outside the served catalogue (saved before it existed) becomes the default: it could not be shown anyway. */
const servedFont = (family: string | undefined): FontFamilyName => (fontDefinition(family) ? (family as FontFamilyName) : DEFAULT_FONT_FAMILY);

const withServedFonts = (element: FunnelElement): FunnelElement => {
  if (element.type === 'text') return { ...element, data: { ...element.data, fontFamily: servedFont(element.data.fontFamily) } };
  return {
    ...element,
    data: {
      ...element.data,
      prompt: { ...element.data.prompt, fontFamily: servedFont(element.data.prompt.fontFamily) },
      branches: element.data.branches.map((b) => ({ ...b, standard: { ...b.standard, font: servedFont(b.standard.font) } })),
    },
  };
};

export const fromResource = (funnel: FunnelResource): EditorDocument => ({
  title: funnel.title,
  description: funnel.description ?? '',
  settings: { enable_resume_play: Boolean(funnel.settings?.enable_resume_play) },
  videos: funnel.videos.map((v) => ({ id: v.id, editor_id: v.editor_id, elements: (v.elements as FunnelElement[]).map(withServedFonts), video: v.video })),
});

/** What PUT funnels/{id} takes: the whole document, without the library details. */
export const toRequestBody = (doc: EditorDocument) => ({
  title: doc.title,
  description: doc.description,
  settings: doc.settings,
  videos: doc.videos.map((v) => ({ id: v.id, editor_id: v.editor_id, elements: v.elements })),
});

/** A new element with the shared schema's defaults (font Abel, size 2, the branch settings, …). */
const makeElement = (type: 'text' | 'branch', fields: Record<string, unknown>): FunnelElement => elementSchema.parse({ type, ...fields });
const makeBranch = (fields: Record<string, unknown>): Branch => branchSchema.parse(fields);

export class DocumentStore {
  private state: EditorState;
  private readonly listeners = new Set<() => void>();
  private past: EditorDocument[] = [];
  private future: EditorDocument[] = [];
  private lastEdit: { key: string; at: number } | null = null;
  /** The document as last saved (or loaded): `dirty` compares against it. */
  private saved: EditorDocument;

  constructor(
    doc: EditorDocument,
    private limits: EditorLimits = { perFunnel: null },
    private readonly now: () => number = () => Date.now(),
  ) {
    this.saved = doc;
    this.state = { doc, selectedVideo: null, selectedElement: null, selectedBranch: null, canUndo: false, canRedo: false, dirty: false };
  }

  getState = (): EditorState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  setLimits(limits: EditorLimits): void {
    this.limits = limits;
  }

  // --- selection -------------------------------------------------------------------------------

  selectVideo(editorId: string | null): void {
    this.patch({ selectedVideo: editorId, selectedElement: null, selectedBranch: null });
  }

  selectElement(id: string | null, branchId: string | null = null): void {
    const element = id ? this.findElement(id) : null;
    const branch = element?.type === 'branch' ? (branchId ?? element.data.branches[0]?.id ?? null) : null;
    this.patch({ selectedElement: element ? id : null, selectedBranch: branch });
  }

  /** Back: nothing selected on the video. */
  clearSelection(): void {
    this.patch({ selectedElement: null, selectedBranch: null });
  }

  // --- the funnel's videos ---------------------------------------------------------------------

  addVideos(videos: readonly VideoResource[]): string[] {
    const added = videos.map((video) => ({ id: video.id, editor_id: newId('v'), elements: [], video }));
    this.update((doc) => ({ ...doc, videos: [...doc.videos, ...added] }));
    return added.map((v) => v.editor_id);
  }

  /** Removes a video; branches that pointed at it keep their target, so saving names each one to fix. */
  removeVideo(editorId: string): void {
    this.update((doc) => ({ ...doc, videos: doc.videos.filter((v) => v.editor_id !== editorId) }));
    if (this.state.selectedVideo === editorId) this.patch({ selectedVideo: null, selectedElement: null, selectedBranch: null });
  }

  /** The branches (in other videos) that lead to this video: what removing it would break. */
  branchesInto(editorId: string): Array<{ video: EditorVideo; element: BranchElement; branch: Branch }> {
    return this.state.doc.videos.flatMap((video) =>
      video.elements.flatMap((element) =>
        element.type === 'branch'
          ? element.data.branches.filter((b) => b.onclick === 'branch' && b.video === editorId).map((branch) => ({ video, element, branch }))
          : [],
      ),
    );
  }

  moveVideo(editorId: string, toIndex: number): void {
    this.update((doc) => {
      const from = doc.videos.findIndex((v) => v.editor_id === editorId);
      if (from < 0) return doc;
      const videos = [...doc.videos];
      const [moved] = videos.splice(from, 1);
      videos.splice(Math.max(0, Math.min(videos.length, toIndex)), 0, moved!);
      return { ...doc, videos };
    });
  }

  // --- elements --------------------------------------------------------------------------------

  /**
   * Adds a text or branch element to a video, showing from `showAt` to `hideAt`, where it overlaps
   * nothing shown meanwhile inside the safe area (staggered 30 px from the previous one when the
   * video is full). Refused with the plan's message when the funnel is at its limit.
   */
  addElement(editorId: string, type: 'text' | 'branch', timing: { showAt: number; hideAt: number }): AddResult {
    const doc = this.state.doc;
    const video = doc.videos.find((v) => v.editor_id === editorId);
    if (!video) return { ok: false, message: MESSAGES.notFound };
    const limit = this.limits.perFunnel;
    if (limit !== null) {
      const count = countElements(doc.videos, type);
      if (count + 1 > limit) return { ok: false, message: type === 'branch' ? MESSAGES.branchLimitReached : MESSAGES.textLimitReached };
    }
    const id = newId(type === 'text' ? 't' : 'b');
    const common = { id, position: { top: 0, left: 0 }, player: { ...DESIGN_SIZE }, showAt: timing.showAt, hideAt: timing.hideAt, belongsTo: editorId };
    const drafted =
      type === 'text'
        ? makeElement('text', { ...common, width: 240, data: { title: 'Your text here' } })
        : makeElement('branch', { ...common, data: { branches: [this.newBranch([], editorId, { top: PROMPT_ROW.height, left: 0 })] } });
    // Placed where it overlaps nothing shown while it shows (a branch element: its prompt row and button).
    const parts = elementBoxes(drafted);
    const size = { width: Math.max(...parts.map((b) => b.left + b.width)), height: Math.max(...parts.map((b) => b.top + b.height)) };
    const taken = overlappingInTime(video.elements, timing).flatMap(elementBoxes);
    const position = freeSpot(size, taken, DESIGN_SIZE) ?? insideSafeArea(staggered(video.elements.length, ELEMENT_STAGGER_PX, DESIGN_SIZE), size, DESIGN_SIZE);
    const element: FunnelElement = drafted.type === 'text' ? { ...drafted, position, data: { ...drafted.data, position } } : { ...drafted, position };
    this.update((d) => mapVideo(d, editorId, (v) => ({ ...v, elements: [...v.elements, element] })));
    this.selectElement(id);
    return { ok: true, id };
  }

  /** Changes one element; `key` groups a run of edits (typing) into one undo step. */
  updateElement(id: string, change: (element: FunnelElement) => FunnelElement, key?: string): void {
    this.update((doc) => mapElement(doc, id, change), key ? `${id}:${key}` : undefined);
  }

  updateText(id: string, change: (element: TextElement) => TextElement, key?: string): void {
    this.updateElement(id, (e) => (e.type === 'text' ? change(e) : e), key);
  }

  updateBranchElement(id: string, change: (element: BranchElement) => BranchElement, key?: string): void {
    this.updateElement(id, (e) => (e.type === 'branch' ? change(e) : e), key);
  }

  setTiming(id: string, timing: { showAt: number; hideAt: number }): void {
    this.updateElement(id, (e) => ({ ...e, showAt: timing.showAt, hideAt: timing.hideAt }));
  }

  /** Where an element sits on the video (design pixels); a text element also keeps it in its data. */
  moveElement(id: string, position: Point): void {
    this.updateElement(id, (e) => (e.type === 'text' ? { ...e, position, data: { ...e.data, position } } : { ...e, position }));
  }

  resizeElement(id: string, width: number, position?: Point): void {
    this.updateElement(id, (e) => {
      const moved = position ? (e.type === 'text' ? { ...e, position, data: { ...e.data, position } } : { ...e, position }) : e;
      return { ...moved, width: Math.round(width) };
    });
  }

  deleteElement(id: string): void {
    this.update((doc) => ({ ...doc, videos: doc.videos.map((v) => ({ ...v, elements: v.elements.filter((e) => e.id !== id) })) }));
    if (this.state.selectedElement === id) this.patch({ selectedElement: null, selectedBranch: null });
  }

  /** A copy of an element 30 px down and right, with new ids (subject to the same limits). */
  duplicateElement(id: string): AddResult {
    const found = this.locate(id);
    if (!found) return { ok: false, message: MESSAGES.notFound };
    const { video, element } = found;
    const limit = this.limits.perFunnel;
    if (limit !== null) {
      const count = countElements(this.state.doc.videos, element.type);
      if (count + 1 > limit) return { ok: false, message: element.type === 'branch' ? MESSAGES.branchLimitReached : MESSAGES.textLimitReached };
    }
    const copyId = newId(element.type === 'text' ? 't' : 'b');
    const position = duplicatePosition(element.position);
    const copy: FunnelElement =
      element.type === 'text'
        ? { ...structuredClone(element), id: copyId, position, data: { ...structuredClone(element.data), position } }
        : { ...structuredClone(element), id: copyId, position, data: withFreshBranchIds(structuredClone(element.data)) };
    this.update((doc) =>
      mapVideo(doc, video.editor_id, (v) => {
        const at = v.elements.findIndex((e) => e.id === id);
        const elements = [...v.elements];
        elements.splice(at + 1, 0, copy);
        return { ...v, elements };
      }),
    );
    this.selectElement(copyId);
    return { ok: true, id: copyId };
  }

  // --- branches inside a branch element ----------------------------------------------------------

  addBranch(elementId: string): string | null {
    const found = this.locate(elementId);
    if (!found || found.element.type !== 'branch') return null;
    const { video, element } = found;
    const drafted = this.newBranch(element.data.branches, video.editor_id, { top: 0, left: 0 });
    // Below the last button when that is free, otherwise the nearest free spot; relative to the element.
    const size = branchSize(drafted);
    const others = overlappingInTime(
      video.elements.filter((e) => e.id !== elementId),
      element,
    ).flatMap(elementBoxes);
    const own = branchElementBoxes(element);
    const last = own[own.length - 1]!;
    const near = { top: last.top + last.height + PLACEMENT_GAP_PX, left: last.left };
    const origin = element.position;
    const spot =
      freeSpot(size, [...others, ...own], DESIGN_SIZE, near) ??
      insideSafeArea(staggered(element.data.branches.length, BRANCH_STAGGER_PX, DESIGN_SIZE, origin), size, DESIGN_SIZE);
    const position = { top: spot.top - origin.top, left: spot.left - origin.left };
    const branch: Branch = { ...drafted, standard: { ...drafted.standard, position }, image: { ...drafted.image, position } };
    this.updateBranchElement(elementId, (e) => ({ ...e, data: { ...e.data, branches: [...e.data.branches, branch] } }));
    this.patch({ selectedBranch: branch.id });
    return branch.id;
  }

  /** A copy of a branch 30 px down and right of it, named as the next branch. */
  duplicateBranch(elementId: string, branchId: string): string | null {
    const found = this.locate(elementId);
    if (!found || found.element.type !== 'branch') return null;
    const branches = found.element.data.branches;
    const original = branches.find((b) => b.id === branchId);
    if (!original) return null;
    const copy: Branch = {
      ...structuredClone(original),
      id: newId('br'),
      name: nextBranchName(branches.map((b) => b.name)),
      standard: { ...original.standard, position: duplicatePosition(original.standard.position) },
      image: { ...original.image, position: duplicatePosition(original.image.position) },
    };
    this.updateBranchElement(elementId, (e) => {
      const list = [...e.data.branches];
      list.splice(list.findIndex((b) => b.id === branchId) + 1, 0, copy);
      return { ...e, data: { ...e.data, branches: list } };
    });
    this.patch({ selectedBranch: copy.id });
    return copy.id;
  }

  updateBranch(elementId: string, branchId: string, change: (branch: Branch) => Branch, key?: string): void {
    this.updateBranchElement(
      elementId,
      (e) => ({ ...e, data: { ...e.data, branches: e.data.branches.map((b) => (b.id === branchId ? change(b) : b)) } }),
      key ? `${branchId}:${key}` : undefined,
    );
  }

  /** Removes a branch; an inaction that chose it goes back to skip-and-continue. */
  removeBranch(elementId: string, branchId: string): void {
    this.updateBranchElement(elementId, (e) => {
      const branches = e.data.branches.filter((b) => b.id !== branchId);
      const inaction = e.data.settings.inaction === branchId ? 'skip-and-continue' : e.data.settings.inaction;
      return { ...e, data: { ...e.data, branches, settings: { ...e.data.settings, inaction } } };
    });
    if (this.state.selectedBranch === branchId) {
      const element = this.findElement(elementId);
      this.patch({ selectedBranch: element?.type === 'branch' ? (element.data.branches[0]?.id ?? null) : null });
    }
  }

  // --- the funnel's own fields, history, saving --------------------------------------------------

  setMeta(meta: Partial<Pick<EditorDocument, 'title' | 'description' | 'settings'>>): void {
    this.update((doc) => ({ ...doc, ...meta }), `meta:${Object.keys(meta).join(',')}`);
  }

  undo(): void {
    const previous = this.past.pop();
    if (!previous) return;
    this.future.push(this.state.doc);
    this.lastEdit = null;
    this.commit(previous);
  }

  redo(): void {
    const next = this.future.pop();
    if (!next) return;
    this.past.push(this.state.doc);
    this.lastEdit = null;
    this.commit(next);
  }

  /**
   * `doc` (what was sent) is now the saved document: unsaved only if it changed since (an edit
   * made while the save was on its way stays unsaved).
   */
  markSaved(doc: EditorDocument = this.state.doc): void {
    this.saved = doc;
    this.lastEdit = null;
    this.set({ dirty: this.state.doc !== doc });
  }

  findElement(id: string): FunnelElement | null {
    return this.locate(id)?.element ?? null;
  }

  locate(id: string): { video: EditorVideo; element: FunnelElement } | null {
    for (const video of this.state.doc.videos) {
      const element = video.elements.find((e) => e.id === id);
      if (element) return { video, element };
    }
    return null;
  }

  // --- internals -------------------------------------------------------------------------------

  private newBranch(existing: readonly Branch[], editorId: string, position: Point): Branch {
    const target = this.state.doc.videos.find((v) => v.editor_id !== editorId)?.editor_id ?? null;
    const name = nextBranchName(existing.map((b) => b.name));
    return makeBranch({ id: newId('br'), name, onclick: 'branch', video: target, standard: { text: name, position }, image: { position } });
  }

  /** The one way the document changes: undo keeps the previous one (runs of the same `key` share a step). */
  private update(change: (doc: EditorDocument) => EditorDocument, key?: string): void {
    const before = this.state.doc;
    const after = change(before);
    if (after === before) return;
    const at = this.now();
    const coalesce = key !== undefined && this.lastEdit?.key === key && at - this.lastEdit.at < COALESCE_MS;
    if (!coalesce) {
      this.past.push(before);
      if (this.past.length > HISTORY) this.past.shift();
    }
    this.future = [];
    this.lastEdit = key ? { key, at } : null;
    this.commit(after);
  }

  private commit(doc: EditorDocument): void {
    this.set({ doc, canUndo: this.past.length > 0, canRedo: this.future.length > 0, dirty: doc !== this.saved });
  }

  private patch(patch: Partial<EditorState>): void {
    this.set(patch);
  }

  private set(patch: Partial<EditorState>): void {
    const next = { ...this.state, ...patch };
    if ((Object.keys(patch) as Array<keyof EditorState>).every((k) => Object.is(next[k], this.state[k]))) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }
}

const mapVideo = (doc: EditorDocument, editorId: string, change: (video: EditorVideo) => EditorVideo): EditorDocument => ({
  ...doc,
  videos: doc.videos.map((v) => (v.editor_id === editorId ? change(v) : v)),
});

const mapElement = (doc: EditorDocument, id: string, change: (element: FunnelElement) => FunnelElement): EditorDocument => {
  let changed = false;
  const videos = doc.videos.map((v) => {
    const at = v.elements.findIndex((e) => e.id === id);
    if (at < 0) return v;
    const next = change(v.elements[at]!);
    if (next === v.elements[at]) return v;
    changed = true;
    const elements = [...v.elements];
    elements[at] = next;
    return { ...v, elements };
  });
  return changed ? { ...doc, videos } : doc;
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
