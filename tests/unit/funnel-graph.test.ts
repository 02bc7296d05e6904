import { elementSchema, type FunnelElement } from '@branchify/shared';
import { edgeStatsKey, funnelGraph, layoutFunnel, linkHost, overlaps, type Box, type MapSourceVideo } from '../../frontend/src/creator/map/funnel-graph';
import { spelledDuration } from '@branchify/shared';
import { completionRate, hasData, headlines, mapStatsOf, type AnalyticsReport } from '../../frontend/src/creator/analytics/report';

type BranchInput = {
  id: string;
  text?: string;
  name?: string;
  onclick?: 'branch' | 'url' | 'timestamp';
  video?: string | null;
  seconds?: number;
  url?: string;
};

/** A branch element through the shared schema, so every default is the real one. */
const buttons = (id: string, branches: BranchInput[], inaction?: string): FunnelElement =>
  elementSchema.parse({
    id,
    type: 'branch',
    showAt: 1,
    hideAt: 5,
    data: {
      branches: branches.map((b) => ({
        id: b.id,
        name: b.name ?? 'Branch',
        onclick: b.onclick ?? 'branch',
        video: b.video ?? null,
        externalLink: b.onclick === 'url' ? (b.url ?? 'https://example.com/') : null,
        timestamp: { seconds: b.seconds ?? 0 },
        standard: { text: b.text ?? '' },
      })),
      settings: inaction ? { inaction } : {},
    },
  });

const video = (editorId: string, elements: FunnelElement[] = [], title = `Video ${editorId}`): MapSourceVideo => ({
  editor_id: editorId,
  elements,
  video: { title, thumbnail: `/uploads/${editorId}.jpg`, duration: 90 },
});

describe('funnel map graph', () => {
  const funnel = [
    video('intro', [
      buttons(
        'choice',
        [
          { id: 'yes', text: 'Yes please', video: 'yes-video' },
          { id: 'no', text: 'No thanks', video: 'no-video' },
          { id: 'site', text: 'Visit site', onclick: 'url' },
          { id: 'again', text: 'Watch again', onclick: 'timestamp', seconds: 12 },
        ],
        'no',
      ),
    ]),
    video('yes-video'),
    video('no-video', [buttons('back', [{ id: 'gone', text: 'Gone', video: 'deleted-video' }])]),
    video('orphan'),
  ];

  it('makes a node per video with its title, thumbnail and duration, and marks the root', () => {
    const { nodes } = funnelGraph(funnel);
    const intro = nodes.find((n) => n.id === 'intro')!;
    expect(intro).toMatchObject({ kind: 'video', title: 'Video intro', thumbnail: '/uploads/intro.jpg', duration: 90, root: true, unreachable: false });
    expect(nodes.filter((n) => n.root).map((n) => n.id)).toEqual(['intro']);
  });

  it('labels each branch edge with its button text; an inaction default that names a branch is an edge too', () => {
    const { edges } = funnelGraph(funnel);
    const fromIntro = edges.filter((e) => e.source === 'intro').map((e) => [e.kind, e.label, e.target]);
    expect(fromIntro).toEqual([
      ['branch', 'Yes please', 'yes-video'],
      ['branch', 'No thanks', 'no-video'],
      ['branch', 'Visit site', 'link:https://example.com/'],
      ['inaction', 'No choice: No thanks', 'no-video'],
    ]);
  });

  it('notes timestamp jumps on their video', () => {
    const { nodes, edges } = funnelGraph(funnel);
    expect(nodes.find((n) => n.id === 'intro')!.jumps).toEqual([{ branchId: 'again', label: 'Watch again', seconds: 12 }]);
    expect(edges.some((e) => e.label === 'Watch again')).toBe(false);
  });

  it('draws a URL button as an edge to a link-out node showing the host, one node per URL', () => {
    const { nodes, edges } = funnelGraph([
      video('a', [
        buttons(
          'e',
          [
            { id: 'shop', text: 'Buy now', onclick: 'url', url: 'https://www.shop.example.com/checkout?x=1' },
            { id: 'docs', text: 'Read the docs', onclick: 'url', url: 'https://docs.example.org/' },
            { id: 'next', text: 'Next', video: 'b' },
          ],
          'shop',
        ),
      ]),
      video('b', [buttons('f', [{ id: 'shop-too', text: 'Buy from here', onclick: 'url', url: 'https://www.shop.example.com/checkout?x=1' }])]),
    ]);
    const links = nodes.filter((n) => n.kind === 'link');
    expect(links.map((n) => [n.title, n.url])).toEqual([
      ['shop.example.com', 'https://www.shop.example.com/checkout?x=1'],
      ['docs.example.org', 'https://docs.example.org/'],
    ]);
    const shopNode = links[0]!.id;
    const out = edges.filter((e) => e.linkOut).map((e) => [e.kind, e.source, e.text, e.target === shopNode ? 'shop' : 'docs', e.broken]);
    expect(out).toEqual([
      ['branch', 'a', 'Buy now', 'shop', false],
      ['branch', 'a', 'Read the docs', 'docs', false],
      ['inaction', 'a', 'Buy now', 'shop', false],
      ['branch', 'b', 'Buy from here', 'shop', false],
    ]);
    // Every edge knows the element and button behind it (the editor opens there).
    expect(edges.find((e) => e.branchId === 'shop-too')).toMatchObject({ elementId: 'f', linkOut: true });
    // A link out is not a video: it is neither the start nor unreachable, and reaches nothing.
    expect(links.every((n) => !n.root && !n.unreachable)).toBe(true);
    expect(nodes.find((n) => n.id === 'b')!.unreachable).toBe(false);
    // Laid out with the rest, nothing overlapping.
    const layout = layoutFunnel({ nodes, edges });
    const boxes = [...layout.nodes.map((n) => n.box), ...layout.edges.map((e) => e.labelBox)];
    for (let i = 0; i < boxes.length; i += 1) for (let j = i + 1; j < boxes.length; j += 1) expect(overlaps(boxes[i]!, boxes[j]!)).toBe(false);
  });

  it('a default that opens a URL of its own leads to a link-out node; a URL button without a URL is flagged', () => {
    const element = buttons('e', [{ id: 'blank', text: 'Go', onclick: 'url', url: '' }]);
    if (element.type !== 'branch') throw new Error('a branch element');
    element.data.settings.inaction = 'https://example.net/after';
    const { nodes, edges } = funnelGraph([video('a', [element])]);
    expect(edges.map((e) => [e.kind, e.label, e.branchId, e.broken, nodes.find((n) => n.id === e.target)!.title])).toEqual([
      ['branch', 'Go', 'blank', true, 'No URL set'],
      ['inaction', 'No choice: open link', null, false, 'example.net'],
    ]);
    expect(linkHost('not a url')).toBe('not a url');
  });

  it('flags a video nothing reaches and a branch whose target video was removed', () => {
    const { nodes, edges } = funnelGraph(funnel);
    expect(nodes.filter((n) => n.unreachable).map((n) => n.id)).toEqual(['orphan']);
    const broken = edges.find((e) => e.branchId === 'gone')!;
    expect(broken.broken).toBe(true);
    expect(nodes.find((n) => n.id === broken.target)).toMatchObject({ kind: 'missing', title: 'Removed video' });
  });

  it('an unset branch target counts as broken; a branch to its own video does not make it reachable', () => {
    const { nodes, edges } = funnelGraph([video('a', [buttons('e', [{ id: 'x', text: 'Pick one' }])]), video('b', [buttons('f', [{ id: 'y', video: 'b' }])])]);
    expect(edges.find((e) => e.branchId === 'x')!.broken).toBe(true);
    expect(nodes.find((n) => n.id === 'b')!.unreachable).toBe(true);
    const self = layoutFunnel({ nodes, edges }).edges.find((e) => e.branchId === 'y')!;
    expect(self.points.length).toBeGreaterThan(1);
  });

  it('uses the branch name when the button has no caption', () => {
    const { edges } = funnelGraph([video('a', [buttons('e', [{ id: 'x', name: 'Image button', video: 'b' }])]), video('b')]);
    expect(edges[0]!.label).toBe('Image button');
  });

  it('a video removed from the library stays on the map, flagged', () => {
    const { nodes } = funnelGraph([{ editor_id: 'a', elements: [], video: null }]);
    expect(nodes[0]).toMatchObject({ libraryRemoved: true, title: 'Video removed from the library', root: true });
  });

  it('an empty funnel has an empty map', () => {
    expect(funnelGraph([])).toEqual({ nodes: [], edges: [] });
    expect(layoutFunnel(funnelGraph([])).nodes).toEqual([]);
  });

  /** 50 videos: a root with 4 choices, each leading on through a tree, with long captions and cross links. */
  const fifty = (): MapSourceVideo[] => {
    const list: MapSourceVideo[] = [];
    for (let i = 0; i < 50; i += 1) {
      const children = [1, 2, 3].map((k) => i * 3 + k).filter((c) => c < 50);
      const targets = children.length ? children : [Math.max(0, i - 7)];
      list.push(
        video(
          `v${i}`,
          [
            buttons(
              `e${i}`,
              targets.map((t, k) => ({ id: `b${i}-${k}`, text: `Option ${k + 1}: tell me more about step ${t}`, video: `v${t}` })),
              `b${i}-0`,
            ),
          ],
          `Step ${i} of the product walkthrough with a long title`,
        ),
      );
    }
    return list;
  };

  it('lays out 50 videos left to right with no node or label overlapping another', () => {
    for (const labelLines of [1, 2]) {
      const layout = layoutFunnel(funnelGraph(fifty()), { labelLines });
      expect(layout.nodes).toHaveLength(50);
      const boxes: Array<[string, Box]> = [
        ...layout.nodes.map((n): [string, Box] => [n.id, n.box]),
        ...layout.edges.map((e): [string, Box] => [e.id, e.labelBox]),
      ];
      const clashes: string[] = [];
      for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) if (overlaps(boxes[i]![1], boxes[j]![1])) clashes.push(`${boxes[i]![0]} × ${boxes[j]![0]}`);
      }
      expect(clashes).toEqual([]);
      // Left to right: every child sits right of the root.
      const root = layout.nodes.find((n) => n.id === 'v0')!;
      for (const n of layout.nodes) if (n.id !== 'v0') expect(n.box.x).toBeGreaterThan(root.box.x);
      for (const n of layout.nodes) expect(Number.isFinite(n.box.x) && Number.isFinite(n.box.y)).toBe(true);
    }
  });
});

describe('analytics report on the map', () => {
  const report = (over: Partial<AnalyticsReport> = {}): AnalyticsReport => ({
    range: { from: '2026-11-01', to: '2026-11-02' },
    views: { total: 4, unique: 3 },
    watch_time: { total: 3725, average: 931.25 },
    completion: [
      { editor_id: 'intro', started: 4, completed: 3, rate: 0.75 },
      { editor_id: 'offer', started: 2, completed: 0, rate: 0 },
    ],
    clicks: [{ video_id: 'intro', node_id: 'yes', clicks: 3 }],
    paths: [],
    series: [
      { date: '2026-11-01', views: 1, clicks: 1 },
      { date: '2026-11-02', views: 3, clicks: 2 },
    ],
    map: {
      nodes: [{ editor_id: 'intro', title: 'Intro', root: true, reached: 3, drop_off: 1, drop_off_rate: 0.333 }],
      edges: [
        { from: 'intro', branch: 'yes', to: 'offer', target: 'offer', kind: 'button', label: 'Yes', in_funnel: true, viewers: 2, share: 0.667 },
        { from: 'intro', branch: 'yes', to: 'offer', target: 'offer', kind: 'inaction', label: 'Yes', in_funnel: true, viewers: 1, share: 0.333 },
        { from: 'intro', branch: 'again', to: 'intro', target: 'timestamp:3', kind: 'timestamp', label: 'Again', in_funnel: true, viewers: 1, share: 0.333 },
        {
          from: 'intro',
          branch: 'shop',
          to: null,
          target: 'https://shop.example.com/',
          kind: 'button',
          label: 'Shop',
          in_funnel: true,
          viewers: 1,
          share: 0.333,
        },
        {
          from: 'intro',
          branch: 'shop',
          to: null,
          target: 'https://shop.example.com/',
          kind: 'inaction',
          label: 'Shop',
          in_funnel: true,
          viewers: 2,
          share: 0.667,
        },
        // Traffic from before the branch was retargeted: not on the map.
        { from: 'intro', branch: 'yes', to: 'story', target: 'story', kind: 'button', label: 'Yes', in_funnel: false, viewers: 5, share: 1 },
      ],
    },
    ...over,
  });

  it('keys button, inaction and jump figures apart, and reads reach and drop-off per video', () => {
    const stats = mapStatsOf(report());
    expect(stats.nodes.get('intro')).toEqual({ viewers: 3, dropOff: 1 });
    expect(stats.edges.get(edgeStatsKey('branch', 'intro', 'yes'))).toEqual({ viewers: 2, share: 0.667 });
    expect(stats.edges.get(edgeStatsKey('inaction', 'intro', 'yes'))).toEqual({ viewers: 1, share: 0.333 });
    expect(stats.jumps?.get(edgeStatsKey('jump', 'intro', 'again'))).toBe(1);
    // A link out (to: null, target: the URL) counts on its button's edge and on its default's.
    expect(stats.edges.get(edgeStatsKey('branch', 'intro', 'shop'))).toEqual({ viewers: 1, share: 0.333 });
    expect(stats.edges.get(edgeStatsKey('inaction', 'intro', 'shop'))).toEqual({ viewers: 2, share: 0.667 });
  });

  it('headline figures: views, unique viewers, watch time, completion over every start, clicks', () => {
    expect(headlines(report()).map((h) => `${h.label}: ${h.value}`)).toEqual([
      'Views: 4',
      'Unique viewers: 3',
      'Watch time: 1h 2m 5s',
      'Average watch time: 15m 31s',
      'Completion: 50%',
      'Clicks: 3',
    ]);
    expect(completionRate(report({ completion: [] }))).toBe(0);
    expect(spelledDuration(0)).toBe('0s');
    expect(spelledDuration(59.6)).toBe('1m 0s');
  });

  it('an empty range has no data', () => {
    expect(hasData(report())).toBe(true);
    expect(hasData(report({ views: { total: 0, unique: 0 }, clicks: [] }))).toBe(false);
  });
});

describe('conditional edges on the map', () => {
  const conditional = (when: { element?: string; branch?: string; inaction?: string }): FunnelElement =>
    elementSchema.parse({
      id: 'quiz',
      type: 'branch',
      showAt: 1,
      hideAt: 5,
      when: when.element ?? '',
      data: {
        branches: [
          { id: 'bonus', onclick: 'branch', video: 'bonus', when: when.branch ?? '', standard: { text: 'Bonus round' } },
          { id: 'plain', onclick: 'branch', video: 'bonus', standard: { text: 'Always' } },
        ],
        settings: { inaction: 'bonus', inactionWhen: when.inaction ?? '' },
      },
    });

  it('labels a button, and a default path, with the condition they depend on', () => {
    const graph = funnelGraph([video('intro', [conditional({ branch: 'score >= 2', inaction: 'liked' })]), video('bonus')]);
    const byId = new Map(graph.edges.map((e) => [e.id, e]));
    expect(byId.get('branch:intro:bonus')?.condition).toBe('score >= 2');
    expect(byId.get('branch:intro:plain')?.condition).toBeNull();
    expect(byId.get('inaction:intro:quiz')?.condition).toBe('liked');
  });

  it("joins the element's condition with the button's", () => {
    const graph = funnelGraph([video('intro', [conditional({ element: 'name != ""', branch: 'score >= 2 or liked' })]), video('bonus')]);
    expect(graph.edges.find((e) => e.id === 'branch:intro:bonus')?.condition).toBe('(name != "") and (score >= 2 or liked)');
    expect(graph.edges.find((e) => e.id === 'branch:intro:plain')?.condition).toBe('name != ""');
  });

  it('makes room for the condition line in the layout', () => {
    const plain = layoutFunnel(funnelGraph([video('intro', [conditional({})]), video('bonus')]));
    const withCondition = layoutFunnel(funnelGraph([video('intro', [conditional({ branch: 'score >= 2' })]), video('bonus')]));
    const box = (layout: typeof plain) => layout.edges.find((e) => e.id === 'branch:intro:bonus')!.labelBox;
    expect(box(withCondition).height).toBeGreaterThan(box(plain).height);
  });
});
