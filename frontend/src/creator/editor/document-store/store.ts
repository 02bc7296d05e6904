import { MESSAGES, type Branch, type FunnelElement, type VideoResource } from '@branchify/shared';
import type { Point } from '../timeline-math';
import { branchCopy, elementCopy, insertAfter, mapElement, mapVideo, newBranch, newElement, newId, placedAt } from './edits';
import { UndoHistory } from './history';
import { limitRefusal } from './limits';
import { retargeted, withBranchTo, withPositions, withVideosAt, withoutBranch } from './map-edits';
import type {
  AddResult,
  BranchElement,
  BranchResult,
  EditorDocument,
  EditorLimits,
  EditorState,
  EditorVideo,
  MapPosition,
  NewElementLook,
  TextElement,
} from './types';

/**
 * The funnel being edited, free of React: its videos and their elements, what is selected, the
 * undo history and whether anything is unsaved. Every change goes through `update`, which keeps
 * the old state for undo and notifies each listener once. Views read it with
 * `useSyncExternalStore(store.subscribe, store.getState)` and a selector.
 */
export class DocumentStore {
  private state: EditorState;
  private readonly listeners = new Set<() => void>();
  private readonly history = new UndoHistory();
  /** The document as last saved (or loaded): `dirty` compares against it. */
  private saved: EditorDocument;
  private look: NewElementLook = { buttonColor: null };

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

  /** What new elements take from the app's branding (the colour of a new button). */
  setLook(look: NewElementLook): void {
    this.look = look;
  }

  // --- selection -------------------------------------------------------------------------------

  selectVideo(editorId: string | null): void {
    this.set({ selectedVideo: editorId, selectedElement: null, selectedBranch: null });
  }

  selectElement(id: string | null, branchId: string | null = null): void {
    const element = id ? this.findElement(id) : null;
    const branch = element?.type === 'branch' ? (branchId ?? element.data.branches[0]?.id ?? null) : null;
    this.set({ selectedElement: element ? id : null, selectedBranch: branch });
  }

  /** Back: nothing selected on the video. */
  clearSelection(): void {
    this.set({ selectedElement: null, selectedBranch: null });
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
    if (this.state.selectedVideo === editorId) this.set({ selectedVideo: null, selectedElement: null, selectedBranch: null });
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
      videos.splice(Math.max(0, Math.min(videos.length, toIndex)), 0, moved);
      return { ...doc, videos };
    });
  }

  // --- elements --------------------------------------------------------------------------------

  /**
   * Adds a text or branch element to a video, showing from `showAt` to `hideAt`, placed where it
   * overlaps nothing (see `newElement`). Refused with the plan's message when the funnel is at its limit.
   */
  addElement(editorId: string, type: 'text' | 'branch', timing: { showAt: number; hideAt: number }): AddResult {
    const doc = this.state.doc;
    const video = doc.videos.find((v) => v.editor_id === editorId);
    if (!video) return { ok: false, message: MESSAGES.notFound };
    const refused = limitRefusal(doc, this.limits, type);
    if (refused) return { ok: false, message: refused };
    const element = newElement(doc, video, type, timing, this.look);
    this.update((d) => mapVideo(d, editorId, (v) => ({ ...v, elements: [...v.elements, element] })));
    this.selectElement(element.id);
    return { ok: true, id: element.id };
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
    this.updateElement(id, (e) => placedAt(e, position));
  }

  resizeElement(id: string, width: number, position?: Point): void {
    this.updateElement(id, (e) => ({ ...(position ? placedAt(e, position) : e), width: Math.round(width) }));
  }

  deleteElement(id: string): void {
    this.update((doc) => ({ ...doc, videos: doc.videos.map((v) => ({ ...v, elements: v.elements.filter((e) => e.id !== id) })) }));
    if (this.state.selectedElement === id) this.set({ selectedElement: null, selectedBranch: null });
  }

  /** A copy of an element 30 px down and right, with new ids (subject to the same limits). */
  duplicateElement(id: string): AddResult {
    const found = this.locate(id);
    if (!found) return { ok: false, message: MESSAGES.notFound };
    const { video, element } = found;
    const refused = limitRefusal(this.state.doc, this.limits, element.type);
    if (refused) return { ok: false, message: refused };
    const copy = elementCopy(element);
    this.update((doc) => mapVideo(doc, video.editor_id, (v) => ({ ...v, elements: insertAfter(v.elements, id, copy) })));
    this.selectElement(copy.id);
    return { ok: true, id: copy.id };
  }

  // --- branches inside a branch element ----------------------------------------------------------

  /** Adds a branch to a branch element where it overlaps nothing (see `newBranch`) and selects it. */
  addBranch(elementId: string): string | null {
    const found = this.locate(elementId);
    if (!found || found.element.type !== 'branch') return null;
    const branch = newBranch(this.state.doc, found.video, found.element, this.look);
    this.updateBranchElement(elementId, (e) => ({ ...e, data: { ...e.data, branches: [...e.data.branches, branch] } }));
    this.set({ selectedBranch: branch.id });
    return branch.id;
  }

  /** A copy of a branch 30 px down and right of it, named as the next branch. */
  duplicateBranch(elementId: string, branchId: string): string | null {
    const found = this.locate(elementId);
    if (!found || found.element.type !== 'branch') return null;
    const branches = found.element.data.branches;
    const original = branches.find((b) => b.id === branchId);
    if (!original) return null;
    const copy = branchCopy(original, branches);
    this.updateBranchElement(elementId, (e) => ({ ...e, data: { ...e.data, branches: insertAfter(e.data.branches, branchId, copy) } }));
    this.set({ selectedBranch: copy.id });
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
      this.set({ selectedBranch: element?.type === 'branch' ? (element.data.branches[0]?.id ?? null) : null });
    }
  }

  // --- the funnel map ---------------------------------------------------------------------------
  // Each is one undo step; `pins` (every video's place as the map shows it) keep the map as it is.

  /** Videos moved on the map (a drag, when it ends). */
  placeOnMap(positions: ReadonlyMap<string, MapPosition>): void {
    this.update((doc) => withPositions(doc, positions));
  }

  /** A new branch element on `sourceId` with one button to `targetId` (see `withBranchTo`); refused by the plan's limit. */
  branchOnMap(sourceId: string, targetId: string, pins: ReadonlyMap<string, MapPosition> = new Map()): BranchResult {
    const made = withBranchTo(withPositions(this.state.doc, pins), this.limits, this.look, sourceId, targetId);
    if (!made) return { ok: false, message: MESSAGES.notFound };
    if ('refused' in made) return { ok: false, message: made.refused };
    this.update(() => made.doc);
    return { ok: true, elementId: made.elementId, branchId: made.branchId };
  }

  /** Library videos added at their places and, from `sourceId`, a branch to each; all or nothing. */
  branchToNewVideos(
    sourceId: string,
    videos: ReadonlyArray<{ video: VideoResource; at: MapPosition }>,
    pins: ReadonlyMap<string, MapPosition> = new Map(),
  ): { ok: true; editorIds: string[] } | { ok: false; message: string } {
    const added = withVideosAt(withPositions(this.state.doc, pins), videos);
    let doc = added.doc;
    for (const editorId of added.editorIds) {
      const made = withBranchTo(doc, this.limits, this.look, sourceId, editorId);
      if (!made) return { ok: false, message: MESSAGES.notFound };
      if ('refused' in made) return { ok: false, message: made.refused };
      doc = made.doc;
    }
    this.update(() => doc);
    return { ok: true, editorIds: added.editorIds };
  }

  /** Library videos added at their places on the map. */
  addVideosOnMap(videos: ReadonlyArray<{ video: VideoResource; at: MapPosition }>, pins: ReadonlyMap<string, MapPosition> = new Map()): string[] {
    const added = withVideosAt(withPositions(this.state.doc, pins), videos);
    this.update(() => added.doc);
    return added.editorIds;
  }

  /** A button now leads to another video of the funnel. */
  retargetBranch(elementId: string, branchId: string, targetId: string): void {
    if (!this.state.doc.videos.some((v) => v.editor_id === targetId)) return;
    this.update((doc) => retargeted(doc, elementId, branchId, targetId));
  }

  /** A button removed from the map (its element too when it was the last one). */
  removeBranchOnMap(elementId: string, branchId: string): void {
    this.update((doc) => withoutBranch(doc, elementId, branchId));
    if (this.state.selectedBranch === branchId) this.set({ selectedElement: null, selectedBranch: null });
  }

  // --- the funnel's own fields, history, saving --------------------------------------------------

  setMeta(meta: Partial<Pick<EditorDocument, 'title' | 'description' | 'settings' | 'variables'>>): void {
    this.update((doc) => ({ ...doc, ...meta }), `meta:${Object.keys(meta).join(',')}`);
  }

  undo(): void {
    const previous = this.history.undo(this.state.doc);
    if (previous) this.commit(previous);
  }

  redo(): void {
    const next = this.history.redo(this.state.doc);
    if (next) this.commit(next);
  }

  /**
   * `doc` (what was sent) is now the saved document: unsaved only if it changed since (an edit
   * made while the save was on its way stays unsaved).
   */
  markSaved(doc: EditorDocument = this.state.doc): void {
    this.saved = doc;
    this.history.breakRun();
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

  /** The one way the document changes: undo keeps the previous one (runs of the same `key` share a step). */
  private update(change: (doc: EditorDocument) => EditorDocument, key?: string): void {
    const before = this.state.doc;
    const after = change(before);
    if (after === before) return;
    this.history.record(before, key, this.now());
    this.commit(after);
  }

  private commit(doc: EditorDocument): void {
    this.set({ doc, canUndo: this.history.canUndo, canRedo: this.history.canRedo, dirty: doc !== this.saved });
  }

  /** Merges a change into the state; listeners hear of it once, and only if something differs. */
  private set(patch: Partial<EditorState>): void {
    const next = { ...this.state, ...patch };
    if ((Object.keys(patch) as Array<keyof EditorState>).every((k) => Object.is(next[k], this.state[k]))) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }
}
