import { CONTENT_LIMITS, MESSAGES } from '@branchify/shared';
import type { PlayerVideo } from '../runtime/types';
import type { AdapterFactory, ProviderEvent } from './types';
import { RATES } from './types';

type Emit = (event: ProviderEvent) => void;

/** Where the adapter is: started by the viewer, showing the preview frame, and where to start. */
interface GenericState {
  started: boolean;
  previewing: boolean;
  startAt: number;
}

/**
 * The first video's element when the /player page's HTML carries it (already loading, see
 * player-page/index.ts on the server), taken once.
 */
const adoptFirstVideo = (video: PlayerVideo): HTMLVideoElement | null => {
  const el = document.getElementById('branchify-first-video');
  if (!(el instanceof HTMLVideoElement) || el.dataset.editorId !== video.editor_id) return null;
  el.removeAttribute('id');
  el.hidden = false;
  return el;
};

/** The `<video>`: inline on phones, no native controls, fullscreen, picture-in-picture nor casting. */
const videoElement = (video: PlayerVideo): HTMLVideoElement => {
  const el = adoptFirstVideo(video) ?? document.createElement('video');
  el.playsInline = true;
  el.setAttribute('playsinline', '');
  el.setAttribute('webkit-playsinline', '');
  el.setAttribute('disablepictureinpicture', '');
  el.setAttribute('disableremoteplayback', '');
  el.controls = false;
  el.preload = 'auto';
  el.className = 'bf-media';
  if (video.thumbnail) el.poster = video.thumbnail;
  return el;
};

/**
 * Ready with the metadata: at the start time, or (not started, no thumbnail, preview asked for) on
 * the preview frame. Fails with the media.
 */
const whenReady = (el: HTMLVideoElement, video: PlayerVideo, preview: boolean | undefined, state: GenericState, emit: Emit): Promise<void> => {
  const ready = new Promise<void>((resolve, reject) => {
    const failed = () => {
      emit({ type: 'error', message: MESSAGES.playerLoadFailed });
      reject(new Error(MESSAGES.playerLoadFailed));
    };
    const loaded = () => {
      emit({ type: 'ready', duration: Number.isFinite(el.duration) ? el.duration : null });
      if (state.startAt > 0) el.currentTime = state.startAt;
      else if (!state.started && !video.thumbnail && preview) {
        // The spec's preview frame at 2 s, until the viewer starts the video.
        state.previewing = true;
        el.currentTime = Math.min(CONTENT_LIMITS.genericPreviewSeconds, (el.duration || 4) / 2);
      }
      resolve();
    };
    // An adopted element may have its metadata, or have failed, already (answered once the
    // adapter exists).
    if (el.error) queueMicrotask(failed);
    else if (el.readyState >= HTMLMediaElement.HAVE_METADATA) queueMicrotask(loaded);
    else {
      el.addEventListener('loadedmetadata', loaded, { once: true });
      el.addEventListener('error', failed, { once: true });
    }
  });
  ready.catch(() => undefined);
  return ready;
};

/** Returns a watch(): `firstframe` once the next frame is drawn (one watch at a time). */
const firstFrameWatcher = (el: HTMLVideoElement, emit: Emit) => {
  let framePending = false;
  return () => {
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
};

/** The media's events as provider events (no time updates while on the preview frame). */
const forwardEvents = (el: HTMLVideoElement, state: GenericState, emit: Emit) => {
  el.addEventListener('timeupdate', () => {
    if (!state.previewing) emit({ type: 'time', time: el.currentTime });
  });
  el.addEventListener('play', () => emit({ type: 'play' }));
  el.addEventListener('pause', () => emit({ type: 'pause' }));
  el.addEventListener('ended', () => emit({ type: 'ended' }));
  el.addEventListener('waiting', () => emit({ type: 'waiting', waiting: true }));
  el.addEventListener('playing', () => emit({ type: 'waiting', waiting: false }));
};

/**
 * A direct video URL in a `<video>`: inline on phones (playsinline, never the native fullscreen,
 * which would hide the overlays), a preview frame at 2 s until it plays, no native controls.
 */
export const createGeneric: AdapterFactory = (video, emit, options) => {
  const el = videoElement(video);
  const state: GenericState = { started: false, previewing: false, startAt: options.startAt ?? 0 };
  const ready = whenReady(el, video, options.preview, state, emit);
  const watchFirstFrame = firstFrameWatcher(el, emit);
  forwardEvents(el, state, emit);
  const src = video.source_url ?? video.embed_url ?? '';
  // An adopted element is loading this source already: setting it again would start over.
  if (el.getAttribute('src') !== src) {
    el.src = src;
    if (!options.active) el.load();
  }

  return {
    video,
    element: el,
    ready: () => ready,
    async play() {
      if (!state.started) {
        state.started = true;
        if (state.previewing) {
          state.previewing = false;
          el.currentTime = state.startAt;
        }
      }
      watchFirstFrame();
      await el.play();
    },
    pause: () => el.pause(),
    seek(seconds) {
      state.previewing = false;
      state.startAt = seconds;
      el.currentTime = Math.max(0, Math.min(seconds, Number.isFinite(el.duration) ? el.duration : seconds));
      emit({ type: 'time', time: el.currentTime });
    },
    currentTime: () => (state.previewing ? state.startAt : el.currentTime),
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
