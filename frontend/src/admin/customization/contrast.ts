import { createTheme, getContrastRatio } from '@mui/material/styles';
import { HEX_COLOR } from '@branchify/shared';

/** WCAG 2.1 AA: normal text needs a contrast of at least 4.5:1 with its background. */
export const AA_NORMAL_TEXT = 4.5;

/** `#abc` → `#aabbcc`; anything that is not a hex colour → the fallback. */
export const normalizeHex = (value: string | undefined, fallback: string): string => {
  const v = (value ?? '').trim();
  if (!HEX_COLOR.test(v)) return fallback;
  return v.length === 4 ? `#${[...v.slice(1)].map((c) => c + c).join('')}`.toLowerCase() : v.toLowerCase();
};

/** The text colour the app's theme puts on a primary button (MUI picks it from the primary colour). */
export const textOnPrimary = (primary: string): string => createTheme({ palette: { primary: { main: primary } } }).palette.primary.contrastText;

export interface ContrastCheck {
  ratio: number;
  passes: boolean;
}

export const contrast = (foreground: string, background: string): ContrastCheck => {
  const ratio = getContrastRatio(foreground, background);
  return { ratio, passes: ratio >= AA_NORMAL_TEXT };
};

export const formatRatio = (ratio: number): string => `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
