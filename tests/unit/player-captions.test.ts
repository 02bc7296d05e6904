import { captionItems, CaptionChoice, CAPTIONS_STORAGE_KEY, selectedItem } from '../../player/src/captions/choice';
import { activeCues } from '../../player/src/captions/cues';

describe('the player’s caption choice', () => {
  const tracks = [
    { id: 1, language: 'en', label: 'English', url: '/api/captions/a' },
    { id: 2, language: 'fr-CA', label: 'Français', url: '/api/captions/b' },
  ];

  it('lists Off, the uploaded tracks, then the provider’s own in other languages', () => {
    const items = captionItems(
      tracks,
      [
        { language: 'en', label: 'English (auto)' },
        { language: 'de', label: 'Deutsch' },
      ],
      'Off',
    );
    expect(items.map((i) => [i.kind, i.label])).toEqual([
      ['off', 'Off'],
      ['file', 'English'],
      ['file', 'Français'],
      ['provider', 'Deutsch'],
    ]);
    expect(selectedItem(items, null).kind).toBe('off');
    expect(selectedItem(items, 'EN').label).toBe('English');
    expect(selectedItem(items, 'fr').label).toBe('Français');
    expect(selectedItem(items, 'de').kind).toBe('provider');
    expect(selectedItem(items, 'ja').kind).toBe('off');
  });

  it('remembers the language in this browser’s storage', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) } as unknown as Storage;
    const choice = new CaptionChoice(storage);
    expect(choice.get()).toBeNull();
    const heard: Array<string | null> = [];
    choice.subscribe(() => heard.push(choice.get()));
    choice.set('fr-CA');
    expect(store.get(CAPTIONS_STORAGE_KEY)).toBe('{"language":"fr-CA"}');
    expect(new CaptionChoice(storage).get()).toBe('fr-CA');
    choice.set(null);
    expect(new CaptionChoice(storage).get()).toBeNull();
    expect(heard).toEqual(['fr-CA', null]);
    store.set(CAPTIONS_STORAGE_KEY, 'not json');
    expect(new CaptionChoice(storage).get()).toBeNull();
  });

  it('finds the cues showing at a time', () => {
    const cues = [
      { start: 0, end: 2, text: 'a' },
      { start: 1, end: 3, text: 'b' },
      { start: 3, end: 4, text: 'c' },
    ];
    expect([0, 1.5, 3, 4].map((t) => activeCues(cues, t))).toEqual(['0', '0,1', '2', '']);
  });
});
