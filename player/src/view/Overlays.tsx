import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { ShownElement } from '../runtime/machine';
import { hasSkip } from '../runtime/timeline';
import type { Branch, BranchElement, FunnelElement, TextElement } from '../runtime/types';
import { cssUrl, fontStyle, gradientOf, paddingOf, radius, withOpacity } from './style';

const DESIGN_W = 640;
const DESIGN_H = 360;

export interface OverlayHandlers {
  onBranch(elementId: string, branchId: string): void;
  onSkip(elementId: string): void;
}

/**
 * Every element is laid out in the editor's coordinates (element.player: the editor's player size
 * when it was placed) and scaled as a whole to the player's current size, so positions, fonts and
 * paddings keep their proportions from a phone to fullscreen.
 */
const Design = ({ element, box, children }: { element: FunnelElement; box: { width: number; height: number }; children: ReactNode }) => {
  const w = element.player?.width || DESIGN_W;
  const h = element.player?.height || DESIGN_H;
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

const SkipButton = ({ element, onSkip }: { element: FunnelElement; onSkip: (id: string) => void }) => {
  const s = element.data.settings?.showSkip;
  const style: CSSProperties = {
    ...fontStyle(null, 'regular', s?.fontSize ?? 1, s?.color ?? '#ffffff'),
    background: s?.background?.color ?? '#000000',
    borderRadius: radius(s?.background?.edge ?? 'rounded'),
    padding: paddingOf(s?.background?.padding ?? { top: 4, bottom: 4 }),
    ...(s?.position ? { top: s.position.top, left: s.position.left } : { bottom: 90, right: 100 }),
  };
  return (
    <button type="button" className="bf-skip bf-focusable" style={style} onClick={() => onSkip(element.id)}>
      {s?.text || 'Skip'}
    </button>
  );
};

const TextOverlay = ({ element }: { element: TextElement }) => {
  const d = element.data;
  const pos = d.position ?? element.position;
  return (
    <div
      className="bf-text"
      style={{ top: pos?.top ?? 0, left: pos?.left ?? 0, width: element.width ?? undefined, ...fontStyle(d.fontFamily, d.fontThickness, d.fontSize, d.color) }}
    >
      {d.title}
    </div>
  );
};

const branchLabel = (b: Branch): string => (b.type === 'image' ? b.name : b.standard?.text || b.name);

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
  const settings = element.data.settings;
  const border = settings?.border?.enabled ? `${settings.border.size}px solid ${settings.border.color}` : undefined;
  if (branch.type === 'image') {
    const img = branch.image;
    const src = img?.source && (img.source.startsWith('/uploads/') || img.source.startsWith('https://')) ? img.source : undefined;
    return (
      <button
        type="button"
        className="bf-branch bf-branch-image bf-focusable"
        aria-label={branch.name}
        onClick={onClick}
        style={{ top: img?.position?.top ?? 0, left: img?.position?.left ?? 0, width: img?.width ?? 100, height: img?.height ?? 100, border }}
      >
        {src ? <img src={src} alt="" draggable={false} /> : <span>{branch.name}</span>}
      </button>
    );
  }
  const s = branch.standard;
  const bg = s?.background;
  const shape = s?.shape ?? 'rectangle';
  const hollow = shape.startsWith('hollowed_');
  const baseColor = bg?.enabled === false || hollow ? 'transparent' : (bg?.color ?? '#2f27ce');
  const style: CSSProperties = {
    top: s?.position?.top ?? 0,
    left: s?.position?.left ?? 0,
    ...fontStyle(s?.font, s?.fontThickness, s?.fontSize ?? 1.5, s?.color),
    padding: paddingOf(bg?.padding),
    borderRadius: radius(bg?.edge ?? 'rounded'),
    border: border ?? (hollow ? `2px solid ${bg?.color ?? '#ffffff'}` : undefined),
    minWidth: minWidth || undefined,
  };
  if (bg?.enabled !== false && bg?.style === 'image' && cssUrl(bg.image)) {
    style.backgroundImage = cssUrl(bg.image);
    style.backgroundSize = 'cover';
  } else if (settings?.gradient?.enabled && !hollow) {
    style.backgroundImage = gradientOf(baseColor, settings.gradient.color, settings.gradient.direction);
  } else {
    style.background = baseColor;
  }
  return (
    <button type="button" ref={measure} className={`bf-branch bf-shape-${shape} bf-focusable`} style={style} onClick={onClick}>
      {s?.text || branch.name}
    </button>
  );
};

const BranchOverlay = ({ element, onBranch }: { element: BranchElement; onBranch: OverlayHandlers['onBranch'] }) => {
  const { branches, prompt, overlay, settings } = element.data;
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const [equal, setEqual] = useState(0);
  useLayoutEffect(() => {
    if (!settings?.equalize) return;
    let widest = 0;
    for (const b of buttons.current.values()) widest = Math.max(widest, b.offsetWidth);
    setEqual(widest);
  }, [settings?.equalize, branches]);
  const layer: CSSProperties | null = overlay?.enabled
    ? overlay.type === 'image' && cssUrl(overlay.image?.source)
      ? { backgroundImage: cssUrl(overlay.image.source), backgroundSize: 'cover', opacity: overlay.image.opacity ?? 1 }
      : { background: withOpacity(overlay.color?.value ?? '#000000', overlay.color?.opacity ?? 1) }
    : null;
  const promptBg = prompt?.background?.enabled
    ? { background: prompt.background.color, borderRadius: radius(prompt.background.edge), padding: paddingOf(prompt.background.padding) }
    : {};
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
          <div
            className="bf-prompt"
            style={{
              top: prompt.position?.top ?? 0,
              left: prompt.position?.left ?? 0,
              ...fontStyle(prompt.fontFamily, prompt.fontThickness, prompt.fontSize ?? 2, prompt.color),
              ...promptBg,
            }}
          >
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
