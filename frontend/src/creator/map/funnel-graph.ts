import dagre, { type EdgeLabel, type GraphLabel, type NodeLabel } from '@dagrejs/dagre';
import { placeNode } from './map-placement';
import { routeBox, routeEdges, runsBack, type EdgeRoute } from './map-routes';
import { DEFAULT_INACTION, httpUrl, rootVideo, type Branch, type FunnelElement, type VideoProvider } from '@branchify/shared';

/**
 * The funnel map as data: a funnel's videos become nodes and its branch buttons and inaction
 * defaults become edges, laid out left to right; a button or default that opens a URL leads to a
 * 'link out' node, one per URL. Pure (no React), so it is unit-tested alone.
 */

/** What the map needs of a funnel video (the editor's document and the funnel resource both fit). */
export interface MapSourceVideo {
  editor_id: string;
  elements: ReadonlyArray<FunnelElement>;
  video: { title: string; thumbnail: string | null; duration: number | null; provider?: VideoProvider; external_id?: string | null } | null;
  /** Where the creator placed it (its top-left corner); left out: laid out automatically. */
  map?: Point;
}

/** A timestamp jump: a button that seeks within its own video. */
interface MapJump {
  branchId: string;
  label: string;
  seconds: number;
}

interface MapNode {
  id: string;
  /** 'link': a URL outside the funnel (its title is the host); 'missing': a removed target. */
  kind: 'video' | 'missing' | 'link';
  title: string;
  /** The URL of a 'link' node (null: the button has no URL yet). */
  url: string | null;
  thumbnail: string | null;
  duration: number | null;
  /** The library video's provider and id, for its poster (null: not a library video). */
  provider: VideoProvider | null;
  externalId: string | null;
  root: boolean;
  /** No path of branches leads here from the root. */
  unreachable: boolean;
  /** The library video behind it was deleted. */
  libraryRemoved: boolean;
  jumps: MapJump[];
}

export interface MapEdge {
  id: string;
  source: string;
  /** A video's editor_id, or the id of the 'missing' node standing for a removed target. */
  target: string;
  kind: 'branch' | 'inaction';
  /** What the map shows on it. */
  label: string;
  /** The button's text (what a screen reader names it by). */
  text: string;
  /** When the path can be taken (`score >= 2`): the element's, the button's or the default's condition; null: always. */
  condition: string | null;
  /** The branch button behind it (for an inaction default, the branch it names; null for a default that is a URL itself). */
  branchId: string | null;
  /** The branch element it belongs to. */
  elementId: string;
  /** It leaves the funnel: its target is a 'link' node. */
  linkOut: boolean;
  /** Its target video was removed from the funnel, or its URL is not set. */
  broken: boolean;
}

/** Traffic drawn on the map (the analytics screen): per video and per branch edge. */
export interface MapStats {
  /** By editor_id: views that reached the video and how many stopped there (null: not known). */
  nodes: ReadonlyMap<string, NodeStats>;
  /** By edgeStatsKey: views that took the edge and their share of the source video's views. */
  edges: ReadonlyMap<string, { viewers: number; share: number }>;
  /** By edgeStatsKey('jump', video, branch): views that used a timestamp jump. */
  jumps?: ReadonlyMap<string, number>;
}

export interface NodeStats {
  viewers: number;
  dropOff: number | null;
}

export const edgeStatsKey = (kind: MapEdge['kind'] | 'jump', source: string, branchId: string): string => `${kind}:${source}:${branchId}`;

export interface FunnelGraph {
  nodes: MapNode[];
  edges: MapEdge[];
}

export interface Point {
  x: number;
  y: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidOutNode extends MapNode {
  /** Top-left corner and size. */
  box: Box;
}

export interface LaidOutEdge extends MapEdge {
  /** The automatic layout's route (used when `route` is not given). */
  points: Point[];
  /** A route of its own: where the automatic layout's does not fit (a video placed by hand) or runs against the flow. */
  route?: EdgeRoute;
  /** The label's box (top-left corner and size). */
  labelBox: Box;
  /** Where its source and target nodes were when it was routed: while one is dragged away from there, it is drawn as a plain curve. */
  routedFrom?: { source: Point; target: Point };
}

export interface FunnelLayout {
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
  /** The map's extent: from (left, top) to (width, height). */
  width: number;
  height: number;
  left?: number;
  top?: number;
}

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 196;
const MISSING_NODE_HEIGHT = 72;
const LINK_NODE_HEIGHT = 72;
const LABEL_CHAR_WIDTH = 7.2;
const LABEL_PADDING = 20;
const LABEL_MAX_CHARS = 28;

/** A button's visible text: its caption, otherwise its name. */
const branchLabel = (branch: Branch): string => {
  const text = branch.type === 'standard' ? branch.standard.text.trim() : '';
  return text || branch.name.trim() || 'Branch';
};

/** The conditions a path depends on, as one (each in parentheses when there are several); null when there are none. */
const conditionOf = (...parts: Array<string | undefined>): string | null => {
  const present = parts.map((p) => p?.trim() ?? '').filter(Boolean);
  if (!present.length) return null;
  return present.length === 1 ? present[0] : present.map((p) => `(${p})`).join(' and ');
};

/** What a conditional edge shows under its label. */
export const conditionLabel = (condition: string): string => `if ${condition}`;

/** Long labels are cut so they stay on one line. */
export const shortLabel = (label: string): string => (label.length > LABEL_MAX_CHARS ? `${label.slice(0, LABEL_MAX_CHARS - 1)}…` : label);

const branchesOf = (element: FunnelElement): Branch[] => (element.type === 'branch' ? element.data.branches : []);

/** What a link-out node shows: the URL's host (without www.), else the text as typed. */
export const linkHost = (url: string): string => httpUrl(url)?.hostname.replace(/^www\./, '') ?? url;

const smallNode = (id: string, kind: MapNode['kind'], title: string, url: string | null): MapNode => ({
  id,
  kind,
  title,
  url,
  thumbnail: null,
  duration: null,
  provider: null,
  externalId: null,
  root: false,
  unreachable: false,
  libraryRemoved: false,
  jumps: [],
});

type EdgeTarget = Pick<MapEdge, 'target' | 'broken' | 'linkOut'>;

/**
 * Where edges lead: a video of the funnel, a 'missing' node per edge whose video was removed, or
 * one 'link' node per URL, shared by every button and default that opens it (a button without a
 * URL gets its own). The nodes it makes are kept in the order asked for.
 */
const edgeTargets = (ids: ReadonlySet<string>) => {
  const missing: MapNode[] = [];
  const links = new Map<string, MapNode>();
  const videoOf = (edgeId: string, target: string | null): EdgeTarget => {
    if (target && ids.has(target)) return { target, broken: false, linkOut: false };
    const id = `missing:${edgeId}`;
    missing.push(smallNode(id, 'missing', 'Removed video', null));
    return { target: id, broken: true, linkOut: false };
  };
  const linkOf = (edgeId: string, url: string | null): EdgeTarget => {
    const trimmed = url?.trim() ?? '';
    const id = trimmed ? `link:${trimmed}` : `link:none:${edgeId}`;
    if (!links.has(id)) links.set(id, smallNode(id, 'link', trimmed ? linkHost(trimmed) : 'No URL set', trimmed || null));
    return { target: id, broken: !trimmed, linkOut: true };
  };
  /** A button's target: its URL when it opens one, else its video. */
  const ofBranch = (edgeId: string, branch: Branch): EdgeTarget =>
    branch.onclick === 'url' ? linkOf(edgeId, branch.externalLink) : videoOf(edgeId, branch.video);
  return { ofBranch, linkOf, nodes: () => [...missing, ...links.values()] };
};

type Targets = ReturnType<typeof edgeTargets>;

/** A button's edge (to a video or a URL), or its timestamp jump added to `jumps`. */
const branchEdge = (videoId: string, element: FunnelElement, branch: Branch, targets: Targets, jumps: Map<string, MapJump[]>): MapEdge | null => {
  if (branch.onclick === 'branch' || branch.onclick === 'url') {
    const id = `branch:${videoId}:${branch.id}`;
    const label = branchLabel(branch);
    return {
      id,
      source: videoId,
      kind: 'branch',
      label,
      text: label,
      condition: conditionOf(element.when, branch.when),
      branchId: branch.id,
      elementId: element.id,
      ...targets.ofBranch(id, branch),
    };
  }
  if (branch.onclick === 'timestamp') {
    const { hours, minutes, seconds } = branch.timestamp;
    const list = jumps.get(videoId) ?? [];
    list.push({ branchId: branch.id, label: branchLabel(branch), seconds: hours * 3600 + minutes * 60 + seconds });
    jumps.set(videoId, list);
  }
  return null;
};

/** A branch element's inaction default as an edge: the button it names, or a URL of its own (none for skip-and-continue or a jump). */
const inactionEdge = (videoId: string, element: FunnelElement, targets: Targets): MapEdge | null => {
  if (element.type !== 'branch') return null;
  const inaction = element.data.settings.inaction;
  if (inaction === DEFAULT_INACTION) return null;
  const named = element.data.branches.find((b) => b.id === inaction);
  const id = `inaction:${videoId}:${element.id}`;
  const edge = {
    id,
    source: videoId,
    kind: 'inaction' as const,
    elementId: element.id,
    condition: conditionOf(element.when, element.data.settings.inactionWhen),
  };
  if (named?.onclick === 'branch' || named?.onclick === 'url') {
    const text = branchLabel(named);
    return { ...edge, label: `No choice: ${text}`, text, branchId: named.id, ...targets.ofBranch(id, named) };
  }
  // A default that is a URL of its own (no button behind it).
  if (!named) return { ...edge, label: 'No choice: open link', text: 'open link', branchId: null, ...targets.linkOf(id, inaction) };
  return null;
};

/** What the root reaches through working branches and inaction defaults. */
const reachedFrom = (rootId: string | undefined, edges: readonly MapEdge[]): Set<string> => {
  const reached = new Set<string>();
  const queue = rootId ? [rootId] : [];
  while (queue.length) {
    const at = queue.shift()!;
    if (reached.has(at)) continue;
    reached.add(at);
    for (const e of edges) if (e.source === at && !e.broken) queue.push(e.target);
  }
  return reached;
};

const videoNode = (v: MapSourceVideo, rootId: string | undefined, reached: ReadonlySet<string>, jumps: ReadonlyMap<string, MapJump[]>): MapNode => ({
  id: v.editor_id,
  kind: 'video',
  title: v.video?.title ?? 'Video removed from the library',
  url: null,
  thumbnail: v.video?.thumbnail ?? null,
  duration: v.video?.duration ?? null,
  provider: v.video?.provider ?? null,
  externalId: v.video?.external_id ?? null,
  root: v.editor_id === rootId,
  unreachable: !reached.has(v.editor_id),
  libraryRemoved: v.video === null,
  jumps: jumps.get(v.editor_id) ?? [],
});

/** Nodes, edges and flags of a funnel, before layout. */
export const funnelGraph = (videos: ReadonlyArray<MapSourceVideo>): FunnelGraph => {
  const rootId = rootVideo(videos.map((v) => ({ editor_id: v.editor_id, elements: v.elements })))?.editor_id;
  const targets = edgeTargets(new Set(videos.map((v) => v.editor_id)));
  const edges: MapEdge[] = [];
  const jumps = new Map<string, MapJump[]>();
  for (const video of videos) {
    for (const element of video.elements) {
      for (const branch of branchesOf(element)) {
        const edge = branchEdge(video.editor_id, element, branch, targets, jumps);
        if (edge) edges.push(edge);
      }
      const inaction = inactionEdge(video.editor_id, element, targets);
      if (inaction) edges.push(inaction);
    }
  }
  const reached = reachedFrom(rootId, edges);
  const nodes = videos.map((v) => videoNode(v, rootId, reached, jumps));
  return { nodes: [...nodes, ...targets.nodes()], edges };
};

/** The width and height an edge label takes (one line; one more for its condition, another for the figures when shown). */
const labelSize = (edge: Pick<MapEdge, 'label' | 'condition'>, lines = 1): { width: number; height: number } => {
  const longest = Math.max(shortLabel(edge.label).length, edge.condition ? shortLabel(conditionLabel(edge.condition)).length : 0);
  return { width: Math.ceil(longest * LABEL_CHAR_WIDTH + LABEL_PADDING), height: 12 + 18 * (lines + (edge.condition ? 1 : 0)) };
};

/** Dagre's left-to-right layout: nodes and edge labels placed so none overlap. */
export const layoutFunnel = (graph: FunnelGraph, options: { labelLines?: number } = {}): FunnelLayout => {
  const g = new dagre.graphlib.Graph<GraphLabel, NodeLabel, EdgeLabel>({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 28, edgesep: 16, ranksep: 90, marginx: 16, marginy: 16 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of graph.nodes) {
    g.setNode(node.id, { width: NODE_WIDTH, height: node.kind === 'missing' ? MISSING_NODE_HEIGHT : node.kind === 'link' ? LINK_NODE_HEIGHT : NODE_HEIGHT });
  }
  for (const edge of graph.edges) {
    // A branch back to its own video loops; dagre lays such an edge out too.
    g.setEdge(edge.source, edge.target, { ...labelSize(edge, options.labelLines), labelpos: 'c' }, edge.id);
  }
  dagre.layout(g);

  const nodes = graph.nodes.map((node): LaidOutNode => {
    // Dagre has placed every node by now (x and y are its centre).
    const { x = 0, y = 0, width, height } = g.node(node.id);
    return { ...node, box: { x: x - width / 2, y: y - height / 2, width, height } };
  });
  const edges = graph.edges.map((edge): LaidOutEdge => {
    const e = g.edge({ v: edge.source, w: edge.target, name: edge.id }) as { points: Point[]; x?: number; y?: number; width: number; height: number };
    // A loop back to its own video gets no label position from dagre: its label sits at the loop's middle.
    const mid = e.points[Math.floor(e.points.length / 2)] ?? { x: 0, y: 0 };
    const at = { x: e.x ?? mid.x, y: e.y ?? mid.y };
    return {
      ...edge,
      points: e.points,
      labelBox: { x: at.x - e.width / 2, y: at.y - e.height / 2, width: e.width, height: e.height },
    };
  });
  const size = g.graph();
  return { nodes, edges, width: size.width ?? 0, height: size.height ?? 0 };
};

/** Whether two boxes overlap (touching edges do not count). */
export const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** What the automatic layout depends on (nodes, edges and label sizes): it is laid out again only when this changes. */
export const layoutKey = (graph: FunnelGraph): string =>
  `${graph.nodes.map((n) => `${n.id}:${n.kind}`).join('|')}#${graph.edges.map((e) => `${e.id}>${e.target}:${shortLabel(e.label).length}:${e.condition ?? ''}`).join('|')}`;

/** Room kept around the map's content. */
const MAP_MARGIN = 16;

/**
 * The graph drawn with the positions the creator stored: those videos where they were put, the
 * rest where the automatic layout (`base`, laid out from the same graph) put them. Once any video
 * has a stored place, link-out and removed-video nodes go beside their first source instead.
 */
export const placeLayout = (graph: FunnelGraph, base: FunnelLayout, stored: ReadonlyMap<string, Point>): FunnelLayout => {
  const baseBox = new Map(base.nodes.map((n) => [n.id, n.box]));
  const baseEdge = new Map(base.edges.map((e) => [e.id, e]));
  const boxes = new Map<string, Box>();
  for (const node of graph.nodes) {
    const box = baseBox.get(node.id) ?? { x: 0, y: 0, width: NODE_WIDTH, height: NODE_HEIGHT };
    const at = node.kind === 'video' ? stored.get(node.id) : undefined;
    if (at) boxes.set(node.id, { ...box, x: at.x, y: at.y });
  }
  for (const node of graph.nodes) {
    if (boxes.has(node.id)) continue;
    const box = baseBox.get(node.id) ?? { x: 0, y: 0, width: NODE_WIDTH, height: NODE_HEIGHT };
    const source = node.kind !== 'video' && stored.size > 0 ? graph.edges.find((e) => e.target === node.id)?.source : undefined;
    const near = source ? boxes.get(source) : undefined;
    boxes.set(node.id, near ? { ...box, ...placeNode(box, [...boxes.values()], near) } : box);
  }
  const nodes = graph.nodes.map((node): LaidOutNode => ({ ...node, box: boxes.get(node.id)! }));
  // The automatic layout's route is kept while both videos are where it put them and the edge runs with the flow; the others are routed here, clear of its labels.
  const keeps = (edge: MapEdge): boolean => {
    const from = baseBox.get(edge.source);
    const to = baseBox.get(edge.target);
    const source = boxes.get(edge.source)!;
    const target = boxes.get(edge.target)!;
    const still = baseEdge.has(edge.id) && from && to && from.x === source.x && from.y === source.y && to.x === target.x && to.y === target.y;
    return Boolean(still) && !runsBack(source, target, edge.source === edge.target);
  };
  const kept = new Set(graph.edges.filter(keeps).map((e) => e.id));
  const own = graph.edges.filter((e) => !kept.has(e.id));
  const routes = routeEdges(
    own.map((edge) => ({
      source: boxes.get(edge.source)!,
      target: boxes.get(edge.target)!,
      label: baseEdge.get(edge.id)?.labelBox ?? { width: 0, height: 0 },
      same: edge.source === edge.target,
      pair: [edge.source, edge.target].sort().join('>'),
    })),
    nodes.map((n) => n.box),
    graph.edges.filter((e) => kept.has(e.id)).map((e) => baseEdge.get(e.id)!.labelBox),
  );
  const routeOf = new Map(own.map((edge, i) => [edge.id, routes[i]]));
  const edges = graph.edges.map((edge): LaidOutEdge => {
    const source = boxes.get(edge.source)!;
    const target = boxes.get(edge.target)!;
    const routedFrom = { source: { x: source.x, y: source.y }, target: { x: target.x, y: target.y } };
    const mine = routeOf.get(edge.id);
    const base = baseEdge.get(edge.id);
    if (!mine) return { ...edge, points: base?.points ?? [], labelBox: base?.labelBox ?? { x: 0, y: 0, width: 0, height: 0 }, routedFrom };
    return { ...edge, points: base?.points ?? [], route: mine.route, labelBox: mine.labelBox, routedFrom };
  });
  const all = [...nodes.map((n) => n.box), ...edges.map((e) => e.labelBox), ...edges.flatMap((e) => (e.route ? [routeBox(e.route)] : []))];
  const left = Math.min(0, ...all.map((b) => b.x - MAP_MARGIN));
  const top = Math.min(0, ...all.map((b) => b.y - MAP_MARGIN));
  const width = Math.max(base.width, ...all.map((b) => b.x + b.width + MAP_MARGIN));
  const height = Math.max(base.height, ...all.map((b) => b.y + b.height + MAP_MARGIN));
  return { nodes, edges, width, height, left, top };
};
