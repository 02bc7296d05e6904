/**
 * The fonts a funnel may use: open families served from our own origin (the player asks no
 * third-party server for anything). The player's build copies each family's latin and latin-ext
 * files out of its `package` and writes one stylesheet per family at `/build/fonts/{slug}.css`.
 */
export interface FontDefinition {
  /** The CSS font-family name, also what a funnel document stores. */
  family: string;
  /** The stylesheet's file name (`/build/fonts/{slug}.css`). */
  slug: string;
  /** The CSS weights the family has (a variable family covers every weight between the ends). */
  weights: readonly number[];
  /** Whether it has real italics (without them the browser slants the upright). */
  italic: boolean;
  /** The npm package the build takes the files from (@fontsource-variable/* where one exists). */
  package: string;
}

const ALL = [100, 200, 300, 400, 500, 600, 700, 800, 900] as const;

export const FONT_CATALOGUE = [
  { family: 'Abel', slug: 'abel', weights: [400], italic: false, package: '@fontsource/abel' },
  { family: 'Roboto', slug: 'roboto', weights: ALL, italic: true, package: '@fontsource-variable/roboto' },
  { family: 'Open Sans', slug: 'open-sans', weights: [300, 400, 500, 600, 700, 800], italic: true, package: '@fontsource-variable/open-sans' },
  { family: 'Lato', slug: 'lato', weights: [100, 300, 400, 700, 900], italic: true, package: '@fontsource/lato' },
  { family: 'Montserrat', slug: 'montserrat', weights: ALL, italic: true, package: '@fontsource-variable/montserrat' },
  { family: 'Poppins', slug: 'poppins', weights: ALL, italic: true, package: '@fontsource/poppins' },
  { family: 'Oswald', slug: 'oswald', weights: [200, 300, 400, 500, 600, 700], italic: false, package: '@fontsource-variable/oswald' },
  { family: 'Raleway', slug: 'raleway', weights: ALL, italic: true, package: '@fontsource-variable/raleway' },
  { family: 'Merriweather', slug: 'merriweather', weights: [300, 400, 500, 600, 700, 800, 900], italic: true, package: '@fontsource-variable/merriweather' },
  {
    family: 'Playfair Display',
    slug: 'playfair-display',
    weights: [400, 500, 600, 700, 800, 900],
    italic: true,
    package: '@fontsource-variable/playfair-display',
  },
  { family: 'Nunito', slug: 'nunito', weights: [200, 300, 400, 500, 600, 700, 800, 900], italic: true, package: '@fontsource-variable/nunito' },
  {
    family: 'Source Sans 3',
    slug: 'source-sans-3',
    weights: [200, 300, 400, 500, 600, 700, 800, 900],
    italic: true,
    package: '@fontsource-variable/source-sans-3',
  },
] as const satisfies readonly FontDefinition[];

export type FontFamilyName = (typeof FONT_CATALOGUE)[number]['family'];

/** The family names, in catalogue order (the schema's enum and the editor's select). */
export const FONT_FAMILIES = FONT_CATALOGUE.map((f) => f.family) as [FontFamilyName, ...FontFamilyName[]];

/** What a text, prompt or button uses when nothing was chosen. */
export const DEFAULT_FONT_FAMILY: FontFamilyName = 'Abel';

/** Where the built stylesheets are served. */
const FONT_STYLESHEET_BASE = '/build/fonts/';

const BY_FAMILY = new Map<string, FontDefinition>(FONT_CATALOGUE.map((f) => [f.family, f]));

/** The catalogue entry of a family, or null for a family outside the catalogue. */
export const fontDefinition = (family: string | null | undefined): FontDefinition | null => (family ? (BY_FAMILY.get(family) ?? null) : null);

/** Our own stylesheet for a family (`/build/fonts/{slug}.css`), or null for a family outside the catalogue. */
export const fontStylesheetUrl = (family: string | null | undefined): string | null => {
  const font = fontDefinition(family);
  return font ? `${FONT_STYLESHEET_BASE}${font.slug}.css` : null;
};
