import type { CSSProperties } from 'react';
import { CORNER_STYLES, FONT_WEIGHTS, clockTime } from '@branchify/shared';

type Corner = keyof typeof CORNER_STYLES;

export const radius = (edge: string | null | undefined): string => CORNER_STYLES[(edge as Corner) ?? 'square'] ?? '0px';

/** 'bold-italic' → weight 700, italic. */
export const fontStyle = (
  family: string | null | undefined,
  thickness: string | null | undefined,
  sizeRem: number | null | undefined,
  color: string | null | undefined,
): CSSProperties => {
  const [name, italic] = (thickness ?? 'regular').endsWith('-italic') ? [thickness!.slice(0, -'-italic'.length), true] : [thickness ?? 'regular', false];
  return {
    fontFamily: family ? `${JSON.stringify(family)}, system-ui, sans-serif` : undefined,
    fontWeight: FONT_WEIGHTS[name as keyof typeof FONT_WEIGHTS] ?? 400,
    fontStyle: italic ? 'italic' : 'normal',
    fontSize: `${sizeRem ?? 1}rem`,
    color: color ?? '#ffffff',
  };
};

export const paddingOf = (p: { top?: number; right?: number; bottom?: number; left?: number } | null | undefined): string =>
  `${p?.top ?? 0}px ${p?.right ?? 16}px ${p?.bottom ?? 0}px ${p?.left ?? 16}px`;

/** A colour with an opacity (0..1) applied: #rgb/#rrggbb get an alpha byte; others use color-mix. */
export const withOpacity = (color: string, opacity: number): string => {
  const o = Math.max(0, Math.min(1, opacity));
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color);
  if (hex) {
    const full =
      hex[1]!.length === 3
        ? hex[1]!
            .split('')
            .map((c) => c + c)
            .join('')
        : hex[1]!;
    return `#${full}${Math.round(o * 255)
      .toString(16)
      .padStart(2, '0')}`;
  }
  return `color-mix(in srgb, ${color} ${Math.round(o * 100)}%, transparent)`;
};

export const gradientOf = (from: string, to: string, direction: string): string => {
  if (direction === 'outer-radial') return `radial-gradient(circle, ${from}, ${to})`;
  if (direction === 'inner-radial') return `radial-gradient(circle, ${to}, ${from})`;
  return `linear-gradient(${direction}, ${from}, ${to})`;
};

/** Only our uploads and https images reach CSS url(); quotes and parentheses escaped. */
export const cssUrl = (src: string | null | undefined): string | undefined => {
  if (!src || !(/^\/uploads\//.test(src) || /^https:\/\//.test(src))) return undefined;
  return `url("${src.replace(/["\\\n\r]/g, encodeURIComponent)}")`;
};

/** The playing time in clock style; 0:00 before it is known. */
export const formatTime = (seconds: number | null | undefined): string => clockTime(seconds ?? 0);
