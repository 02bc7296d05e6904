import type { PlayerVideo } from '../runtime/types';
import type { AdapterFactory, ProviderEvent } from './types';

type Emit = (event: ProviderEvent) => void;

/** What the adapter knows of the video, kept up to date from the frame's messages. */
interface AdiloState {
  time: number;
  total: number | null;
  isPaused: boolean;
  /** play() was asked for and its first time update has not come yet. */
  framePending: boolean;
}

/** One message from the frame: its event name and its fields (those under `data` included). */
interface AdiloMessage {
  name: string | undefined;
  detail: { duration?: number; currentTime?: number; seconds?: number };
}

/** The frame that shows the Adilo video, filling its parent. */
const adiloFrame = (video: PlayerVideo): HTMLIFrameElement => {
  const iframe = document.createElement('iframe');
  iframe.src = video.embed_url ?? '';
  iframe.allow = 'autoplay; fullscreen; picture-in-picture; encrypted-media';
  iframe.title = video.title;
  iframe.style.cssText = 'width:100%;height:100%;border:0';
  return iframe;
};

/** The origin commands are posted to: the frame's ('*' without an embed URL). */
const originOf = (src: string): string => {
  try {
    return new URL(src).origin;
  } catch {
    return '*'; // no embed URL: the ready promise fails
  }
};

/** A message's data, parsed (a JSON string too); null when it is not an object. */
const readMessage = (raw: unknown): AdiloMessage | null => {
  let data = raw;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (!data || typeof data !== 'object') return null;
  const message = data as { event?: string; type?: string; name?: string; duration?: number; currentTime?: number; data?: Record<string, number> };
  return { name: message.event ?? message.type ?? message.name, detail: { ...(message.data ?? {}), ...message } };
};

/** A time update: playing from here on, and the first frame once play() was asked for. */
const applyTime = (state: AdiloState, detail: AdiloMessage['detail'], emit: Emit) => {
  const t = Number(detail.currentTime ?? detail.seconds);
  if (!Number.isFinite(t)) return;
  state.time = t;
  if (state.isPaused) emit({ type: 'play' });
  state.isPaused = false;
  emit({ type: 'time', time: state.time });
  if (state.framePending) {
    state.framePending = false;
    emit({ type: 'firstframe' });
  }
};

/** Applies one message to the state and emits what it means; true when it brings the metadata. */
const applyMessage = (state: AdiloState, { name, detail }: AdiloMessage, emit: Emit): boolean => {
  if (name === 'loadedmetadata') {
    state.total = Number(detail.duration) || state.total;
    emit({ type: 'ready', duration: state.total });
    return true;
  }
  if (name === 'currentTime' || name === 'timeupdate') applyTime(state, detail, emit);
  else if (name === 'pause' || name === 'paused') {
    state.isPaused = true;
    emit({ type: 'pause' });
  } else if (name === 'ended') {
    state.isPaused = true;
    emit({ type: 'ended' });
  }
  return false;
};

/** Ready once the metadata comes (or after 8 s: some embeds never report it); fails with the frame. */
const whenReady = (iframe: HTMLIFrameElement, emit: Emit) => {
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    iframe.addEventListener('error', () => {
      emit({ type: 'error', message: null });
      reject(new Error('adilo'));
    });
    setTimeout(resolve, 8000); // Some embeds never report metadata; play anyway.
  });
  ready.catch(() => undefined);
  return { ready, resolveReady };
};

/**
 * Adilo's player is an iframe that reports by window messages: `loadedmetadata`
 * (width, height, title, thumbnail, duration) and `currentTime`. Commands are posted back the same
 * way. A failure closes the loader silently: no alert.
 */
export const createAdilo: AdapterFactory = (video, emit, options) => {
  const element = document.createElement('div');
  element.className = 'bf-media';
  const iframe = adiloFrame(video);
  element.appendChild(iframe);
  const origin = originOf(iframe.src);
  const state: AdiloState = { time: options.startAt ?? 0, total: video.duration, isPaused: true, framePending: false };
  const { ready, resolveReady } = whenReady(iframe, emit);

  const onMessage = (event: MessageEvent) => {
    if (event.source !== iframe.contentWindow) return;
    const message = readMessage(event.data);
    if (message && applyMessage(state, message, emit)) resolveReady();
  };
  window.addEventListener('message', onMessage);
  const post = (method: string, value?: number | boolean) => iframe.contentWindow?.postMessage({ method, value }, origin);

  return {
    video,
    element,
    ready: () => ready,
    async play() {
      await ready;
      state.framePending = true;
      post('play');
    },
    pause() {
      post('pause');
      state.isPaused = true;
      emit({ type: 'pause' });
    },
    seek(seconds) {
      state.time = seconds;
      post('setCurrentTime', seconds);
      emit({ type: 'time', time: state.time });
    },
    currentTime: () => state.time,
    duration: () => state.total,
    paused: () => state.isPaused,
    setVolume: (v) => post('setVolume', v),
    setMuted: (m) => post('setMuted', m),
    rates: () => [],
    setRate: () => undefined,
    destroy() {
      window.removeEventListener('message', onMessage);
      element.remove();
    },
  };
};
