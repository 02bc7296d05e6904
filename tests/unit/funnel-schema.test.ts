import { branchTargets, countBranchElements, countElements, countTextElements, funnelDocumentSchema, rootVideo } from '@branchify/shared';

const branch = (id: string, to: string) => ({ id, type: 'branch', data: { branches: [{ id: `${id}-b`, onclick: 'branch', video: to }] } });

describe('funnelDocumentSchema', () => {
  it('fills the documented defaults', () => {
    const doc = funnelDocumentSchema.parse({
      title: 'T',
      videos: [{ id: 1, editor_id: 'a', elements: [{ id: 'e', type: 'branch', data: { branches: [{ id: 'b', onclick: 'timestamp' }] } }] }],
    });
    const el = doc.videos[0]!.elements[0]!;
    expect(el.type).toBe('branch');
    if (el.type !== 'branch') return;
    expect(el.data.settings).toMatchObject({
      inaction: 'skip-and-continue',
      pauseVideo: { enabled: false, duration: 10 },
      animation: 'none',
      equalize: false,
      border: { enabled: false, size: 1 },
    });
    expect(el.data.prompt).toMatchObject({ fontSize: 2, fontFamily: 'Abel' });
    expect(el.data.branches[0]).toMatchObject({
      type: 'standard',
      timestamp: { hours: 0, minutes: 0, seconds: 0 },
      standard: { fontSize: 1.5 },
      image: { width: 100, height: 100 },
    });
    expect(doc.settings).toEqual({ enable_resume_play: false, allow_indexing: false });
  });

  it('drops unknown keys rather than storing them', () => {
    const doc = funnelDocumentSchema.parse({ title: 'T', owner_id: 9, videos: [{ id: 1, editor_id: 'a', html: '<script>', elements: [] }] });
    expect(doc).not.toHaveProperty('owner_id');
    expect(doc.videos[0]).not.toHaveProperty('html');
  });

  it('accepts an inaction URL or one of the element branches', () => {
    const base = (inaction: string) => ({
      title: 'T',
      videos: [
        { id: 1, editor_id: 'a', elements: [{ id: 'e', type: 'branch', data: { branches: [{ id: 'b1', onclick: 'timestamp' }], settings: { inaction } } }] },
      ],
    });
    expect(funnelDocumentSchema.safeParse(base('b1')).success).toBe(true);
    expect(funnelDocumentSchema.safeParse(base('https://example.com/next')).success).toBe(true);
    expect(funnelDocumentSchema.safeParse(base('javascript:void(0)')).success).toBe(false);
  });

  it('refuses duplicate editor and element ids', () => {
    const res = funnelDocumentSchema.safeParse({
      title: 'T',
      videos: [
        { id: 1, editor_id: 'a', elements: [{ id: 'e', type: 'text' }] },
        { id: 2, editor_id: 'a', elements: [{ id: 'e', type: 'text' }] },
      ],
    });
    expect(res.success).toBe(false);
    expect(res.error!.issues.map((i) => i.path.join('.'))).toEqual(['videos.1.editor_id', 'videos.1.elements.0.id']);
  });
});

describe('rootVideo and countBranchElements', () => {
  it('picks the first video no branch points to, else the first', () => {
    const videos = [
      { editor_id: 'b', elements: [] },
      { editor_id: 'a', elements: [branch('x', 'b')] },
    ];
    expect(rootVideo(videos)!.editor_id).toBe('a');
    const loop = [
      { editor_id: 'a', elements: [branch('x', 'b')] },
      { editor_id: 'b', elements: [branch('y', 'a')] },
    ];
    expect(rootVideo(loop)!.editor_id).toBe('a');
    // Every video reached: the root falls back to the first, which is itself a branch target.
    expect([...branchTargets(loop)].sort()).toEqual(['a', 'b']);
    expect([...branchTargets(videos)]).toEqual(['b']);
    // A branch to its own video does not make it reached.
    expect(branchTargets([{ editor_id: 'a', elements: [branch('x', 'a')] }]).size).toBe(0);
    expect(rootVideo([])).toBeNull();
    expect(countBranchElements(loop)).toBe(2);
  });
});

describe('countElements', () => {
  it('counts branch and text elements across the funnel, each type on its own', () => {
    const text = (id: string) => ({ id, type: 'text', data: {} });
    const videos = [
      { editor_id: 'a', elements: [branch('x', 'b'), text('t1'), text('t2')] },
      { editor_id: 'b', elements: [text('t3'), branch('y', 'a'), branch('z', 'a')] },
      { editor_id: 'c', elements: [] },
    ];
    expect(countElements(videos, 'branch')).toBe(3);
    expect(countElements(videos, 'text')).toBe(3);
    expect(countBranchElements(videos)).toBe(3);
    expect(countTextElements(videos.slice(1))).toBe(1);
    expect(countElements([], 'text')).toBe(0);
  });
});
