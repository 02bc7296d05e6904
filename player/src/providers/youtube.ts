import { youtubeId, MESSAGES } from '@branchify/shared';
import { loadScript } from './script';
import type { AdapterFactory } from './types';

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

export const createYouTube: AdapterFactory = (video, emit, options) => {
  const element = document.createElement('div');
  element.className = 'bf-media';
  const mount = document.createElement('div');
  element.appendChild(mount);
  const id = video.external_id ?? youtubeId(video.embed_url ?? '');
  let player: YTPlayer | null = null;
  let poll: ReturnType<typeof setInterval> | null = null;
  let framePending = false;
  let isPaused = true;

  const ready = new Promise<void>((resolve, reject) => {
    if (!id) {
      emit({ type: 'error', message: MESSAGES.invalidVideo });
      return reject(new Error(MESSAGES.invalidVideo));
    }
    loadYouTubeApi().then(
      (YT) => {
        player = new YT.Player(mount, {
          videoId: id,
          width: '100%',
          height: '100%',
          playerVars: {
            playsinline: 1,
            controls: 0,
            disablekb: 1,
            fs: 0,
            rel: 0,
            modestbranding: 1,
            iv_load_policy: 3,
            start: Math.floor(options.startAt ?? 0),
            origin: location.origin,
          },
          events: {
            onReady: () => {
              emit({ type: 'ready', duration: player?.getDuration() || video.duration });
              resolve();
            },
            onStateChange: (e: { data: number }) => {
              if (e.data === PLAYING) {
                isPaused = false;
                if (framePending) {
                  framePending = false;
                  emit({ type: 'firstframe' });
                }
                emit({ type: 'waiting', waiting: false });
                emit({ type: 'play' });
                poll ??= setInterval(() => player && emit({ type: 'time', time: player.getCurrentTime() }), 250);
              } else {
                if (poll) clearInterval(poll);
                poll = null;
                if (e.data === PAUSED) {
                  isPaused = true;
                  emit({ type: 'pause' });
                } else if (e.data === ENDED) {
                  isPaused = true;
                  emit({ type: 'ended' });
                } else if (e.data === BUFFERING) emit({ type: 'waiting', waiting: true });
              }
            },
            onError: (e: { data: number }) => {
              const message = e.data === 2 ? MESSAGES.invalidVideo : MESSAGES.playerLoadFailed;
              emit({ type: 'error', message });
              reject(new Error(message));
            },
          },
        });
      },
      () => {
        emit({ type: 'error', message: MESSAGES.playerLoadFailed });
        reject(new Error(MESSAGES.playerLoadFailed));
      },
    );
  });
  ready.catch(() => undefined);

  return {
    video,
    element,
    ready: () => ready,
    async play() {
      await ready;
      framePending = true;
      player?.playVideo();
    },
    pause: () => player?.pauseVideo(),
    seek(seconds) {
      player?.seekTo(seconds, true);
      emit({ type: 'time', time: seconds });
    },
    currentTime: () => player?.getCurrentTime() ?? options.startAt ?? 0,
    duration: () => player?.getDuration() || video.duration,
    paused: () => isPaused,
    setVolume: (v) => player?.setVolume(Math.round(v * 100)),
    setMuted: (m) => (m ? player?.mute() : player?.unMute()),
    rates: () => player?.getAvailablePlaybackRates() ?? [],
    setRate: (r) => player?.setPlaybackRate(r),
    destroy() {
      if (poll) clearInterval(poll);
      player?.destroy();
      element.remove();
    },
  };
};
