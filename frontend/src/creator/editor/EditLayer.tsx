import { memo, type KeyboardEvent } from 'react';
import { Rnd } from 'react-rnd';
import type { Branch, FunnelElement } from '@branchify/shared';
import {
  branchButtonStyle,
  branchClassName,
  branchImageSource,
  branchPosition,
  hasSkip,
  isWithin,
  overlayStyle,
  promptStyle,
  skipStyle,
  textPosition,
  textStyle,
  usePlayback,
  type PlaybackStore,
} from '@branchify/player';
import { DESIGN_SIZE, type BranchElement, type DocumentStore, type TextElement } from './document-store';
import { MIN_BOX_PX, clamp } from './timeline-math';
import { useDocument } from './useDocument';
import { useElementSize } from './useElementSize';

/**
 * The editing layer over the preview: the elements visible at the playhead (and the selected one
 * at any time) drawn as the player draws them, each part in a drag-and-resize box (react-rnd) in
 * the 640×360 design space the public player scales from. Dragging or resizing commits once, when
 * the pointer lets go; arrow keys nudge the focused part (Shift: 10 px).
 */
export const EditLayer = ({ store, editorId, playback }: { store: DocumentStore; editorId: string; playback: PlaybackStore }) => {
  const elements = useDocument(store, (s) => s.doc.videos.find((v) => v.editor_id === editorId)?.elements) ?? EMPTY;
  const selected = useDocument(store, (s) => s.selectedElement);
  const selectedBranch = useDocument(store, (s) => s.selectedBranch);
  const time = usePlayback(playback, (s) => s.time);
  const [ref, size] = useElementSize<HTMLDivElement>();
  const scale = size.width ? size.width / DESIGN_SIZE.width : 1;
  const shown = elements.filter((e) => e.id === selected || isWithin(e, time));
  return (
    <div
      ref={ref}
      className="bf-edit-layer"
      data-testid="edit-layer"
      style={{ position: 'absolute', inset: 0, zIndex: 3, overflow: 'hidden' }}
      onPointerDown={(e) => {
        if (e.target === e.currentTarget || (e.target as HTMLElement).dataset.designArea) store.clearSelection();
      }}
    >
      <div
        data-design-area="1"
        style={{
          position: 'absolute',
          top: 0,
          left: 0,
          width: DESIGN_SIZE.width,
          height: DESIGN_SIZE.height,
          transform: `scale(${scale})`,
          transformOrigin: '0 0',
        }}
      >
        {shown.map((element) =>
          element.type === 'text' ? (
            <TextBox key={element.id} store={store} element={element} scale={scale} selected={element.id === selected} />
          ) : (
            <BranchBoxes key={element.id} store={store} element={element} scale={scale} selected={element.id === selected} selectedBranch={selectedBranch} />
          ),
        )}
        {shown.filter(hasSkip).map((element) => (
          // Where viewers will see the skip button (placed by the player, not dragged).
          <div key={`skip-${element.id}`} className="bf-skip" aria-hidden="true" style={{ ...skipStyle(element), pointerEvents: 'none' }}>
            {element.data.settings?.showSkip?.text || 'Skip'}
          </div>
        ))}
      </div>
    </div>
  );
};

const EMPTY: FunnelElement[] = [];

const outline = (selected: boolean) =>
  selected ? { outline: '2px dashed #fff', boxShadow: '0 0 0 3px rgba(47, 39, 206, 0.8)' } : { outline: '1px dashed rgba(255,255,255,0.45)' };

/** Arrow keys move a part by 1 px (10 with Shift) inside the design box. */
const nudge = (event: KeyboardEvent, at: { top: number; left: number }, move: (p: { top: number; left: number }) => void) => {
  const step = event.shiftKey ? 10 : 1;
  const delta = { ArrowUp: [-step, 0], ArrowDown: [step, 0], ArrowLeft: [0, -step], ArrowRight: [0, step] }[event.key];
  if (!delta) return;
  event.preventDefault();
  move({ top: clamp(at.top + delta[0], 0, DESIGN_SIZE.height - 10), left: clamp(at.left + delta[1], 0, DESIGN_SIZE.width - 10) });
};

const TextBox = memo(({ store, element, scale, selected }: { store: DocumentStore; element: TextElement; scale: number; selected: boolean }) => {
  const at = textPosition(element);
  const width = Math.max(MIN_BOX_PX, element.width ?? 240);
  return (
    <Rnd
      scale={scale}
      bounds="parent"
      position={{ x: at.left, y: at.top }}
      size={{ width, height: 'auto' }}
      minWidth={MIN_BOX_PX}
      enableResizing={{ left: true, right: true, top: false, bottom: false, topLeft: false, topRight: false, bottomLeft: false, bottomRight: false }}
      onDragStart={() => store.selectElement(element.id)}
      onDragStop={(_e, d) => {
        if (d.x !== at.left || d.y !== at.top) store.moveElement(element.id, { top: Math.round(d.y), left: Math.round(d.x) });
      }}
      onResizeStart={() => store.selectElement(element.id)}
      onResizeStop={(_e, _dir, node, _delta, pos) => store.resizeElement(element.id, node.offsetWidth, { top: Math.round(pos.y), left: Math.round(pos.x) })}
      style={{ zIndex: selected ? 2 : 1 }}
    >
      <div
        role="button"
        tabIndex={0}
        aria-pressed={selected}
        aria-label={`Text element: ${element.data.title || 'empty'}`}
        data-element-id={element.id}
        className="bf-text"
        style={{ ...textStyle(element), position: 'relative', width: '100%', cursor: 'move', ...outline(selected) }}
        onFocus={() => store.selectElement(element.id)}
        onKeyDown={(e) => nudge(e, at, (p) => store.moveElement(element.id, p))}
      >
        {element.data.title || '\u00a0'}
      </div>
    </Rnd>
  );
});
TextBox.displayName = 'TextBox';

/** A branch element: its overlay layer, the prompt and each button, every part placed on its own. */
const BranchBoxes = memo(
  ({
    store,
    element,
    scale,
    selected,
    selectedBranch,
  }: {
    store: DocumentStore;
    element: BranchElement;
    scale: number;
    selected: boolean;
    selectedBranch: string | null;
  }) => {
    const origin = { top: element.position?.top ?? 0, left: element.position?.left ?? 0 };
    const layer = overlayStyle(element);
    const prompt = element.data.prompt;
    const promptAt = { top: origin.top + (prompt.position?.top ?? 0), left: origin.left + (prompt.position?.left ?? 0) };
    /** Positions are kept relative to the element's own corner, as the player reads them. */
    const relative = (p: { top: number; left: number }) => ({ top: Math.round(p.top - origin.top), left: Math.round(p.left - origin.left) });
    return (
      <>
        {layer && <div className="bf-overlay" style={{ ...layer, pointerEvents: 'none' }} />}
        {prompt.text ? (
          <Rnd
            scale={scale}
            bounds="parent"
            position={{ x: promptAt.left, y: promptAt.top }}
            enableResizing={false}
            onDragStart={() => store.selectElement(element.id, selectedBranch)}
            onDragStop={(_e, d) => {
              if (d.x === promptAt.left && d.y === promptAt.top) return;
              store.updateBranchElement(element.id, (e) => ({
                ...e,
                data: { ...e.data, prompt: { ...e.data.prompt, position: relative({ top: d.y, left: d.x }) } },
              }));
            }}
          >
            <div
              role="button"
              tabIndex={0}
              aria-label={`Prompt: ${prompt.text}`}
              className="bf-prompt"
              style={{ ...promptStyle(element), position: 'relative', cursor: 'move', ...outline(selected && selectedBranch === null) }}
              onFocus={() => store.selectElement(element.id)}
            >
              {prompt.text}
            </div>
          </Rnd>
        ) : null}
        {element.data.branches.map((branch) => (
          <BranchBox
            key={branch.id}
            store={store}
            element={element}
            branch={branch}
            scale={scale}
            origin={origin}
            selected={selected && selectedBranch === branch.id}
            relative={relative}
          />
        ))}
      </>
    );
  },
);
BranchBoxes.displayName = 'BranchBoxes';

const BranchBox = ({
  store,
  element,
  branch,
  scale,
  origin,
  selected,
  relative,
}: {
  store: DocumentStore;
  element: BranchElement;
  branch: Branch;
  scale: number;
  origin: { top: number; left: number };
  selected: boolean;
  relative: (p: { top: number; left: number }) => { top: number; left: number };
}) => {
  const own = branchPosition(branch);
  const at = { top: origin.top + own.top, left: origin.left + own.left };
  const image = branch.type === 'image';
  const place = (p: { top: number; left: number }) =>
    store.updateBranch(element.id, branch.id, (b) =>
      b.type === 'image' ? { ...b, image: { ...b.image, position: relative(p) } } : { ...b, standard: { ...b.standard, position: relative(p) } },
    );
  const look = branchButtonStyle(element, branch);
  const src = branchImageSource(branch);
  return (
    <Rnd
      scale={scale}
      bounds="parent"
      position={{ x: at.left, y: at.top }}
      {...(image ? { size: { width: branch.image.width, height: branch.image.height } } : {})}
      minWidth={image ? Math.min(MIN_BOX_PX, branch.image.width) : undefined}
      minHeight={image ? Math.min(MIN_BOX_PX, branch.image.height) : undefined}
      lockAspectRatio={image}
      enableResizing={image ? { bottomRight: true } : false}
      onDragStart={() => store.selectElement(element.id, branch.id)}
      onDragStop={(_e, d) => {
        if (d.x !== at.left || d.y !== at.top) place({ top: d.y, left: d.x });
      }}
      onResizeStop={(_e, _dir, node) =>
        store.updateBranch(element.id, branch.id, (b) => ({
          ...b,
          image: { ...b.image, width: Math.round(node.offsetWidth), height: Math.round(node.offsetHeight) },
        }))
      }
      style={{ zIndex: selected ? 2 : 1 }}
    >
      <div
        role="button"
        tabIndex={0}
        aria-pressed={selected}
        aria-label={`Branch button: ${branch.type === 'image' ? branch.name : branch.standard.text || branch.name}`}
        data-branch-id={branch.id}
        className={branchClassName(branch)}
        style={{ ...look, position: 'relative', cursor: 'move', width: image ? '100%' : undefined, height: image ? '100%' : undefined, ...outline(selected) }}
        onFocus={() => store.selectElement(element.id, branch.id)}
        onKeyDown={(e) => nudge(e, at, place)}
      >
        {image ? src ? <img src={src} alt="" draggable={false} /> : <span>{branch.name}</span> : branch.standard.text || branch.name}
      </div>
    </Rnd>
  );
};
