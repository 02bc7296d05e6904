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
 * Every element is laid out in the editor's coordinates (element.player: the editor's player size
 * when it was placed) and scaled as a whole to the player's current size, so positions, fonts and
 * paddings keep their proportions from a phone to fullscreen.
 */
const Design = ({ element, box, children }: { element: FunnelElement; box: { width: number; height: number }; children: ReactNode }) => {
  const { width: w, height: h } = designSize(element);
  const scale = Math.min(box.width / w, box.height / h) || 1;
  return (
    <div className="bf-design" style={{ width: w, height: h, transform: `scale(${scale})` }}>
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

const BranchOverlay = ({ element, onBranch }: { element: BranchElement; onBranch: OverlayHandlers['onBranch'] }) => {
  const { branches, prompt, settings } = element.data;
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const [equal, setEqual] = useState(0);
  useLayoutEffect(() => {
    if (!settings?.equalize) return;
    let widest = 0;
    for (const b of buttons.current.values()) widest = Math.max(widest, b.offsetWidth);
    setEqual(widest);
  }, [settings?.equalize, branches]);
  const layer = overlayStyle(element);
  return (
    <>
      {layer && <div className="bf-overlay" style={layer} />}
      <div
        className="bf-branch-box"
        role="group"
        aria-label={prompt?.text || 'Choices'}
        style={{ top: element.position?.top ?? 0, left: element.position?.left ?? 0 }}
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

export const Overlays = ({ shown, box, handlers }: { shown: readonly ShownElement[]; box: { width: number; height: number }; handlers: OverlayHandlers }) => (
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
          {element.type === 'text' ? <TextOverlay element={element} /> : <BranchOverlay element={element} onBranch={handlers.onBranch} />}
          {hasSkip(element) && <SkipButton element={element} onSkip={handlers.onSkip} />}
        </Design>
      </div>
    ))}
  </div>
);

/** What the live region says when branches appear. */
export const announcement = (element: BranchElement): string => {
  const labels = element.data.branches.map(branchLabel).filter(Boolean);
  return `${element.data.prompt?.text ? `${element.data.prompt.text}. ` : ''}${labels.length} ${labels.length === 1 ? 'choice' : 'choices'}: ${labels.join(', ')}`;
};
