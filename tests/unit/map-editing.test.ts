import { funnelDocumentSchema, MESSAGES } from '@branchify/shared';
import { DocumentStore, fromResource, toRequestBody } from '../../frontend/src/creator/editor/document-store';
import { elementBoxes } from '../../frontend/src/creator/editor/placement';
import { funnelGraph, layoutFunnel, NODE_HEIGHT, NODE_WIDTH, overlaps, placeLayout, type Box } from '../../frontend/src/creator/map/funnel-graph';
import { placeNode, placeNodes, spotIsFree } from '../../frontend/src/creator/map/map-placement';
import { emptyDocument, libraryVideo } from './support/editor';

const setup = (limit: number | null = null, durations: Array<number | null> = [120, 90, 60]) => {
  const store = new DocumentStore(emptyDocument(), { perFunnel: limit });
  const ids = store.addVideos(durations.map((d, i) => libraryVideo(i + 1, d)));
  store.markSaved();
  return { store, ids };
};

const videoOf = (store: DocumentStore, editorId: string) => store.getState().doc.videos.find((v) => v.editor_id === editorId)!;
const buttonsOf = (store: DocumentStore, editorId: string) =>
  videoOf(store, editorId).elements.flatMap((e) => (e.type === 'branch' ? e.data.branches.map((b) => ({ element: e, branch: b })) : []));
const size = { width: NODE_WIDTH, height: NODE_HEIGHT };

describe('map editing: branches on the document', () => {
  it('a branch drawn between two videos is a new branch element at the end of the source, named after its target, one undo step', () => {
    const { store, ids } = setup();
    const [a, b] = ids as [string, string];
    const made = store.branchOnMap(a, b);
    expect(made.ok).toBe(true);
    const [{ element, branch }] = buttonsOf(store, a);
    expect(made.ok && made.elementId).toBe(element!.id);
    expect(made.ok && made.branchId).toBe(branch!.id);
    expect(element).toMatchObject({ type: 'branch', showAt: 115, hideAt: 120, belongsTo: a });
    expect(branch).toMatchObject({ onclick: 'branch', video: b, standard: { text: 'Video 2' } });
    // The saved document passes the server's schema.
    expect(funnelDocumentSchema.safeParse(toRequestBody(store.getState().doc)).success).toBe(true);
    expect(store.getState()).toMatchObject({ canUndo: true, dirty: true });
    store.undo();
    expect(buttonsOf(store, a)).toEqual([]);
    expect(store.getState().dirty).toBe(false);
  });

  it('a second branch on the same video goes where it overlaps the first in nothing; a short or unknown duration keeps the timing sensible', () => {
    const { store, ids } = setup(null, [3, null, 60]);
    const [a, b, c] = ids as [string, string, string];
    store.branchOnMap(a, b);
    store.branchOnMap(a, c);
    const [first, second] = videoOf(store, a).elements;
    // Under 5 s long: the whole video.
    expect(first).toMatchObject({ showAt: 0, hideAt: 3 });
    expect(
      elementBoxes(first!).some((x) =>
        elementBoxes(second!).some((y) => x.left < y.left + y.width && y.left < x.left + x.width && x.top < y.top + y.height && y.top < x.top + x.height),
      ),
    ).toBe(false);
    // Unknown duration: from the start, for the editor's default bar.
    store.branchOnMap(b, c);
    const [onB] = videoOf(store, b).elements;
    expect(onB!.showAt).toBe(0);
    expect(onB!.hideAt).toBeGreaterThan(0);
  });

  it("a branch drawn on the map counts against the plan's limit and is refused with its message", () => {
    const { store, ids } = setup(1);
    const [a, b, c] = ids as [string, string, string];
    expect(store.branchOnMap(a, b).ok).toBe(true);
    expect(store.branchOnMap(a, c)).toEqual({ ok: false, message: MESSAGES.branchLimitReached });
    // Library videos with branches: all or nothing.
    const before = store.getState().doc;
    expect(store.branchToNewVideos(a, [{ video: libraryVideo(9), at: { x: 500, y: 0 } }])).toEqual({ ok: false, message: MESSAGES.branchLimitReached });
    expect(store.getState().doc).toBe(before);
  });

  it('re-targets a button, removes one (with its element when it was the last), and each is one undo step', () => {
    const { store, ids } = setup();
    const [a, b, c] = ids as [string, string, string];
    const made = store.branchOnMap(a, b);
    if (!made.ok) throw new Error('refused');
    store.addBranch(made.elementId);
    store.retargetBranch(made.elementId, made.branchId, c);
    // Named after its old target, it now says the new one.
    expect(buttonsOf(store, a)[0]!.branch).toMatchObject({ video: c, standard: { text: 'Video 3' } });
    // A button the creator named keeps its words.
    store.updateBranch(made.elementId, made.branchId, (br) => ({ ...br, standard: { ...br.standard, text: 'Go' } }));
    store.retargetBranch(made.elementId, made.branchId, b);
    store.retargetBranch(made.elementId, made.branchId, c);
    expect(buttonsOf(store, a)[0]!.branch).toMatchObject({ video: c, standard: { text: 'Go' } });
    // A video not in the funnel is no target.
    store.retargetBranch(made.elementId, made.branchId, 'nowhere');
    expect(buttonsOf(store, a)[0]!.branch.video).toBe(c);
    store.removeBranchOnMap(made.elementId, made.branchId);
    expect(buttonsOf(store, a)).toHaveLength(1);
    const other = buttonsOf(store, a)[0]!.branch.id;
    store.removeBranchOnMap(made.elementId, other);
    expect(videoOf(store, a).elements).toEqual([]);
    store.undo();
    expect(buttonsOf(store, a)).toHaveLength(1);
    store.undo();
    expect(buttonsOf(store, a)).toHaveLength(2);
    for (let i = 0; i < 4; i += 1) store.undo();
    expect(buttonsOf(store, a)[0]!.branch).toMatchObject({ video: b, standard: { text: 'Video 2' } });
  });

  it('adds library videos with a branch to each and their places, in one undo step', () => {
    const { store, ids } = setup();
    const [a] = ids as [string];
    const made = store.branchToNewVideos(a, [
      { video: libraryVideo(7), at: { x: 300.4, y: 10.6 } },
      { video: libraryVideo(8), at: { x: 300, y: 300 } },
    ]);
    if (!made.ok) throw new Error('refused');
    expect(made.editorIds).toHaveLength(2);
    expect(videoOf(store, made.editorIds[0]!).map).toEqual({ x: 300, y: 11 });
    expect(buttonsOf(store, a).map((x) => x.branch.video)).toEqual(made.editorIds);
    store.undo();
    expect(store.getState().doc.videos).toHaveLength(3);
  });
});

describe('map editing: positions', () => {
  it('a drag is one undo step; positions go to the server and come back from it', () => {
    const { store, ids } = setup();
    const [a, b] = ids as [string, string];
    store.placeOnMap(
      new Map([
        [a, { x: 10, y: 20 }],
        [b, { x: 400, y: 20 }],
      ]),
    );
    // The same places again change nothing (no step).
    store.placeOnMap(new Map([[a, { x: 10, y: 20 }]]));
    expect(videoOf(store, a).map).toEqual({ x: 10, y: 20 });
    const body = toRequestBody(store.getState().doc);
    const parsed = funnelDocumentSchema.parse(body);
    expect(parsed.videos[0]!.map).toEqual({ x: 10, y: 20 });
    expect(parsed.videos[2]!.map).toBeUndefined();
    const back = fromResource({
      id: 1,
      identifier: 'x',
      title: 'Funnel',
      description: '',
      settings: { enable_resume_play: false, allow_indexing: false },
      total_videos: 3,
      created_at: null,
      updated_at: null,
      version: 1,
      variables: [],
      last_view_state: null,
      videos: parsed.videos.map((v) => ({ ...v, video: libraryVideo(v.id) })),
    });
    expect(back.videos[1]!.map).toEqual({ x: 400, y: 20 });
    store.undo();
    expect(videoOf(store, a).map).toBeUndefined();
    expect(videoOf(store, b).map).toBeUndefined();
  });

  it('the schema bounds a stored position', () => {
    const doc = (map: unknown) => ({ title: 'T', videos: [{ id: 1, editor_id: 'v1', map }] });
    expect(funnelDocumentSchema.safeParse(doc({ x: -5, y: 1e6 })).success).toBe(true);
    expect(funnelDocumentSchema.safeParse(doc({ x: 1e7, y: 0 })).success).toBe(false);
    expect(funnelDocumentSchema.safeParse(doc({ x: Number.NaN, y: 0 })).success).toBe(false);
    expect(funnelDocumentSchema.safeParse(doc({ x: 1 })).success).toBe(false);
  });
});

describe('map editing: where new nodes go', () => {
  const at = (x: number, y: number): Box => ({ x, y, ...size });

  it('a new node goes right of its source, level with it, when that is free', () => {
    const source = at(16, 16);
    const p = placeNode(size, [source], source);
    expect(p.y).toBe(16);
    expect(p.x).toBeGreaterThan(source.x + source.width);
  });

  it('beside an occupied spot it goes below or above, then a column further, never over another node', () => {
    const source = at(0, 400);
    const right = placeNode(size, [source], source);
    const taken = [source, at(right.x, right.y), at(right.x, right.y + 240), at(right.x, right.y - 240)];
    const p = placeNode(size, taken, source);
    expect(taken.some((t) => overlaps(t, { ...p, ...size }))).toBe(false);
    expect(spotIsFree(p, size, taken)).toBe(true);
    const many = placeNodes(12, size, [source], source);
    const boxes = [source, ...many.map((m) => at(m.x, m.y))];
    for (let i = 0; i < boxes.length; i += 1) for (let j = i + 1; j < boxes.length; j += 1) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false);
  });

  it('without a source it goes right of everything, at the top', () => {
    expect(placeNode(size, [], null)).toEqual({ x: 16, y: 16 });
    const p = placeNode(size, [at(0, 50), at(300, 10)], null);
    expect(p.x).toBeGreaterThanOrEqual(300 + NODE_WIDTH);
    expect(p.y).toBe(10);
  });

  it('stored places win over the automatic layout; the rest stays where the layout put it', () => {
    const videos = ['a', 'b', 'c'].map((id, i) => ({
      editor_id: id,
      elements: [],
      video: { title: id, thumbnail: null, duration: 10 },
      ...(i === 1 ? { map: { x: -300, y: 900 } } : {}),
    }));
    const graph = funnelGraph(videos);
    const auto = layoutFunnel(graph);
    const laid = placeLayout(graph, auto, new Map([['b', { x: -300, y: 900 }]]));
    expect(laid.nodes.find((n) => n.id === 'b')!.box).toMatchObject({ x: -300, y: 900 });
    expect(laid.nodes.find((n) => n.id === 'a')!.box).toEqual(auto.nodes.find((n) => n.id === 'a')!.box);
    expect(laid.left).toBeLessThan(-300);
    expect(laid.height).toBeGreaterThan(900 + NODE_HEIGHT);
  });
});
