import { PlaybackStore } from '../../player/src/runtime/playback';
import type { ProviderEvent } from '../../player/src/providers/types';
import type { PlayerVideo } from '../../player/src/runtime/types';

/**
 * YouTube's and Vimeo's own caption tracks: listed through their players' APIs and switched
 * through them. The providers' SDKs are stand-ins with the same calls (no network here).
 */

const video = (over: Partial<PlayerVideo>): PlayerVideo => ({
  editor_id: 'v',
  title: 'v',
  provider: 'youtube',
  external_id: null,
  embed_url: null,
  source_url: null,
  thumbnail: null,
  duration: 30,
  elements: [],
  ...over,
});

// The little of a page the adapters touch: an element to mount into, and the page's origin.
const element = () => ({ className: '', appendChild: () => undefined, remove: () => undefined });
Object.assign(globalThis, { document: { createElement: element }, location: { origin: 'http://localhost' } });

/** YouTube's IFrame API player, as far as the adapter uses it. */
class FakeYouTubePlayer {
  static last: FakeYouTubePlayer;
  calls: string[] = [];
  tracklist: Array<{ languageCode: string; displayName: string }> = [];
  constructor(
    _el: unknown,
    readonly options: { events: Record<string, (e?: unknown) => void> },
  ) {
    FakeYouTubePlayer.last = this;
    queueMicrotask(() => options.events.onReady!());
  }
  getDuration = () => 30;
  getCurrentTime = () => 0;
  getAvailablePlaybackRates = () => [1];
  setVolume = () => undefined;
  mute = () => undefined;
  unMute = () => undefined;
  getOption = (module: string, option: string) => (module === 'captions' && option === 'tracklist' ? this.tracklist : undefined);
  setOption = (module: string, option: string, value: unknown) => void this.calls.push(`setOption ${module} ${option} ${JSON.stringify(value)}`);
  loadModule = (module: string) => void this.calls.push(`loadModule ${module}`);
  unloadModule = (module: string) => void this.calls.push(`unloadModule ${module}`);
  destroy = () => undefined;
}

/** @vimeo/player's Player, as far as the adapter uses it. */
class FakeVimeoPlayer {
  static last: FakeVimeoPlayer;
  calls: string[] = [];
  constructor() {
    FakeVimeoPlayer.last = this;
  }
  on = () => undefined;
  ready = () => Promise.resolve();
  getDuration = () => Promise.resolve(30);
  setVolume = () => Promise.resolve(1);
  setMuted = () => Promise.resolve(false);
  setPlaybackRate = () => Promise.resolve(1);
  getTextTracks = () =>
    Promise.resolve([
      { language: 'en', kind: 'captions', label: 'English CC', mode: 'disabled' },
      { language: 'es', kind: 'subtitles', label: '', mode: 'disabled' },
    ]);
  enableTextTrack = (language: string) => (this.calls.push(`enableTextTrack ${language}`), Promise.resolve({}));
  disableTextTrack = () => (this.calls.push('disableTextTrack'), Promise.resolve());
  destroy = () => Promise.resolve();
}
jest.mock('@vimeo/player', () => ({ __esModule: true, default: FakeVimeoPlayer }));

/** An adapter fed to a playback store, as the player wires it. */
const attached = async (create: (v: PlayerVideo, emit: (e: ProviderEvent) => void, o: { active: boolean }) => { ready(): Promise<void> }, v: PlayerVideo) => {
  const store = new PlaybackStore({ frames: { request: () => 0, cancel: () => undefined } });
  const adapter = create(v, (e) => store.handle(e), { active: true }) as Parameters<PlaybackStore['attach']>[0];
  await adapter.ready();
  store.attach(adapter);
  return store;
};

describe('YouTube captions through the IFrame API', () => {
  beforeAll(() => {
    Object.assign(globalThis, { window: globalThis, YT: { Player: FakeYouTubePlayer } });
  });

  it('lists the tracks once the captions module is loaded, and switches with setOption / unloadModule', async () => {
    const { createYouTube } = await import('../../player/src/providers/youtube');
    const store = await attached(createYouTube, video({ external_id: 'dQw4w9WgXcQ', embed_url: 'https://www.youtube.com/embed/dQw4w9WgXcQ' }));
    const player = FakeYouTubePlayer.last;
    expect(store.getState().textTracks).toEqual([]);

    // No track list yet: nothing to offer.
    player.options.events.onApiChange!();
    expect(store.getState().textTracks).toEqual([]);
    player.tracklist = [
      { languageCode: 'en', displayName: 'English' },
      { languageCode: 'de', displayName: 'Deutsch' },
    ];
    player.options.events.onApiChange!();
    expect(store.getState().textTracks).toEqual([
      { language: 'en', label: 'English' },
      { language: 'de', label: 'Deutsch' },
    ]);

    store.setTextTrack('de');
    store.setTextTrack(null);
    expect(player.calls).toEqual(['loadModule captions', 'setOption captions track {"languageCode":"de"}', 'unloadModule captions']);
  });
});

describe('Vimeo captions through @vimeo/player', () => {
  it('lists the video’s text tracks when ready, and switches with enableTextTrack / disableTextTrack', async () => {
    const { createVimeo } = await import('../../player/src/providers/vimeo');
    const store = await attached(createVimeo, video({ provider: 'vimeo', external_id: '76979871', embed_url: 'https://player.vimeo.com/video/76979871' }));
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().textTracks).toEqual([
      { language: 'en', label: 'English CC' },
      { language: 'es', label: 'es' },
    ]);
    store.setTextTrack('es');
    store.setTextTrack(null);
    expect(FakeVimeoPlayer.last.calls).toEqual(['enableTextTrack es', 'disableTextTrack']);
  });
});
