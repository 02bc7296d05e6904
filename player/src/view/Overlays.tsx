import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ShownElement } from '../runtime/machine';
import { hasSkip } from '../runtime/timeline';
import type { Branch, BranchElement, FunnelElement, TextElement } from '../runtime/types';
import {
  branchButtonStyle,
  branchClassName,
  branchImageSource,
  branchLabel,
  branchPosition,
  designSize,
  overlayStyle,
  promptStyle,
  skipStyle,
  textPosition,
  textStyle,
} from './element-style';

export interface OverlayHandlers {
  onBranch: (elementId: string, branchId: string) => void;
  onSkip: (elementId: string) => void;
}

/**
 * What a button takes taps over on a touch screen, in screen px: at least 44 (WCAG 2.5.5), 48 as
 * Android asks, so a tap a shade past 22 px from the centre still counts.
 */
const TOUCH_TARGET = 48;

/** What the player's box is: its size, and the band at its bottom the control bar takes. */
export interface OverlayBox {
  width: number;
  height: number;
  /** The control bar's height: choices are kept above it. */
  bar?: number;
}

const designScale = (element: FunnelElement, box: OverlayBox): number => {
  const { width: w, height: h } = designSize(element);
  return Math.min(box.width / w, box.height / h) || 1;
};

/**
 * How far (design px) a branch element's group must rise so that no button, with its touch hit
 * area, reaches into the control bar's band: 0 for most layouts (the bar takes the bottom 48 to
 * 58 px). It rises no further than its highest button's top, so nothing leaves the top edge.
 */
const liftOverBar = (buttons: Iterable<HTMLElement>, top: number, scale: number, limit: number): number => {
  let bottom = 0;
  let highest = Infinity;
  for (const b of buttons) {
    const reach = Math.max(0, (TOUCH_TARGET / scale - b.offsetHeight) / 2);
    bottom = Math.max(bottom, top + b.offsetTop + b.offsetHeight + reach);
    highest = Math.min(highest, top + b.offsetTop - reach);
  }
  // One px to spare: offsetHeight rounds a button's height.
  return Math.max(0, Math.min(bottom + 1 - limit, highest));
};

/**
 * Every element is laid out in the editor's coordinates (element.player: the editor's player size
 * when it was placed) and scaled as a whole to the player's current size, so positions, fonts and
 * paddings keep their proportions from a phone to fullscreen.
 */
const Design = ({ element, box, children }: { element: FunnelElement; box: OverlayBox; children: ReactNode }) => {
  const { width: w, height: h } = designSize(element);
  const scale = designScale(element, box);
  // A touch screen's hit area (48 screen px) in design units.
  const style = { width: w, height: h, transform: `scale(${scale})`, ['--bf-hit' as string]: `${TOUCH_TARGET / scale}px` };
  return (
    <div className="bf-design" style={style}>
      {children}
    </div>
  );
};

const animationClass = (element: FunnelElement, fading: boolean): string => {
  const animation = element.type === 'branch' ? (element.data.settings?.animation ?? 'none') : 'none';
  return `bf-element${fading ? ' bf-fading' : ''}${animation !== 'none' ? ` bf-anim-${animation}` : ''}`;
};

const SkipButton = ({ element, onSkip }: { element: FunnelElement; onSkip: (id: string) => void }) => (
  <button type="button" className="bf-skip bf-focusable" style={skipStyle(element)} onClick={() => onSkip(element.id)}>
    {element.data.settings?.showSkip?.text || 'Skip'}
  </button>
);

const TextOverlay = ({ element }: { element: TextElement }) => (
  <div className="bf-text" style={{ ...textPosition(element), ...textStyle(element) }}>
    {element.data.title}
  </div>
);

const BranchButton = ({
  element,
  branch,
  minWidth,
  measure,
  onClick,
}: {
  element: BranchElement;
  branch: Branch;
  minWidth: number;
  measure: (el: HTMLButtonElement | null) => void;
  onClick: () => void;
}) => {
  const style = { ...branchPosition(branch), ...branchButtonStyle(element, branch, minWidth) };
  if (branch.type === 'image') {
    const src = branchImageSource(branch);
    return (
      <button type="button" className={`${branchClassName(branch)} bf-focusable`} aria-label={branch.name} onClick={onClick} style={style}>
        {src ? <img src={src} alt="" draggable={false} /> : <span>{branch.name}</span>}
      </button>
    );
  }
  return (
    <button type="button" ref={measure} className={`${branchClassName(branch)} bf-focusable`} style={style} onClick={onClick}>
      {branch.standard?.text || branch.name}
    </button>
  );
};

/** A branch element's choices; none drawn (no group, no prompt) while conditions hide them all. */
const BranchOverlay = (props: { element: BranchElement; box: OverlayBox; onBranch: OverlayHandlers['onBranch'] }) =>
  props.element.data.branches.length ? <BranchGroup {...props} /> : null;

const BranchGroup = ({ element, box, onBranch }: { element: BranchElement; box: OverlayBox; onBranch: OverlayHandlers['onBranch'] }) => {
  const { branches, prompt, settings } = element.data;
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const [equal, setEqual] = useState(0);
  const [lift, setLift] = useState(0);
  useLayoutEffect(() => {
    if (!settings?.equalize) return;
    let widest = 0;
    for (const b of buttons.current.values()) widest = Math.max(widest, b.offsetWidth);
    setEqual(widest);
  }, [settings?.equalize, branches]);
  const group = useRef<HTMLDivElement>(null);
  const top = element.position?.top ?? 0;
  const scale = designScale(element, box);
  const limit = (box.height - (box.bar ?? 0)) / scale;
  // The bar never covers a choice: the group rises above the bar's band when it would reach into it.
  useLayoutEffect(() => {
    setLift(liftOverBar(group.current!.querySelectorAll<HTMLElement>(':scope > .bf-branch'), top, scale, limit));
  }, [branches, top, scale, limit, equal]);
  const layer = overlayStyle(element);
  return (
    <>
      {layer && <div className="bf-overlay" style={layer} />}
      <div
        ref={group}
        className="bf-branch-box"
        role="group"
        aria-label={prompt?.text || 'Choices'}
        style={{ top: top - lift, left: element.position?.left ?? 0 }}
      >
        {prompt?.text ? (
          <div className="bf-prompt" style={{ top: prompt.position?.top ?? 0, left: prompt.position?.left ?? 0, ...promptStyle(element) }}>
            {prompt.text}
          </div>
        ) : null}
        {branches.map((branch) => (
          <BranchButton
            key={branch.id}
            element={element}
            branch={branch}
            minWidth={settings?.equalize && branch.type !== 'image' ? equal : 0}
            measure={(el) => (el ? buttons.current.set(branch.id, el) : buttons.current.delete(branch.id))}
            onClick={() => onBranch(element.id, branch.id)}
          />
        ))}
      </div>
    </>
  );
};

export const Overlays = ({ shown, box, handlers }: { shown: readonly ShownElement[]; box: OverlayBox; handlers: OverlayHandlers }) => (
  <div className="bf-overlays">
    {shown.map(({ element, fading }) => (
      <div
        key={element.id}
        className={animationClass(element, fading)}
        data-element-id={element.id}
        aria-hidden={fading || undefined}
        {...(fading ? { inert: '' } : {})}
      >
        <Design element={element} box={box}>
          {element.type === 'text' ? <TextOverlay element={element} /> : <BranchOverlay element={element} box={box} onBranch={handlers.onBranch} />}
          {hasSkip(element) && <SkipButton element={element} onSkip={handlers.onSkip} />}
        </Design>
      </div>
    ))}
  </div>
);

/**
 * Sentences joined into one text: each ends with its own punctuation (a prompt's "?" stays as it
 * is) or gets a full stop, so no "?." or "..".
 */
export const sentences = (...parts: readonly string[]): string =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => (/[.!?…:;]['"’”)\]]*$/.test(p) ? p : `${p}.`))
    .join(' ');

const labelsOf = (branches: readonly Branch[]) => branches.map(branchLabel).filter(Boolean);

/** What the live region says when an element's choices appear: nothing when none is visible. */
export const announcement = (element: BranchElement): string => {
  const labels = labelsOf(element.data.branches);
  if (!labels.length) return '';
  return sentences(element.data.prompt?.text ?? '', `${labels.length} ${labels.length === 1 ? 'choice' : 'choices'}: ${labels.join(', ')}`);
};

/** What it says when choices of an element already on screen appear (their conditions came to hold). */
export const addedAnnouncement = (element: BranchElement, added: readonly Branch[]): string => {
  const labels = labelsOf(added);
  if (!labels.length) return '';
  return sentences(element.data.prompt?.text ?? '', `${labels.length === 1 ? 'New choice' : `${labels.length} new choices`}: ${labels.join(', ')}`);
};
