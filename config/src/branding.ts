/**
 * The app customization defaults (name, colours, sidebar width), shared by the
 * server (what GET /api/customizations fills in) and the web app (what it shows before that answer).
 */
export const DEFAULT_APP_NAME = 'branchify';

/** A colour as the colour scheme stores it: `#rgb` or `#rrggbb`. */
export const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** A variable name as CSS allows it (without the leading dashes, which are added). */
export const CSS_VARIABLE_NAME = /^(?:--)?[a-z][a-z0-9-]{0,48}$/i;
/** A colour scheme key as the CSS variable it sets (`primary` → `--primary`). */
export const cssVariableName = (key: string): string => (key.startsWith('--') ? key : `--${key}`).toLowerCase();

/** The colours that also get an `-rgb` variant (`--primary-rgb: 47, 39, 206`). */
export const RGB_COLORS = ['white', 'dark', 'background', 'primary', 'secondary', 'accent'] as const;

export const DEFAULT_COLOR_SCHEME: Readonly<Record<string, string>> = {
  '--white': '#ffffff',
  '--dark': '#050315',
  '--background': '#fbfbfe',
  '--primary': '#2f27ce',
  '--secondary': '#dedcff',
  '--accent': '#433bff',
  '--sidebar-width': '270px',
};
