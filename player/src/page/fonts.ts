import { fontStylesheetUrl } from '@branchify/shared';
import type { PlayerPayload } from '../runtime/types';

/**
 * The catalogue families the funnel's elements use, each once. Anything else (a document saved
 * before the catalogue existed) falls back to the page's own font: nothing is fetched for it.
 */
export const fontFamilies = (payload: PlayerPayload): string[] => {
  const families = new Set<string>();
  for (const video of payload.videos) {
    for (const e of video.elements) {
      if (e.type === 'text') families.add(e.data.fontFamily);
      else {
        families.add(e.data.prompt?.fontFamily);
        for (const b of e.data.branches) if (b.type !== 'image') families.add(b.standard?.font);
      }
    }
  }
  return [...families].filter((f) => fontStylesheetUrl(f) !== null);
};

/** Links our own stylesheet for each family in use: fonts come from this origin only. */
export const loadFonts = (payload: PlayerPayload, doc: Document = document): void => {
  for (const family of fontFamilies(payload)) {
    const href = fontStylesheetUrl(family)!;
    if (doc.head.querySelector(`link[rel="stylesheet"][href="${href}"]`)) continue;
    const link = doc.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    doc.head.appendChild(link);
  }
};
