import { rootVideo, type AnalyticsEdgeFigure, type AnalyticsEdgeKind, type AnalyticsNodeFigure, type Branch, type FunnelDocument } from '@branchify/shared';

type Videos = FunnelDocument['videos'];

/** What the queries counted for one recorded edge (interactions grouped by source, branch, target, type). */
export interface EdgeCount {
  video_id: string;
  node_id: string;
  connected_node: string | null;
  type: string;
  viewers: number;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const ratio = (part: number, whole: number) => (whole > 0 ? round3(part / whole) : 0);

/** A recorded target as the map draws it: a video of the funnel, the source itself for a jump, else null (a link out). */
const resolveTarget = (from: string, target: string | null, editorIds: ReadonlySet<string>): string | null => {
  if (!target) return null;
  if (target.startsWith('timestamp:')) return from;
  return editorIds.has(target) ? target : null;
};

const kindOf = (type: string, target: string | null): AnalyticsEdgeKind =>
  type === 'inaction' ? 'inaction' : target?.startsWith('timestamp:') ? 'timestamp' : 'button';

const seconds = (t: Branch['timestamp']) => (t.hours || 0) * 3600 + (t.minutes || 0) * 60 + (t.seconds || 0);

/** The branch as the player records it: the target editor_id, the URL, or `timestamp:<s>`. */
const branchTarget = (branch: Branch): string | null =>
  branch.onclick === 'branch' ? branch.video : branch.onclick === 'url' ? branch.externalLink || null : `timestamp:${seconds(branch.timestamp)}`;

const labelOf = (branch: Branch | undefined, fallback: string) => branch?.standard.text.trim() || branch?.name.trim() || fallback;

/** The root video's editor_id (what every view starts on). */
export const rootEditorId = (videos: Videos | null): string | null => rootVideo(videos ?? [])?.editor_id ?? null;

/**
 * The map's edges: every branch button of the funnel (and each element's inaction default that
 * takes a branch), with the viewers the queries counted; recorded traffic along a branch the
 * funnel no longer has stays, flagged `in_funnel: false`. Edges match on source, branch, kind and
 * drawn target, so a retargeted branch shows its old traffic apart.
 */
export const buildEdges = (videos: Videos | null, counts: readonly EdgeCount[], reached: ReadonlyMap<string, number>): AnalyticsEdgeFigure[] => {
  const list = videos ?? [];
  const editorIds = new Set(list.map((v) => v.editor_id));
  const branches = new Map<string, Branch>();
  const edges = new Map<string, AnalyticsEdgeFigure>();
  const keyOf = (from: string, branch: string, kind: AnalyticsEdgeKind, to: string | null) => JSON.stringify([from, branch, kind, to]);
  const add = (from: string, branch: Branch, kind: AnalyticsEdgeKind) => {
    const target = branchTarget(branch);
    const to = resolveTarget(from, target, editorIds);
    const key = keyOf(from, branch.id, kind, to);
    if (!edges.has(key))
      edges.set(key, { from, branch: branch.id, to, target, kind, label: labelOf(branch, branch.id), in_funnel: true, viewers: 0, share: 0 });
  };
  for (const video of list) {
    for (const element of video.elements) {
      if (element.type !== 'branch') continue;
      const data = element.data;
      for (const branch of data.branches) {
        branches.set(`${video.editor_id}\u0000${branch.id}`, branch);
        add(video.editor_id, branch, branch.onclick === 'timestamp' ? 'timestamp' : 'button');
      }
      const inaction = data.branches.find((b) => b.id === data.settings.inaction);
      if (inaction) add(video.editor_id, inaction, 'inaction');
    }
  }
  for (const c of counts) {
    const kind = kindOf(c.type, c.connected_node);
    const to = resolveTarget(c.video_id, c.connected_node, editorIds);
    const key = keyOf(c.video_id, c.node_id, kind, to);
    const edge = edges.get(key);
    if (edge) edge.viewers += c.viewers;
    else {
      const branch = branches.get(`${c.video_id}\u0000${c.node_id}`);
      edges.set(key, {
        from: c.video_id,
        branch: c.node_id,
        to,
        target: c.connected_node,
        kind,
        label: labelOf(branch, c.node_id),
        in_funnel: false,
        viewers: c.viewers,
        share: 0,
      });
    }
  }
  return [...edges.values()].map((e) => ({ ...e, share: ratio(e.viewers, reached.get(e.from) ?? 0) }));
};

/** The map's videos, in the funnel's order, with viewers who reached each and those who stopped there. */
export const buildNodes = (
  videos: Videos | null,
  titles: ReadonlyMap<string, string>,
  reached: ReadonlyMap<string, number>,
  dropOff: ReadonlyMap<string, number>,
): AnalyticsNodeFigure[] => {
  const root = rootEditorId(videos);
  return (videos ?? []).map(({ editor_id }) => {
    const r = reached.get(editor_id) ?? 0;
    const d = dropOff.get(editor_id) ?? 0;
    return { editor_id, title: titles.get(editor_id) ?? editor_id, root: editor_id === root, reached: r, drop_off: d, drop_off_rate: ratio(d, r) };
  });
};
