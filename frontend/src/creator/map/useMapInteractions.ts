import { useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useReactFlow, useStoreApi } from '@xyflow/react';
import type { Box as Rect, FunnelLayout, LaidOutEdge, LaidOutNode } from './funnel-graph';
import type { FunnelMapProps, MapEditing } from './map-shared';
import type { MapEditor } from './useMapEditing';

/** The node or edge an event happened in, by React Flow's classes and ids. */
const flowElement = (target: EventTarget): { kind: 'node' | 'edge'; id: string } | null => {
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
 * What the map does with the pointer and the keyboard: click or Enter opens a video (or the element
 * behind an edge); focus pans its node or label into view and outlines a focused edge's label.
 */
export const useMapInteractions = ({
  layout,
  byId,
  edgeById,
  videos,
  onOpen,
  editing,
  editor,
}: {
  layout: FunnelLayout;
  byId: ReadonlyMap<string, LaidOutNode>;
  edgeById: ReadonlyMap<string, LaidOutEdge>;
  videos: FunnelMapProps['videos'];
  onOpen: FunnelMapProps['onOpen'];
  editing?: MapEditing;
  editor: MapEditor | null;
}) => {
  const store = useStoreApi();
  const { setCenter } = useReactFlow();
  const [focusedEdge, setFocusedEdge] = useState<string | null>(null);
  /** The node or edge last focused: what the map's toolbar acts on. */
  const [current, setCurrent] = useState<{ kind: 'node' | 'edge'; id: string } | null>(null);
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
  const onFocus = (e: FocusEvent<HTMLDivElement>) => {
    const at = flowElement(e.target);
    setFocusedEdge(at?.kind === 'edge' ? at.id : null);
    if (!at) return;
    setCurrent(at);
    const box = at.kind === 'node' ? byId.get(at.id)?.box : edgeById.get(at.id)?.labelBox;
    if (box) reveal(box);
  };
  const walk = keyHandler(layout, edgeById, open, openEdge);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (editing && editor && editKeys(e, editing, editor, byId, edgeById)) return;
    walk(e);
  };
  return { focusedEdge, current, onFocus, onBlur: () => setFocusedEdge(null), onKeyDown, open, openEdge };
};

/** A keystroke meant for a text field, not for the map. */
const typing = (e: KeyboardEvent) => {
  const t = e.target as HTMLElement;
  return t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName);
};

// Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo and redo; on a video, B branches from it and Delete removes it; on a button's edge, T changes its target and Delete deletes it.
const editKeys = (
  e: KeyboardEvent<HTMLDivElement>,
  editing: MapEditing,
  editor: MapEditor,
  byId: ReadonlyMap<string, LaidOutNode>,
  edgeById: ReadonlyMap<string, LaidOutEdge>,
): boolean => {
  if (typing(e)) return false;
  const key = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && (key === 'z' || key === 'y')) {
    e.preventDefault();
    const redo = key === 'y' || e.shiftKey;
    if (redo) editing.store.redo();
    else editing.store.undo();
    editor.announce(redo ? 'Redone.' : 'Undone.');
    return true;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const at = flowElement(e.target);
  if (!at) return false;
  const video = at.kind === 'node' && byId.get(at.id)?.kind === 'video';
  const button = at.kind === 'edge' && edgeById.get(at.id)?.kind === 'branch';
  const act = (run: () => void) => {
    e.preventDefault();
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

// Enter opens; arrows walk the graph: right along an edge to its target, left back to its source, up and down between a video's edges.
const keyHandler =
  (layout: FunnelLayout, edgeById: ReadonlyMap<string, LaidOutEdge>, open: (id: string) => void, openEdge: (id: string) => void) =>
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
    const move = (kind: 'node' | 'edge', id: string | undefined) => {
      if (!id) return;
      e.preventDefault();
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
