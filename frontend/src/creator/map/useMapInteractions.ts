import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import { useReactFlow, useStoreApi } from '@xyflow/react';
import type { Box as Rect, FunnelLayout, LaidOutEdge, LaidOutNode } from './funnel-graph';
import type { FunnelMapProps, MapEditing, MapItem } from './map-shared';
import type { MapEditor } from './useMapEditing';

/** The node or edge an event happened in, by React Flow's classes and ids. */
const flowElement = (target: EventTarget): MapItem | null => {
  const el = (target as Element).closest?.('.react-flow__node, .react-flow__edge');
  const id = el?.getAttribute('data-id');
  if (!el || !id) return null;
  return { kind: el.classList.contains('react-flow__node') ? 'node' : 'edge', id };
};

/** Focuses the node or edge; one just added may be drawn a frame or two later, so it is looked for again then. */
const focusOn = (container: HTMLElement, kind: 'node' | 'edge', id: string | undefined, tries = 10) => {
  if (!id) return;
  const el = container.querySelector<HTMLElement | SVGElement>(`.react-flow__${kind}[data-id="${CSS.escape(id)}"]`);
  if (el) el.focus();
  else if (tries > 0) requestAnimationFrame(() => focusOn(container, kind, id, tries - 1));
};

/**
 * What the map does with the pointer and the keyboard. On the editing map a click, Space or an
 * arrow key selects a video or a branch for the toolbar (focus passing over one does not), and a
 * double-click or Enter opens it in the editor; on a map that only opens, a click opens. Focus pans
 * its node or label into view and outlines a focused edge's label.
 */
export const useMapInteractions = ({
  layout,
  byId,
  edgeById,
  videos,
  onOpen,
  editing,
  editor,
  area,
}: {
  layout: FunnelLayout;
  byId: ReadonlyMap<string, LaidOutNode>;
  edgeById: ReadonlyMap<string, LaidOutEdge>;
  videos: FunnelMapProps['videos'];
  onOpen: FunnelMapProps['onOpen'];
  editing?: MapEditing;
  editor: MapEditor | null;
  /** The map and its toolbar: Ctrl+Z there (or with nothing focused) undoes the last edit. */
  area: RefObject<HTMLElement | null>;
}) => {
  const store = useStoreApi();
  const { setCenter } = useReactFlow();
  const [focusedEdge, setFocusedEdge] = useState<string | null>(null);
  /** The node or edge last selected: what the map's toolbar acts on. */
  const [current, setCurrent] = useState<MapItem | null>(null);
  const select = (at: MapItem) => {
    if (!editor) return;
    setCurrent(at);
    const name = at.kind === 'node' ? byId.get(at.id)?.title : edgeById.get(at.id)?.text;
    if (name) editor.announce(`Selected ${at.kind === 'node' ? name : `branch '${name}'`}.`);
  };
  /** Pans (at the same zoom) so a focused node or edge label is wholly in view. */
  const reveal = (box: Rect) => {
    const { transform, width, height: viewHeight } = store.getState();
    const [tx, ty, zoom] = transform;
    const left = box.x * zoom + tx;
    const top = box.y * zoom + ty;
    const inside = left >= 0 && top >= 0 && left + box.width * zoom <= width && top + box.height * zoom <= viewHeight;
    if (!inside) void setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom });
  };

  const open = (id: string | null | undefined) => {
    if (!onOpen || !id || !videos.some((v) => v.editor_id === id)) return;
    onOpen(id);
  };
  const openEdge = (id: string) => {
    const edge = edgeById.get(id);
    if (edge && onOpen) onOpen(edge.source, { elementId: edge.elementId, branchId: edge.branchId });
  };
  const pressing = usePointerPressed();
  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    const at = flowElement(e.target);
    setFocusedEdge(at?.kind === 'edge' ? at.id : null);
    // Focus that a press gave (a click, or a drag starting on a branch's end) leaves the map where it is under the pointer.
    if (!at || pressing.current) return;
    const box = at.kind === 'node' ? byId.get(at.id)?.box : edgeById.get(at.id)?.labelBox;
    if (box) reveal(box);
  };
  const walk = keyHandler(layout, edgeById, open, openEdge, select);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (editing && editor && editKeys(e, editor, byId, edgeById, select)) return;
    walk(e);
  };
  useUndoKeys(editing, editor, area);
  /** A click: on the editing map it selects; elsewhere it opens. A double-click opens. */
  const click = (at: MapItem) => {
    if (editor) select(at);
    else if (at.kind === 'node') open(at.id);
    else openEdge(at.id);
  };
  const openItem = (at: MapItem) => (at.kind === 'node' ? open(at.id) : openEdge(at.id));
  return { focusedEdge, current, select, click, openItem, onFocus, onBlur: () => setFocusedEdge(null), onKeyDown, open, openEdge };
};

/** Whether a pointer (mouse, pen, finger) is pressed: between its pointerdown and its pointerup. */
const usePointerPressed = () => {
  const pressed = useRef(false);
  useEffect(() => {
    const down = () => {
      pressed.current = true;
    };
    const up = () => {
      pressed.current = false;
    };
    document.addEventListener('pointerdown', down, true);
    document.addEventListener('pointerup', up, true);
    document.addEventListener('pointercancel', up, true);
    return () => {
      document.removeEventListener('pointerdown', down, true);
      document.removeEventListener('pointerup', up, true);
      document.removeEventListener('pointercancel', up, true);
    };
  }, []);
  return pressed;
};

/** Whether an element is where the map's Ctrl+Z applies: in the map or its toolbar, or nothing focused at all (after a mouse edit). */
const inUndoArea = (target: EventTarget | null, area: HTMLElement | null): boolean => {
  if (!area || !(target instanceof Element)) return false;
  return target === document.body || target === document.documentElement || area.contains(target);
};

/** Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo and redo the funnel's edits from the map, its toolbar, or when focus is nowhere (a mouse edit leaves it on the page). */
const useUndoKeys = (editing: MapEditing | undefined, editor: MapEditor | null, area: RefObject<HTMLElement | null>) => {
  const latest = useRef({ editing, editor });
  latest.current = { editing, editor };
  const active = Boolean(editing);
  useEffect(() => {
    if (!active) return undefined;
    const onKey = (e: globalThis.KeyboardEvent) => {
      const { editing: store, editor: actions } = latest.current;
      if (e.defaultPrevented || !store || !actions || !(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if ((key !== 'z' && key !== 'y') || !inUndoArea(e.target, area.current) || typing(e.target as HTMLElement)) return;
      e.preventDefault();
      const redo = key === 'y' || e.shiftKey;
      if (redo) store.store.redo();
      else store.store.undo();
      actions.announce(redo ? 'Redone.' : 'Undone.');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, area]);
};

/** A keystroke meant for a text field, not for the map. */
const typing = (t: HTMLElement) => t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName);

// On a video, B branches from it and Delete removes it; on a button's edge, T changes its target and Delete deletes it; each selects it too. (Undo: useUndoKeys.)
const editKeys = (
  e: KeyboardEvent<HTMLDivElement>,
  editor: MapEditor,
  byId: ReadonlyMap<string, LaidOutNode>,
  edgeById: ReadonlyMap<string, LaidOutEdge>,
  select: (at: MapItem) => void,
): boolean => {
  if (typing(e.target as HTMLElement)) return false;
  const key = e.key.toLowerCase();
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const at = flowElement(e.target);
  if (!at) return false;
  const video = at.kind === 'node' && byId.get(at.id)?.kind === 'video';
  const button = at.kind === 'edge' && edgeById.get(at.id)?.kind === 'branch';
  const act = (run: () => void) => {
    e.preventDefault();
    select(at);
    run();
    return true;
  };
  if (video && key === 'b') return act(() => editor.branchFrom(at.id));
  if (button && key === 't') return act(() => editor.changeTarget(at.id));
  if (key === 'delete' || key === 'backspace') {
    if (video) return act(() => editor.removeNode(at.id));
    if (button) return act(() => editor.deleteEdge(at.id));
  }
  return false;
};

// Enter opens; Space selects; arrows walk the graph (selecting where they go): right along an edge to its target, left back to its source, up and down between a video's edges.
const keyHandler =
  (
    layout: FunnelLayout,
    edgeById: ReadonlyMap<string, LaidOutEdge>,
    open: (id: string) => void,
    openEdge: (id: string) => void,
    select: (at: MapItem) => void,
  ) =>
  (e: KeyboardEvent<HTMLDivElement>) => {
    const at = flowElement(e.target);
    if (!at) return;
    const container = e.currentTarget;
    const edge = at.kind === 'edge' ? edgeById.get(at.id) : undefined;
    const siblings = (source: string) => layout.edges.filter((x) => x.source === source);
    if (e.key === 'Enter') {
      e.preventDefault();
      if (at.kind === 'node') open(at.id);
      else openEdge(at.id);
      return;
    }
    if (e.key === ' ') {
      e.preventDefault();
      select(at);
      return;
    }
    const move = (kind: 'node' | 'edge', id: string | undefined) => {
      if (!id) return;
      e.preventDefault();
      select({ kind, id });
      focusOn(container, kind, id);
    };
    if (at.kind === 'node') {
      if (e.key === 'ArrowRight') move('edge', siblings(at.id)[0]?.id);
      else if (e.key === 'ArrowLeft') move('edge', layout.edges.find((x) => x.target === at.id)?.id);
    } else if (edge) {
      const list = siblings(edge.source);
      const index = list.findIndex((x) => x.id === edge.id);
      if (e.key === 'ArrowRight') move('node', edge.target);
      else if (e.key === 'ArrowLeft') move('node', edge.source);
      else if (e.key === 'ArrowDown') move('edge', list[index + 1]?.id);
      else if (e.key === 'ArrowUp') move('edge', list[index - 1]?.id);
    }
  };
