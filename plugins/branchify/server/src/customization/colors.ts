import { DEFAULT_COLOR_SCHEME, RGB_COLORS } from '@branchify/shared';
/**
 * The app's colour scheme: a map of CSS variables. The six
 * base colours also get an `-rgb` variant (`--primary-rgb: 47, 39, 206`) so styles can write
 * `rgba(var(--primary-rgb), 0.5)`. Variants are always derived, never stored or accepted.
 */
export { DEFAULT_COLOR_SCHEME, RGB_COLORS };

export const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** A variable name as CSS allows it (without the leading dashes, which are added). */
export const VARIABLE_NAME = /^(?:--)?[a-z][a-z0-9-]{0,48}$/i;
/** A CSS value that cannot close the declaration or the style block it is written into. */
export const SAFE_CSS_VALUE = /^[^;{}<>\\"'`]{1,100}$/;

export const variableName = (key: string): string => (key.startsWith('--') ? key : `--${key}`).toLowerCase();

export const hexToRgb = (hex: string): string => {
  let h = hex.replace('#', '');
  if (h.length === 3)
    h = h
      .split('')
      .map((c) => c + c)
      .join('');
  const n = parseInt(h, 16);
  return `${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}`;
};

/** Defaults, then the stored values, then the derived `-rgb` variants. */
export const effectiveColorScheme = (stored: unknown): Record<string, string> => {
  const scheme: Record<string, string> = { ...DEFAULT_COLOR_SCHEME };
  if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
    for (const [key, value] of Object.entries(stored as Record<string, unknown>)) {
      if (typeof value !== 'string' || !VARIABLE_NAME.test(key) || key.endsWith('-rgb')) continue;
      scheme[variableName(key)] = value;
    }
  }
  for (const name of RGB_COLORS) {
    const value = scheme[`--${name}`];
    if (value && HEX_COLOR.test(value)) scheme[`--${name}-rgb`] = hexToRgb(value);
  }
  return scheme;
};
