import { CONTENT_LIMITS, MESSAGES } from '@branchify/shared';
import type { AdapterFactory } from './types';
import { RATES } from './types';

/**
 * A direct video URL in a `<video>`: inline on phones (playsinline, never the native fullscreen,
 * which would hide the overlays), a preview frame at 2 s until it plays, no native controls.
 */
export const createGeneric: AdapterFactory = (video, emit, options) => {
  const el = document.createElement('video');
  el.playsInline = true;
  el.setAttribute('playsinline', '');
  el.setAttribute('webkit-playsinline', '');
  el.setAttribute('disablepictureinpicture', '');
  el.setAttribute('disableremoteplayback', '');
  el.controls = false;
  el.preload = 'auto';
  el.className = 'bf-media';
  if (video.thumbnail) el.poster = video.thumbnail;
  let started = false;
  let previewing = false;
  let framePending = false;
  let startAt = options.startAt ?? 0;

  const ready = new Promise<void>((resolve, reject) => {
    el.addEventListener(
      'loadedmetadata',
      () => {
        emit({ type: 'ready', duration: Number.isFinite(el.duration) ? el.duration : null });
        if (startAt > 0) el.currentTime = startAt;
        else if (!started && !video.thumbnail && options.preview) {
          // The spec's preview frame at 2 s, until the viewer starts the video.
          previewing = true;
          el.currentTime = Math.min(CONTENT_LIMITS.genericPreviewSeconds, (el.duration || 4) / 2);
        }
        resolve();
      },
      { once: true },
    );
    el.addEventListener(
      'error',
      () => {
        emit({ type: 'error', message: MESSAGES.playerLoadFailed });
        reject(new Error(MESSAGES.playerLoadFailed));
      },
      { once: true },
    );
  });
  ready.catch(() => undefined);

  const watchFirstFrame = () => {
    if (framePending) return;
    framePending = true;
    const done = () => {
      if (!framePending) return;
      framePending = false;
      emit({ type: 'firstframe' });
    };
    const video = el as HTMLVideoElement & { requestVideoFrameCallback?: (cb: () => void) => number };
    if (video.requestVideoFrameCallback) video.requestVideoFrameCallback(done);
    el.addEventListener('playing', () => setTimeout(done, 50), { once: true });
  };

  el.addEventListener('timeupdate', () => {
    if (!previewing) emit({ type: 'time', time: el.currentTime });
  });
  el.addEventListener('play', () => emit({ type: 'play' }));
  el.addEventListener('pause', () => emit({ type: 'pause' }));
  el.addEventListener('ended', () => emit({ type: 'ended' }));
  el.addEventListener('waiting', () => emit({ type: 'waiting', waiting: true }));
  el.addEventListener('playing', () => emit({ type: 'waiting', waiting: false }));
  el.src = video.source_url ?? video.embed_url ?? '';
  if (!options.active) el.load();

  return {
    video,
    element: el,
    ready: () => ready,
    async play() {
      if (!started) {
        started = true;
        if (previewing) {
          previewing = false;
          el.currentTime = startAt;
        }
      }
      watchFirstFrame();
      await el.play();
    },
    pause: () => el.pause(),
    seek(seconds) {
      previewing = false;
      startAt = seconds;
      el.currentTime = Math.max(0, Math.min(seconds, Number.isFinite(el.duration) ? el.duration : seconds));
      emit({ type: 'time', time: el.currentTime });
    },
    currentTime: () => (previewing ? startAt : el.currentTime),
    duration: () => (Number.isFinite(el.duration) ? el.duration : video.duration),
    paused: () => el.paused,
    setVolume: (v) => void (el.volume = Math.max(0, Math.min(1, v))),
    setMuted: (m) => void (el.muted = m),
    rates: () => RATES,
    setRate: (r) => void (el.playbackRate = r),
    destroy() {
      el.pause();
      el.removeAttribute('src');
      el.load();
      el.remove();
    },
  };
};
