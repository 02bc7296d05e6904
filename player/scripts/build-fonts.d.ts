/** Types of build-fonts.js (the player's post-build step), for the tests that drive it. */
export interface CatalogueFont {
  family: string;
  slug: string;
  weights: readonly number[];
  italic: boolean;
  package: string;
}

export interface WrittenFamily {
  family: string;
  slug: string;
  /** File name of the stylesheet inside the output folder. */
  stylesheet: string;
  /** Font files written under files/. */
  files: string[];
}

export function buildFonts(catalogue: readonly CatalogueFont[], outDir?: string): WrittenFamily[];
