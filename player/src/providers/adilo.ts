import type { AdapterFactory } from './types';

/**
 * Adilo's player is an iframe that reports by window messages: `loadedmetadata`
 * (width, height, title, thumbnail, duration) and `currentTime`. Commands are posted back the same
 * way. A failure closes the loader silently: no alert.
 */
export const createAdilo: AdapterFactory = (video, emit, options) => {
  const element = document.createElement('div');
  element.className = 'bf-media';
  const iframe = document.createElement('iframe');
  iframe.src = video.embed_url ?? '';
  iframe.allow = 'autoplay; fullscreen; picture-in-picture; encrypted-media';
  iframe.title = video.title;
  iframe.style.cssText = 'width:100%;height:100%;border:0';
  element.appendChild(iframe);
  let origin = '*';
  try {
    origin = new URL(iframe.src).origin;
  } catch {
    /* no embed URL: the ready promise below fails */
  }
  let time = options.startAt ?? 0;
  let total: number | null = video.duration;
  let isPaused = true;
  let framePending = false;
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

  const onMessage = (event: MessageEvent) => {
    if (event.source !== iframe.contentWindow) return;
    let data: unknown = event.data;
    if (typeof data === 'string') {
      try {
        data = JSON.parse(data);
      } catch {
        return;
      }
    }
    if (!data || typeof data !== 'object') return;
    const message = data as { event?: string; type?: string; name?: string; duration?: number; currentTime?: number; data?: Record<string, number> };
    const name = message.event ?? message.type ?? message.name;
    const detail = { ...(message.data ?? {}), ...message };
    if (name === 'loadedmetadata') {
      total = Number(detail.duration) || total;
      emit({ type: 'ready', duration: total });
      resolveReady();
    } else if (name === 'currentTime' || name === 'timeupdate') {
      const t = Number(detail.currentTime ?? (detail as { seconds?: number }).seconds);
      if (Number.isFinite(t)) {
        time = t;
        if (isPaused) emit({ type: 'play' });
        isPaused = false;
        emit({ type: 'time', time });
        if (framePending) {
          framePending = false;
          emit({ type: 'firstframe' });
        }
      }
    } else if (name === 'pause' || name === 'paused') {
      isPaused = true;
      emit({ type: 'pause' });
    } else if (name === 'ended') {
      isPaused = true;
      emit({ type: 'ended' });
    }
  };
  window.addEventListener('message', onMessage);
  const post = (method: string, value?: number | boolean) => iframe.contentWindow?.postMessage({ method, value }, origin);

  return {
    video,
    element,
    ready: () => ready,
    async play() {
      await ready;
      framePending = true;
      post('play');
    },
    pause() {
      post('pause');
      isPaused = true;
      emit({ type: 'pause' });
    },
    seek(seconds) {
      time = seconds;
      post('setCurrentTime', seconds);
      emit({ type: 'time', time });
    },
    currentTime: () => time,
    duration: () => total,
    paused: () => isPaused,
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
