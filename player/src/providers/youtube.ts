import { youtubeId, MESSAGES } from '@branchify/shared';
import { loadScript } from './script';
import type { PlayerVideo } from '../runtime/types';
import type { AdapterFactory, ProviderEvent, ProviderTextTrack } from './types';

/* Just the part of the IFrame API we use. */
interface YTPlayer {
  playVideo(): void;
  pauseVideo(): void;
  seekTo(seconds: number, allowSeekAhead: boolean): void;
  getCurrentTime(): number;
  getDuration(): number;
  getPlayerState(): number;
  setVolume(v: number): void;
  mute(): void;
  unMute(): void;
  getAvailablePlaybackRates(): number[];
  setPlaybackRate(r: number): void;
  /** The captions module: `getOption('captions', 'tracklist')`, `setOption('captions', 'track', { languageCode })`. */
  getOption?(module: string, option: string): unknown;
  setOption?(module: string, option: string, value: unknown): void;
  loadModule?(module: string): void;
  unloadModule?(module: string): void;
  destroy(): void;
}
interface YTNamespace {
  Player: new (el: HTMLElement, options: Record<string, unknown>) => YTPlayer;
}
declare global {
  interface Window {
    YT?: YTNamespace;
    onYouTubeIframeAPIReady?: () => void;
  }
}

let api: Promise<YTNamespace> | null = null;

/** The IFrame API, by script tag, only once a funnel uses YouTube. */
const loadYouTubeApi = (): Promise<YTNamespace> => {
  if (window.YT?.Player) return Promise.resolve(window.YT);
  api ??= new Promise<YTNamespace>((resolve, reject) => {
    const previous = window.onYouTubeIframeAPIReady;
    window.onYouTubeIframeAPIReady = () => {
      previous?.();
      if (window.YT) resolve(window.YT);
    };
    loadScript('https://www.youtube.com/iframe_api').catch((e: Error) => {
      api = null;
      reject(e);
    });
  });
  return api;
};

const PLAYING = 1;
const ENDED = 0;
const PAUSED = 2;
const BUFFERING = 3;

type Emit = (event: ProviderEvent) => void;

/** The player, once built, and what the adapter tracks of it. */
interface YouTubeState {
  player: YTPlayer | null;
  /** The time poll while playing (the IFrame API has no time event). */
  poll: ReturnType<typeof setInterval> | null;
  /** play() was asked for and the video has not played since. */
  framePending: boolean;
  isPaused: boolean;
}

/** The embed without YouTube's own controls, keyboard, fullscreen, related videos nor annotations. */
const playerVars = (startAt: number) => ({
  playsinline: 1,
  controls: 0,
  disablekb: 1,
  fs: 0,
  rel: 0,
  modestbranding: 1,
  iv_load_policy: 3,
  start: Math.floor(startAt),
  origin: location.origin,
});

/** Playing: the first frame once play() was asked for, and the time polled every 250 ms. */
const onPlaying = (state: YouTubeState, emit: Emit) => {
  state.isPaused = false;
  if (state.framePending) {
    state.framePending = false;
    emit({ type: 'firstframe' });
  }
  emit({ type: 'waiting', waiting: false });
  emit({ type: 'play' });
  state.poll ??= setInterval(() => state.player && emit({ type: 'time', time: state.player.getCurrentTime() }), 250);
};

/** Any other state: the poll stops; paused, ended or buffering say so. */
const onNotPlaying = (state: YouTubeState, playerState: number, emit: Emit) => {
  if (state.poll) clearInterval(state.poll);
  state.poll = null;
  if (playerState === PAUSED) {
    state.isPaused = true;
    emit({ type: 'pause' });
  } else if (playerState === ENDED) {
    state.isPaused = true;
    emit({ type: 'ended' });
  } else if (playerState === BUFFERING) emit({ type: 'waiting', waiting: true });
};

/** The caption tracks YouTube lists once its captions module is loaded ([] before). */
const youTubeTracks = (player: YTPlayer | null): ProviderTextTrack[] => {
  const list = player?.getOption?.('captions', 'tracklist');
  if (!Array.isArray(list)) return [];
  return list.flatMap((t: { languageCode?: unknown; displayName?: unknown }) =>
    typeof t?.languageCode === 'string' ? [{ language: t.languageCode, label: typeof t.displayName === 'string' ? t.displayName : t.languageCode }] : [],
  );
};

/** Builds the player in `mount` once the IFrame API is loaded: ready with it, or fails with the spec's message. */
const whenReady = (mount: HTMLElement, id: string | null, video: PlayerVideo, startAt: number, state: YouTubeState, emit: Emit): Promise<void> => {
  const ready = new Promise<void>((resolve, reject) => {
    const fail = (message: string) => {
      emit({ type: 'error', message });
      reject(new Error(message));
    };
    if (!id) return fail(MESSAGES.invalidVideo);
    loadYouTubeApi().then(
      (YT) => {
        state.player = new YT.Player(mount, {
          videoId: id,
          width: '100%',
          height: '100%',
          playerVars: playerVars(startAt),
          events: {
            onReady: () => {
              emit({ type: 'ready', duration: state.player?.getDuration() || video.duration });
              resolve();
            },
            onStateChange: (e: { data: number }) => (e.data === PLAYING ? onPlaying(state, emit) : onNotPlaying(state, e.data, emit)),
            // The captions module came (or went): its track list is what the viewer can choose from.
            onApiChange: () => {
              const tracks = youTubeTracks(state.player);
              if (tracks.length) emit({ type: 'texttracks', tracks });
            },
            onError: (e: { data: number }) => fail(e.data === 2 ? MESSAGES.invalidVideo : MESSAGES.playerLoadFailed),
          },
        });
      },
      () => fail(MESSAGES.playerLoadFailed),
    );
  });
  ready.catch(() => undefined);
  return ready;
};

export const createYouTube: AdapterFactory = (video, emit, options) => {
  const element = document.createElement('div');
  element.className = 'bf-media';
  const mount = document.createElement('div');
  element.appendChild(mount);
  const id = video.external_id ?? youtubeId(video.embed_url ?? '');
  const state: YouTubeState = { player: null, poll: null, framePending: false, isPaused: true };
  const ready = whenReady(mount, id, video, options.startAt ?? 0, state, emit);

  return {
    video,
    element,
    ready: () => ready,
    async play() {
      await ready;
      state.framePending = true;
      state.player?.playVideo();
    },
    pause: () => state.player?.pauseVideo(),
    seek(seconds) {
      state.player?.seekTo(seconds, true);
      emit({ type: 'time', time: seconds });
    },
    currentTime: () => state.player?.getCurrentTime() ?? options.startAt ?? 0,
    duration: () => state.player?.getDuration() || video.duration,
    paused: () => state.isPaused,
    setVolume: (v) => state.player?.setVolume(Math.round(v * 100)),
    setMuted: (m) => (m ? state.player?.mute() : state.player?.unMute()),
    rates: () => state.player?.getAvailablePlaybackRates() ?? [],
    setRate: (r) => state.player?.setPlaybackRate(r),
    setTextTrack(language) {
      const player = state.player;
      if (!player) return;
      if (language === null) player.unloadModule?.('captions');
      else {
        player.loadModule?.('captions');
        player.setOption?.('captions', 'track', { languageCode: language });
      }
    },
    destroy() {
      if (state.poll) clearInterval(state.poll);
      state.player?.destroy();
      element.remove();
    },
  };
};
