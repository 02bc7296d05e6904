import { CSS_VARIABLE_NAME, DEFAULT_COLOR_SCHEME, HEX_COLOR, RGB_COLORS, cssVariableName } from '@branchify/shared';

/*
 * The app's colour scheme: a map of CSS variables. The six
 * base colours also get an `-rgb` variant (`--primary-rgb: 47, 39, 206`) so styles can write
 * `rgba(var(--primary-rgb), 0.5)`. Variants are always derived, never stored or accepted.
 */

/** `#abc` or `#aabbcc` → `r, g, b`. */
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
      if (typeof value !== 'string' || !CSS_VARIABLE_NAME.test(key) || key.endsWith('-rgb')) continue;
      scheme[cssVariableName(key)] = value;
    }
  }
  for (const name of RGB_COLORS) {
    const value = scheme[`--${name}`];
    if (value && HEX_COLOR.test(value)) scheme[`--${name}-rgb`] = hexToRgb(value);
  }
  return scheme;
};
