import type { PlayerCaptionTrack } from '../runtime/types';
import type { ProviderTextTrack } from '../providers/types';

/** Where the viewer's caption language is kept (this browser's, for every funnel). */
export const CAPTIONS_STORAGE_KEY = 'branchify:captions';

/** One entry of the captions menu: off, a track the creator uploaded, or one of the provider's own. */
export type CaptionItem =
  | { kind: 'off'; key: 'off'; language: null; label: string }
  | { kind: 'file'; key: string; language: string; label: string; track: PlayerCaptionTrack }
  | { kind: 'provider'; key: string; language: string; label: string };

const storage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

/**
 * The viewer's caption choice: a language, or off (null, the default). Remembered in
 * localStorage, so the next video, the next visit and the next funnel start with it.
 */
export class CaptionChoice {
  private language: string | null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly store: Storage | null = storage()) {
    this.language = null;
    try {
      const saved = JSON.parse(this.store?.getItem(CAPTIONS_STORAGE_KEY) ?? 'null') as { language?: unknown } | null;
      if (typeof saved?.language === 'string') this.language = saved.language;
    } catch {
      // Unreadable: captions stay off.
    }
  }

  get = (): string | null => this.language;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(language: string | null): void {
    this.language = language;
    try {
      this.store?.setItem(CAPTIONS_STORAGE_KEY, JSON.stringify({ language }));
    } catch {
      // Private mode or full: the choice holds for this page only.
    }
    for (const listener of [...this.listeners]) listener();
  }
}

/** Off, then the uploaded tracks, then the provider's own in a language no upload has. */
export const captionItems = (tracks: readonly PlayerCaptionTrack[], providerTracks: readonly ProviderTextTrack[], offLabel: string): CaptionItem[] => [
  { kind: 'off', key: 'off', language: null, label: offLabel },
  ...tracks.map((track): CaptionItem => ({ kind: 'file', key: `file:${track.id}`, language: track.language, label: track.label, track })),
  ...providerTracks
    .filter((p) => !tracks.some((t) => t.language === p.language))
    .map((p): CaptionItem => ({ kind: 'provider', key: `provider:${p.language}`, language: p.language, label: p.label })),
];

const primary = (tag: string) => tag.split('-')[0]!.toLowerCase();

/** The item the remembered language selects: the same tag, else the same language (fr for fr-CA); off otherwise. */
export const selectedItem = (items: readonly CaptionItem[], language: string | null): CaptionItem => {
  const off = items[0]!;
  if (!language) return off;
  return (
    items.find((i) => i.language?.toLowerCase() === language.toLowerCase()) ?? items.find((i) => i.language && primary(i.language) === primary(language)) ?? off
  );
};
