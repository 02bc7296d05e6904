/**
 * Colours as the funnel document stores them: `#rrggbb` when opaque, `rgba(r, g, b, a)` when not.
 * What a creator may type: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(r, g, b)` or
 * `rgba(r, g, b, a)` (channels 0–255, alpha 0–1).
 */

/** Named under a typed colour that is none of these. */
export const COLOR_FORMAT_HINT = 'Use #rrggbb, #rrggbbaa or rgba(r, g, b, a)';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0..1, two decimals at most. */
  a: number;
}

const HEX = /^#?([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const RGB = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(\d*\.?\d+)\s*)?\)$/i;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The colour in `input`, or null when it is none of the forms above. */
export const parseColor = (input: string): Rgba | null => {
  const value = input.trim();
  const hex = HEX.exec(value);
  if (hex) {
    let digits = hex[1];
    if (digits.length <= 4) digits = [...digits].map((c) => c + c).join('');
    const n = (i: number) => parseInt(digits.slice(i, i + 2), 16);
    return { r: n(0), g: n(2), b: n(4), a: digits.length === 8 ? round2(n(6) / 255) : 1 };
  }
  const rgb = RGB.exec(value);
  if (rgb) {
    const [r, g, b] = [rgb[1], rgb[2], rgb[3]].map(Number) as [number, number, number];
    const a = rgb[4] === undefined ? 1 : Number(rgb[4]);
    if ([r, g, b].some((c) => c > 255) || !(a >= 0 && a <= 1)) return null;
    return { r, g, b, a: round2(a) };
  }
  return null;
};

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

/** The stored form: hex when opaque, rgba() otherwise. */
export const formatColor = ({ r, g, b, a }: Rgba): string => (a >= 1 ? `#${hex2(r)}${hex2(g)}${hex2(b)}` : `rgba(${r}, ${g}, ${b}, ${round2(a)})`);

/** The picker's form (react-colorful's RGBA string). */
export const rgbaString = ({ r, g, b, a }: Rgba): string => `rgba(${r}, ${g}, ${b}, ${a})`;
