import { FONT_FAMILIES, fontStylesheetUrl, type FontFamilyName } from '@branchify/shared';

/** The fonts an element can use (the shared catalogue, served from our origin), as select options. */
export const FONT_OPTIONS: ReadonlyArray<{ value: FontFamilyName; label: string }> = FONT_FAMILIES.map((family) => ({ value: family, label: family }));

const loaded = new Set<string>();

/** Adds a family's stylesheet to the page once (nothing for a family outside the catalogue). */
export const loadFont = (family: string): void => {
  const href = fontStylesheetUrl(family);
  if (!href || loaded.has(href)) return;
  loaded.add(href);
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  document.head.appendChild(link);
};

/** Every family a funnel's elements use, loaded (the editor's preview draws them as the player does). */
export const loadFontsOf = (videos: ReadonlyArray<{ elements: ReadonlyArray<{ type: string; data: unknown }> }>): void => {
  for (const video of videos) {
    for (const e of video.elements) {
      const data = e.data as { fontFamily?: string; prompt?: { fontFamily?: string }; branches?: Array<{ standard?: { font?: string } }> };
      if (data.fontFamily) loadFont(data.fontFamily);
      if (data.prompt?.fontFamily) loadFont(data.prompt.fontFamily);
      for (const b of data.branches ?? []) if (b.standard?.font) loadFont(b.standard.font);
    }
  }
};
