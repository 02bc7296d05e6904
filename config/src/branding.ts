/**
 * The app customization defaults (name, colours, sidebar width), shared by the
 * server (what GET /api/customizations fills in) and the web app (what it shows before that answer).
 */
export const DEFAULT_APP_NAME = 'branchify';

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
