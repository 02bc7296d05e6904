import { funnelDocumentSchema, MESSAGES } from '@branchify/shared';
import { DocumentStore, toRequestBody } from '../../frontend/src/creator/editor/document-store';
import { PROMPT_ROW, elementBoxes, type Box } from '../../frontend/src/creator/editor/placement';
import { SAFE_AREA } from '../../frontend/src/creator/editor/timeline-math';
import { emptyDocument, libraryVideo } from './support/editor';

/** A store with two videos and a clock the test moves. */
const setup = (limit: number | null = null) => {
  let now = 1_000;
  const store = new DocumentStore(emptyDocument(), { perFunnel: limit }, () => now);
  const [first, second] = store.addVideos([libraryVideo(1), libraryVideo(2)]);
  store.markSaved();
  return { store, first: first!, second: second!, tick: (ms: number) => (now += ms) };
};

const overlapsAny = (a: readonly Box[], b: readonly Box[]) =>
  a.some((x) => b.some((y) => x.left < y.left + y.width && y.left < x.left + x.width && x.top < y.top + y.height && y.top < x.top + x.height));
const elementsOf = (store: DocumentStore, editorId: string) => store.getState().doc.videos.find((v) => v.editor_id === editorId)!.elements;

describe('editor document: elements', () => {
  it('adds text and branch elements with the shared defaults, each where it overlaps nothing inside the safe area', () => {
    const { store, first } = setup();
    const text = store.addElement(first, 'text', { showAt: 1, hideAt: 11 });
    const branch = store.addElement(first, 'branch', { showAt: 2, hideAt: 12 });
    expect(text.ok && branch.ok).toBe(true);
    const [t, b] = elementsOf(store, first);
    expect(t).toMatchObject({
      type: 'text',
      showAt: 1,
      hideAt: 11,
      position: { top: SAFE_AREA.top, left: SAFE_AREA.left },
      belongsTo: first,
      player: { width: 640, height: 360 },
    });
    expect(t!.type === 'text' && t!.data).toMatchObject({ fontFamily: 'Abel', fontSize: 2, fontThickness: 'regular' });
    const data = b!.type === 'branch' ? b!.data : null;
    // The branch element (its prompt row above its first button) clears the text it shows with.
    expect(overlapsAny(elementBoxes(b!), elementBoxes(t!))).toBe(false);
    expect(data!.branches[0]!.standard.position).toEqual({ top: PROMPT_ROW.height, left: 0 });
    expect(data!.branches).toHaveLength(1);
    expect(data!.branches[0]).toMatchObject({ name: 'Branch 1', type: 'standard', onclick: 'branch', video: expect.any(String), standard: { fontSize: 1.5 } });
    expect(data!.settings).toMatchObject({ inaction: 'skip-and-continue', pauseVideo: { enabled: false, duration: 10 }, animation: 'none' });
    // A new element is selected for editing.
    expect(store.getState().selectedElement).toBe(b!.id);
  });

  it('points a new branch at another video of the funnel', () => {
    const { store, first, second } = setup();
    store.addElement(first, 'branch', { showAt: 0, hideAt: 5 });
    const b = elementsOf(store, first)[0]!;
    expect(b.type === 'branch' && b.data.branches[0]!.video).toBe(second);
  });

  it('refuses a branch or text element over the plan limit with the spec message', () => {
    const { store, first, second } = setup(2);
    expect(store.addElement(first, 'branch', { showAt: 0, hideAt: 5 }).ok).toBe(true);
    expect(store.addElement(second, 'branch', { showAt: 0, hideAt: 5 }).ok).toBe(true);
    expect(store.addElement(second, 'branch', { showAt: 0, hideAt: 5 })).toEqual({ ok: false, message: MESSAGES.branchLimitReached });
    // Text elements are counted on their own.
    expect(store.addElement(first, 'text', { showAt: 0, hideAt: 5 }).ok).toBe(true);
    expect(store.addElement(first, 'text', { showAt: 0, hideAt: 5 }).ok).toBe(true);
    expect(store.addElement(first, 'text', { showAt: 0, hideAt: 5 })).toEqual({ ok: false, message: MESSAGES.textLimitReached });
    const duplicate = elementsOf(store, first)[0]!.id;
    expect(store.duplicateElement(duplicate)).toEqual({ ok: false, message: MESSAGES.branchLimitReached });
  });

  it('has no limit for an admin or an unlimited plan', () => {
    const { store, first } = setup(null);
    for (let i = 0; i < 12; i += 1) expect(store.addElement(first, 'branch', { showAt: 0, hideAt: 5 }).ok).toBe(true);
  });

  it('duplicates an element 30 px down and right with fresh ids', () => {
    const { store, first } = setup();
    const added = store.addElement(first, 'branch', { showAt: 0, hideAt: 5 });
    const original = elementsOf(store, first)[0]!;
    const copy = store.duplicateElement(added.ok ? added.id : '');
    expect(copy.ok).toBe(true);
    const [, dup] = elementsOf(store, first);
    expect(dup!.position).toEqual({ top: original.position.top + 30, left: original.position.left + 30 });
    expect(dup!.id).not.toBe(original.id);
    expect(dup!.type === 'branch' && dup!.data.branches[0]!.id).not.toBe(original.type === 'branch' && original.data.branches[0]!.id);
  });

  it('deletes an element and clears its selection', () => {
    const { store, first } = setup();
    const added = store.addElement(first, 'text', { showAt: 0, hideAt: 5 });
    store.deleteElement(added.ok ? added.id : '');
    expect(elementsOf(store, first)).toEqual([]);
    expect(store.getState().selectedElement).toBeNull();
  });
});

describe('editor document: branches', () => {
  it('names new branches Branch 2, Branch 3 and places each below the last, clear of the others and of the text', () => {
    const { store, first } = setup();
    store.addElement(first, 'text', { showAt: 0, hideAt: 5 });
    const added = store.addElement(first, 'branch', { showAt: 0, hideAt: 5 });
    const id = added.ok ? added.id : '';
    store.addBranch(id);
    store.addBranch(id);
    const [text, el] = elementsOf(store, first);
    const branches = el!.type === 'branch' ? el!.data.branches : [];
    expect(branches.map((b) => b.name)).toEqual(['Branch 1', 'Branch 2', 'Branch 3']);
    const boxes = [...elementBoxes(text!), ...elementBoxes(el!)];
    for (const [i, a] of boxes.entries()) {
      expect(overlapsAny([a], boxes.slice(i + 1))).toBe(false);
      expect(a.top).toBeGreaterThanOrEqual(SAFE_AREA.top);
      expect(a.left).toBeGreaterThanOrEqual(SAFE_AREA.left);
      expect(a.top + a.height).toBeLessThanOrEqual(360 - SAFE_AREA.bottom);
      expect(a.left + a.width).toBeLessThanOrEqual(640 - SAFE_AREA.right);
    }
    // A column under the prompt: same left edge, each one lower.
    const [b1, b2, b3] = branches.map((b) => b.standard.position);
    expect(b2!.left).toBe(b1!.left);
    expect(b3!.left).toBe(b1!.left);
    expect(b2!.top).toBeGreaterThan(b1!.top);
    expect(b3!.top).toBeGreaterThan(b2!.top);
    expect(store.getState().selectedBranch).toBe(branches[2]!.id);
  });

  it('duplicates a branch 30 px down and right as the next branch', () => {
    const { store, first } = setup();
    const added = store.addElement(first, 'branch', { showAt: 0, hideAt: 5 });
    const id = added.ok ? added.id : '';
    const el0 = elementsOf(store, first)[0]!;
    const b1 = el0.type === 'branch' ? el0.data.branches[0]! : null;
    store.updateBranch(id, b1!.id, (b) => ({ ...b, standard: { ...b.standard, position: { top: 50, left: 70 } } }));
    store.duplicateBranch(id, b1!.id);
    const el = elementsOf(store, first)[0]!;
    const copy = el.type === 'branch' ? el.data.branches[1]! : null;
    expect(copy).toMatchObject({ name: 'Branch 2', standard: { position: { top: 80, left: 100 } } });
  });

  it('sends an inaction that chose a removed branch back to skip-and-continue', () => {
    const { store, first } = setup();
    const added = store.addElement(first, 'branch', { showAt: 0, hideAt: 5 });
    const id = added.ok ? added.id : '';
    const second = store.addBranch(id)!;
    store.updateBranchElement(id, (e) => ({ ...e, data: { ...e.data, settings: { ...e.data.settings, inaction: second } } }));
    store.removeBranch(id, second);
    const el = elementsOf(store, first)[0]!;
    expect(el.type === 'branch' && el.data.settings.inaction).toBe('skip-and-continue');
  });
});

describe('editor document: videos, history and saving', () => {
  it('keeps branches into a removed video and names them', () => {
    const { store, first, second } = setup();
    store.addElement(first, 'branch', { showAt: 0, hideAt: 5 });
    expect(store.branchesInto(second)).toHaveLength(1);
    store.removeVideo(second);
    const parsed = funnelDocumentSchema.safeParse(toRequestBody(store.getState().doc));
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toContain('videos.0.elements.0.data.branches.0.video');
  });

  it('is dirty after a change and clean again after undoing it or saving', () => {
    const { store, first } = setup();
    expect(store.getState().dirty).toBe(false);
    store.addElement(first, 'text', { showAt: 0, hideAt: 5 });
    expect(store.getState()).toMatchObject({ dirty: true, canUndo: true });
    store.undo();
    expect(store.getState()).toMatchObject({ dirty: false, canRedo: true });
    store.redo();
    expect(store.getState().dirty).toBe(true);
    store.markSaved();
    expect(store.getState().dirty).toBe(false);
  });

  it('undoes a run of typing in one step, but not edits far apart', () => {
    const { store, first, tick } = setup();
    const added = store.addElement(first, 'text', { showAt: 0, hideAt: 5 });
    const id = added.ok ? added.id : '';
    for (const title of ['H', 'He', 'Hel', 'Hello']) {
      tick(200);
      store.updateText(id, (e) => ({ ...e, data: { ...e.data, title } }), 'title');
    }
    tick(5000);
    store.updateText(id, (e) => ({ ...e, data: { ...e.data, title: 'Hello!' } }), 'title');
    const title = () => {
      const e = store.findElement(id);
      return e?.type === 'text' ? e.data.title : null;
    };
    store.undo();
    expect(title()).toBe('Hello');
    store.undo();
    expect(title()).toBe('Your text here');
  });

  it('sends a document the server schema accepts', () => {
    const { store, first } = setup();
    store.addElement(first, 'text', { showAt: 0, hideAt: 5 });
    store.addElement(first, 'branch', { showAt: 1, hideAt: 6 });
    const parsed = funnelDocumentSchema.safeParse(toRequestBody(store.getState().doc));
    expect(parsed.success).toBe(true);
  });

  it('notifies listeners once per change and never for a no-op', () => {
    const { store, first } = setup();
    const calls: number[] = [];
    store.subscribe(() => calls.push(1));
    store.selectVideo(first);
    store.selectVideo(first);
    expect(calls).toHaveLength(1);
  });
});
