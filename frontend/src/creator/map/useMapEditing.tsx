import { Suspense, lazy, useRef, useState } from 'react';
import type { Connection, Edge, FinalConnectionState, Node, OnConnectEnd } from '@xyflow/react';
import { useReactFlow } from '@xyflow/react';
import type { VideoResource } from '@branchify/shared';
import { useQuickNotice } from '../../shared/dialogs';
import { useModals } from '../../shared/modals';
import { videoTitle, withoutBranch } from '../editor/document-store/map-edits';
import type { MapPosition } from '../editor/document-store';
import { funnelGraph, NODE_HEIGHT, NODE_WIDTH, type FunnelLayout, type LaidOutEdge, type Point } from './funnel-graph';
import { placeNodes, spotIsFree } from './map-placement';
import type { MapEditing } from './map-shared';

const NODE_SIZE = { width: NODE_WIDTH, height: NODE_HEIGHT };

// The pickers load with the first dialog opened, so the analytics page's read-only map does not carry them.
const BranchToDialog = lazy(() => import('./MapDialogs').then((m) => ({ default: m.BranchToDialog })));
const ChangeTargetDialog = lazy(() => import('./MapDialogs').then((m) => ({ default: m.ChangeTargetDialog })));

/** Every video's place as the map shows it, with `moved` ones at their new places: stored with each edit so nothing else moves. */
const pinsOf = (layout: FunnelLayout, moved: ReadonlyArray<{ id: string; position: Point }> = []): Map<string, MapPosition> => {
  const pins = new Map<string, MapPosition>();
  for (const node of layout.nodes) if (node.kind === 'video') pins.set(node.id, { x: node.box.x, y: node.box.y });
  for (const m of moved) if (pins.has(m.id)) pins.set(m.id, m.position);
  return pins;
};

/** Videos that a path from the start reaches now and would not once this button is gone. */
const cutOff = (editing: MapEditing, edge: LaidOutEdge): string[] => {
  const doc = editing.store.getState().doc;
  const before = funnelGraph(doc.videos);
  const after = funnelGraph(withoutBranch(doc, edge.elementId, edge.branchId ?? '').videos);
  const lost = new Set(after.nodes.filter((n) => n.kind === 'video' && n.unreachable).map((n) => n.id));
  return before.nodes.filter((n) => n.kind === 'video' && !n.unreachable && lost.has(n.id)).map((n) => n.id);
};

/** The video node under the pointer where a drag ended (a branch dropped on a video's body, not on its dot). */
const videoNodeAt = (event: MouseEvent | TouchEvent, layout: FunnelLayout): string | null => {
  const point = 'changedTouches' in event ? event.changedTouches[0] : event;
  const id = document.elementFromPoint(point.clientX, point.clientY)?.closest('.react-flow__node')?.getAttribute('data-id');
  return id && layout.nodes.some((n) => n.id === id && n.kind === 'video') ? id : null;
};

/** What every map action needs: the store and dialogs, the map as drawn, and the status line. */
interface EditContext {
  editing: MapEditing;
  layout: FunnelLayout;
  edgeById: ReadonlyMap<string, LaidOutEdge>;
  modals: ReturnType<typeof useModals>;
  notice: ReturnType<typeof useQuickNotice>;
  announce: (text: string) => void;
}

const titleIn = (ctx: EditContext) => (id: string) => videoTitle(ctx.editing.store.getState().doc, id);

/** Drawing branches: to a video of the funnel, or to library videos added with them ('Branch to…'). */
const branchActions = (ctx: EditContext) => {
  const { editing, layout, modals, announce } = ctx;
  const { store } = editing;
  const title = titleIn(ctx);
  const boxOf = (id: string) => layout.nodes.find((n) => n.id === id)?.box ?? null;
  const taken = () => layout.nodes.map((n) => n.box);

  const branch = (source: string, target: string) => {
    const made = store.branchOnMap(source, target, pinsOf(layout));
    if (!made.ok) return editing.onRefused(made.message);
    announce(`Added a branch from ${title(source)} to ${title(target)}.`);
  };

  /** Library videos added beside `source` (the first at `drop` when that is free), each with a branch to it. */
  const branchToNew = (source: string, videos: VideoResource[], drop?: Point) => {
    const first = drop ? { x: drop.x, y: drop.y - NODE_HEIGHT / 2 } : null;
    const spots =
      first && spotIsFree(first, NODE_SIZE, taken())
        ? [first, ...placeNodes(videos.length - 1, NODE_SIZE, [...taken(), { ...first, ...NODE_SIZE }], boxOf(source))]
        : placeNodes(videos.length, NODE_SIZE, taken(), boxOf(source));
    const made = store.branchToNewVideos(
      source,
      videos.map((video, i) => ({ video, at: spots[i] })),
      pinsOf(layout),
    );
    if (!made.ok) return editing.onRefused(made.message);
    announce(`Added ${videos.map((v) => v.title).join(', ')} to the funnel, with a branch from ${title(source)} to each.`);
  };

  /** 'Branch to…': the funnel's other videos to pick from, or videos added from the library. */
  const branchFrom = (source: string, drop?: Point) =>
    modals.open({
      name: 'map-branch-to',
      title: `Branch from '${title(source)}' to…`,
      maxWidth: 'md',
      render: ({ close }) => (
        <Suspense fallback={null}>
          <BranchToDialog
            videos={store.getState().doc.videos.filter((v) => v.editor_id !== source)}
            close={close}
            onPick={(target) => branch(source, target)}
            onAddFromLibrary={(videos) => branchToNew(source, videos, drop)}
          />
        </Suspense>
      ),
    });

  /** Library videos added to the map, beside `near` when given. */
  const addVideos = (near: string | null) =>
    modals.open({
      name: 'video-to-funnel',
      title: 'Select Video',
      maxWidth: 'md',
      render: ({ close }) => (
        <Suspense fallback={null}>
          <BranchToDialog
            close={close}
            onAddFromLibrary={(videos) => {
              const spots = placeNodes(videos.length, NODE_SIZE, taken(), near ? boxOf(near) : null);
              store.addVideosOnMap(
                videos.map((video, i) => ({ video, at: spots[i] })),
                pinsOf(layout),
              );
              announce(`Added ${videos.map((v) => v.title).join(', ')} to the map.`);
            }}
          />
        </Suspense>
      ),
    });

  return { branch, branchFrom, addVideos };
};

/** A button's edge: where it leads, or gone (asking first when it is the last way to a video); a video removed. */
const changeActions = (ctx: EditContext) => {
  const { editing, edgeById, modals, notice, announce } = ctx;
  const { store } = editing;
  const title = titleIn(ctx);
  const buttonEdge = (edgeId: string) => {
    const edge = edgeById.get(edgeId);
    return edge?.kind === 'branch' && edge.branchId ? { edge, branchId: edge.branchId } : null;
  };

  const retarget = (edge: LaidOutEdge, branchId: string, target: string) => {
    store.retargetBranch(edge.elementId, branchId, target);
    announce(`Branch '${edge.text}' now leads to ${title(target)}.`);
  };

  const changeTarget = (edgeId: string) => {
    const found = buttonEdge(edgeId);
    if (!found) return;
    const { edge, branchId } = found;
    modals.open({
      name: 'map-change-target',
      title: `Where '${edge.text}' leads`,
      maxWidth: 'md',
      render: ({ close }) => (
        <Suspense fallback={null}>
          <ChangeTargetDialog
            videos={store.getState().doc.videos}
            selected={edge.broken || edge.linkOut ? null : edge.target}
            onPick={(target) => {
              close();
              retarget(edge, branchId, target);
            }}
          />
        </Suspense>
      ),
    });
  };

  const deleteEdge = (edgeId: string) => {
    const found = buttonEdge(edgeId);
    if (!found) return;
    const { edge, branchId } = found;
    const remove = () => {
      store.removeBranchOnMap(edge.elementId, branchId);
      announce(`Deleted branch '${edge.text}' from ${title(edge.source)}. Ctrl+Z brings it back.`);
    };
    const lost = cutOff(editing, edge);
    if (lost.length === 0) return remove();
    notice({
      header: 'Delete branch',
      message: `'${edge.text}' is the last way to reach ${lost.map((id) => `'${title(id)}'`).join(', ')}: viewers would no longer get there. Delete it?`,
      confirmText: 'Delete',
      danger: true,
      onConfirm: remove,
    });
  };

  const removeNode = (id: string) => {
    const video = store.getState().doc.videos.find((v) => v.editor_id === id);
    if (!video) return;
    const name = title(id);
    editing.removeVideo(video, () => announce(`Removed ${name} from the funnel.`));
  };

  const onReconnect = (old: Edge, c: Connection) => {
    const found = buttonEdge(old.id);
    if (found && c.target !== found.edge.target) retarget(found.edge, found.branchId, c.target);
  };
  /** A branch's end dropped on a video's body rather than its dot leads there too. */
  const onReconnectEnd = (event: MouseEvent | TouchEvent, old: Edge, _handle: unknown, state: FinalConnectionState) => {
    const found = buttonEdge(old.id);
    const target = state.isValid ? null : videoNodeAt(event, ctx.layout);
    if (found && target && target !== found.edge.source && target !== found.edge.target) retarget(found.edge, found.branchId, target);
  };

  return { changeTarget, deleteEdge, removeNode, onReconnect, onReconnectEnd };
};

/**
 * The map as an editing surface: drawing a branch from a video to another (or to empty space, then
 * picking the video), dragging a branch's end to re-target it, deleting one, adding and removing
 * videos, and moving them; each through the editor's document store (one undo step each), each
 * said aloud in `announcement`.
 */
export const useMapEditing = (editing: MapEditing | undefined, layout: FunnelLayout, edgeById: ReadonlyMap<string, LaidOutEdge>) => {
  const modals = useModals();
  const notice = useQuickNotice();
  const { screenToFlowPosition } = useReactFlow();
  const [announcement, setAnnouncement] = useState('');
  // React Flow ends a re-target drag with onConnectEnd too: that one must not draw a new branch.
  const reconnecting = useRef(false);
  if (!editing) return null;
  // The same words twice are still announced: a zero-width space tells them apart.
  const announce = (text: string) => setAnnouncement((old) => (old === text ? `${text}\u200b` : text));
  const ctx: EditContext = { editing, layout, edgeById, modals, notice, announce };
  const { branch, branchFrom, addVideos } = branchActions(ctx);
  const { changeTarget, deleteEdge, removeNode, onReconnect, onReconnectEnd } = changeActions(ctx);
  const title = titleIn(ctx);

  const flow = {
    onConnect: (c: Connection) => branch(c.source, c.target),
    /** A branch drawn to empty space: pick (or add) where it leads. */
    onConnectEnd: ((event, state: FinalConnectionState) => {
      if (reconnecting.current || state.isValid || !state.fromNode || state.fromHandle?.type !== 'source') return;
      const source = state.fromNode.id;
      const onto = videoNodeAt(event, layout);
      if (onto) return onto === source ? undefined : branch(source, onto);
      const point = 'changedTouches' in event ? event.changedTouches[0] : event;
      branchFrom(source, screenToFlowPosition({ x: point.clientX, y: point.clientY }));
    }) satisfies OnConnectEnd,
    onReconnect,
    onReconnectStart: () => {
      reconnecting.current = true;
    },
    onReconnectEnd: (...args: Parameters<typeof onReconnectEnd>) => {
      reconnecting.current = false;
      onReconnectEnd(...args);
    },
    isValidConnection: (c: Connection | Edge) => c.source !== c.target && layout.nodes.some((n) => n.id === c.target && n.kind === 'video'),
    onNodeDragStop: (_: unknown, _node: Node, moved: Node[]) => {
      editing.store.placeOnMap(pinsOf(layout, moved));
      announce(moved.length === 1 ? `Moved ${title(moved[0].id)}.` : `Moved ${moved.length} videos.`);
    },
  };

  return { announcement, announce, branchFrom, changeTarget, deleteEdge, removeNode, addVideos, flow };
};

export type MapEditor = NonNullable<ReturnType<typeof useMapEditing>>;
