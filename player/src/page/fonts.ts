import type { PlayerPayload } from '../runtime/types';

const SYSTEM = /^(system-ui|sans-serif|serif|monospace|arial|helvetica|times new roman|georgia|verdana)$/i;

/** The web fonts the funnel's elements use (the editor picks them from Google Fonts). */
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
  return [...families].filter((f): f is string => Boolean(f) && /^[A-Za-z0-9 ]{1,60}$/.test(f) && !SYSTEM.test(f));
};

export const loadFonts = (payload: PlayerPayload): void => {
  const families = fontFamilies(payload);
  if (!families.length) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = `https://fonts.googleapis.com/css2?${families.map((f) => `family=${encodeURIComponent(f).replace(/%20/g, '+')}:ital,wght@0,100..800;1,100..800`).join('&')}&display=swap`;
  document.head.appendChild(link);
};
