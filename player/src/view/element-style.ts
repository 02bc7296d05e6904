import type { CSSProperties } from 'react';
import type { Branch, BranchElement, FunnelElement, TextElement } from '../runtime/types';
import { cssUrl, fontStyle, gradientOf, paddingOf, radius, withOpacity } from './style';

/**
 * How each part of an element looks, without where it sits: the player places these at their
 * positions, the editor inside its drag-and-resize boxes, so a creator sees what viewers see.
 */

const DESIGN_W = 640;
const DESIGN_H = 360;

/** The editor's player size when the element was placed; everything scales from it. */
export const designSize = (element: FunnelElement): { width: number; height: number } => ({
  width: element.player?.width || DESIGN_W,
  height: element.player?.height || DESIGN_H,
});

export const textStyle = (element: TextElement): CSSProperties => {
  const d = element.data;
  return { width: element.width ?? undefined, ...fontStyle(d.fontFamily, d.fontThickness, d.fontSize, d.color) };
};

/** Where a text element sits: its data's position, else the element's. */
export const textPosition = (element: TextElement): { top: number; left: number } => {
  const pos = element.data.position ?? element.position;
  return { top: pos?.top ?? 0, left: pos?.left ?? 0 };
};

export const branchLabel = (b: Branch): string => (b.type === 'image' ? b.name : b.standard?.text || b.name);

export const branchClassName = (branch: Branch): string =>
  branch.type === 'image' ? 'bf-branch bf-branch-image' : `bf-branch bf-shape-${branch.standard?.shape ?? 'rectangle'}`;

/** An image branch's picture: only our uploads and https images. */
export const branchImageSource = (branch: Branch): string | undefined => {
  const src = branch.image?.source;
  return src && (src.startsWith('/uploads/') || src.startsWith('https://')) ? src : undefined;
};

export const branchPosition = (branch: Branch): { top: number; left: number } => {
  const pos = branch.type === 'image' ? branch.image?.position : branch.standard?.position;
  return { top: pos?.top ?? 0, left: pos?.left ?? 0 };
};

/** A branch button's look; `minWidth` is the widest button's when the element equalizes them. */
export const branchButtonStyle = (element: BranchElement, branch: Branch, minWidth = 0): CSSProperties => {
  const settings = element.data.settings;
  const border = settings?.border?.enabled ? `${settings.border.size}px solid ${settings.border.color}` : undefined;
  if (branch.type === 'image') return { width: branch.image?.width ?? 100, height: branch.image?.height ?? 100, border };
  const s = branch.standard;
  const bg = s?.background;
  const shape = s?.shape ?? 'rectangle';
  const hollow = shape.startsWith('hollowed_');
  const baseColor = bg?.enabled === false || hollow ? 'transparent' : (bg?.color ?? '#2f27ce');
  const style: CSSProperties = {
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
  return style;
};

export const promptStyle = (element: BranchElement): CSSProperties => {
  const prompt = element.data.prompt;
  const bg = prompt?.background?.enabled
    ? { background: prompt.background.color, borderRadius: radius(prompt.background.edge), padding: paddingOf(prompt.background.padding) }
    : {};
  return { ...fontStyle(prompt?.fontFamily, prompt?.fontThickness, prompt?.fontSize ?? 2, prompt?.color), ...bg };
};

/** The layer over the whole video behind a branch element's buttons (colour or image), or null. */
export const overlayStyle = (element: BranchElement): CSSProperties | null => {
  const overlay = element.data.overlay;
  if (!overlay?.enabled) return null;
  if (overlay.type === 'image' && cssUrl(overlay.image?.source)) {
    return { backgroundImage: cssUrl(overlay.image.source), backgroundSize: 'cover', opacity: overlay.image.opacity ?? 1 };
  }
  return { background: withOpacity(overlay.color?.value ?? '#000000', overlay.color?.opacity ?? 1) };
};

/** The skip button: 90 px from the bottom and 100 px from the right unless placed. */
export const skipStyle = (element: FunnelElement): CSSProperties => {
  const s = element.data.settings?.showSkip;
  return {
    ...fontStyle(null, 'regular', s?.fontSize ?? 1, s?.color ?? '#ffffff'),
    background: s?.background?.color ?? '#000000',
    borderRadius: radius(s?.background?.edge ?? 'rounded'),
    padding: paddingOf(s?.background?.padding ?? { top: 4, bottom: 4 }),
    ...(s?.position ? { top: s.position.top, left: s.position.left } : { bottom: 90, right: 100 }),
  };
};
