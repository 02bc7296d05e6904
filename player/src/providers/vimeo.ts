import { vimeoId, MESSAGES } from '@branchify/shared';
import type { AdapterFactory } from './types';

type VimeoModule = typeof import('@vimeo/player');
let sdk: Promise<VimeoModule> | null = null;
/** @vimeo/player, by dynamic import, only once a funnel uses Vimeo. */
const loadVimeoSdk = (): Promise<VimeoModule> => (sdk ??= import('@vimeo/player').catch((e: Error) => ((sdk = null), Promise.reject(e))));

export const createVimeo: AdapterFactory = (video, emit, options) => {
  const element = document.createElement('div');
  element.className = 'bf-media';
  const parsed = vimeoId(video.embed_url ?? '') ?? (video.external_id ? vimeoId(video.external_id) : null);
  let player: InstanceType<VimeoModule['default']> | null = null;
  let time = options.startAt ?? 0;
  let total: number | null = video.duration;
  let isPaused = true;
  let framePending = false;

  const fail = (message: string) => {
    emit({ type: 'error', message });
    return Promise.reject(new Error(message));
  };

  const ready: Promise<void> = parsed
    ? loadVimeoSdk().then(
        async ({ default: Player }) => {
          const url = `https://player.vimeo.com/video/${parsed.id}${parsed.hash ? `?h=${parsed.hash}` : ''}` as `https://player.vimeo.com/video/${string}`;
          player = new Player(element, { url, controls: false, playsinline: true, autopause: false, dnt: true, responsive: false, width: 640 });
          player.on('timeupdate', (d: { seconds: number; duration: number }) => {
            time = d.seconds;
            total = d.duration || total;
            emit({ type: 'time', time });
            if (framePending && d.seconds > 0) {
              framePending = false;
              emit({ type: 'firstframe' });
            }
          });
          player.on('play', () => ((isPaused = false), emit({ type: 'play' })));
          player.on('pause', () => ((isPaused = true), emit({ type: 'pause' })));
          player.on('ended', () => ((isPaused = true), emit({ type: 'ended' })));
          player.on('bufferstart', () => emit({ type: 'waiting', waiting: true }));
          player.on('bufferend', () => emit({ type: 'waiting', waiting: false }));
          try {
            await player.ready();
            total = (await player.getDuration()) || total;
            if (options.startAt) await player.setCurrentTime(options.startAt);
          } catch {
            return fail(MESSAGES.vimeoLoadFailed);
          }
          emit({ type: 'ready', duration: total });
          // The video's own caption tracks, switched with enableTextTrack / disableTextTrack.
          const tracks = await player.getTextTracks().catch(() => []);
          if (tracks.length) emit({ type: 'texttracks', tracks: tracks.map((t) => ({ language: t.language, label: t.label || t.language })) });
        },
        () => fail(MESSAGES.playerLoadFailed),
      )
    : fail(MESSAGES.invalidVideo);
  ready.catch(() => undefined);

  return {
    video,
    element,
    ready: () => ready,
    async play() {
      await ready;
      framePending = true;
      await player?.play();
    },
    pause: () => void player?.pause().catch(() => undefined),
    seek(seconds) {
      time = seconds;
      void player?.setCurrentTime(seconds).catch(() => undefined);
      emit({ type: 'time', time: seconds });
    },
    currentTime: () => time,
    duration: () => total,
    paused: () => isPaused,
    setVolume: (v) => void player?.setVolume(v).catch(() => undefined),
    setMuted: (m) => void player?.setMuted(m).catch(() => undefined),
    rates: () => [],
    setRate: (r) => void player?.setPlaybackRate(r).catch(() => undefined),
    setTextTrack: (language) => void (language === null ? player?.disableTextTrack() : player?.enableTextTrack(language))?.catch(() => undefined),
    destroy() {
      void player?.destroy().catch(() => undefined);
      element.remove();
    },
  };
};
