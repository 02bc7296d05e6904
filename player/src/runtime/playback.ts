import type { ProviderAdapter, ProviderEvent, ProviderTextTrack } from '../providers/types';

/** What a view shows of one video's playback. */
export interface PlaybackState {
  /** Seconds. */
  time: number;
  duration: number | null;
  playing: boolean;
  /** Played at least once (the big play button is gone). */
  started: boolean;
  muted: boolean;
  /** 0..1 */
  volume: number;
  rate: number;
  /** Rates the provider can change to ([] when it cannot). */
  rates: number[];
  fullscreen: boolean;
  /** Loading the provider, or buffering after it was ready. */
  loading: boolean;
  /** The spec message to show instead of the video (null: none, or a silent failure). */
  error: string | null;
  /** Caption tracks of the provider's own player (YouTube, Vimeo); [] for the others. */
  textTracks: ProviderTextTrack[];
}

/** The store's clock: frames to follow the current time on while playing (requestAnimationFrame in a browser, fake in tests). */
export interface FrameScheduler {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

/** What goes fullscreen (the player's container in a browser); the store asks, the screen answers with `fullscreenChanged`. */
export interface FullscreenTarget {
  enter(): void;
  exit(): void;
}

export interface PlaybackOptions {
  frames?: FrameScheduler;
  /** Seconds to start at (a resume point). */
  time?: number;
}

const browserFrames: FrameScheduler = {
  request: (callback) => requestAnimationFrame(() => callback()),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/** One empty list, so a reset that finds none changes nothing. */
const NO_TRACKS: ProviderTextTrack[] = [];

const INITIAL: PlaybackState = {
  time: 0,
  duration: null,
  playing: false,
  started: false,
  muted: false,
  volume: 1,
  rate: 1,
  rates: [],
  fullscreen: false,
  loading: true,
  error: null,
  textTracks: NO_TRACKS,
};

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * One player's playback, framework-free (what FunnelRuntime is for the funnel's logic): current
 * time, duration, playing, volume and mute, rate, fullscreen, loading/buffering and the provider's
 * error. Every request goes through it and it drives the provider adapter; the adapter's events
 * come back through `handle`. State only changes in `set`, which notifies each listener once per
 * change; requests never change state the provider has not confirmed (playing comes from the
 * adapter's play/pause events, fullscreen from the screen).
 *
 * Who feeds it: the adapter's owner (the single-video loader, or the funnel's Stage) calls `reset`
 * or `next` when a video starts loading, `attach` once its adapter is ready, `handle` with its
 * events, and `fail` when it cannot load. React views read it with `usePlayback(store, selector)`.
 *
 * For a timeline (the editor's): `seek(t)` and `seekBy(±s)` (clamped to [0, duration]), `play()`,
 * `pause()`, `toggle()`; follow the playhead with `subscribe` + `getState().time` (updated frame by
 * frame while playing, and on every seek), and `onSeek` to hear where each seek went.
 */
export class PlaybackStore {
  private state: PlaybackState;
  private readonly frames: FrameScheduler;
  private readonly listeners = new Set<() => void>();
  private readonly seekListeners = new Set<(time: number) => void>();
  private adapter: ProviderAdapter | null = null;
  private screen: FullscreenTarget | null = null;
  private frame: number | null = null;
  /** A seek asked for before the adapter was ready (or where the next video starts). */
  private pendingSeek: number | null = null;
  /** 'play' events seen: tells a failed play() that was refused from one that was interrupted. */
  private plays = 0;
  private destroyed = false;

  constructor(options: PlaybackOptions = {}) {
    this.frames = options.frames ?? browserFrames;
    this.state = { ...INITIAL, time: options.time ?? 0 };
  }

  getState = (): PlaybackState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Hears every seek, with the time it went to (after clamping). */
  onSeek(listener: (time: number) => void): () => void {
    this.seekListeners.add(listener);
    return () => this.seekListeners.delete(listener);
  }

  // --- the adapter's owner ---------------------------------------------------------------------

  /** A new video starts loading (at `time`, e.g. a resume point): the big play button comes back. */
  reset(time = 0): void {
    this.detach();
    this.pendingSeek = null;
    this.set({ time, duration: null, playing: false, started: false, rates: [], loading: true, error: null, textTracks: NO_TRACKS });
  }

  /**
   * The funnel moves on to its next video: the loader shows, the controls stay as they were (no
   * flicker between videos), and the new adapter is taken to `time` once attached.
   */
  next(time = 0): void {
    this.detach();
    this.pendingSeek = time > 0 ? time : null;
    this.set({ time, duration: null, rates: [], loading: true, error: null, textTracks: NO_TRACKS });
  }

  /** The adapter is ready: it gets the chosen volume, mute and rate, and a seek asked for meanwhile. */
  attach(adapter: ProviderAdapter): void {
    if (this.destroyed) return;
    this.stopFollowing();
    this.adapter = adapter;
    adapter.setVolume(this.state.volume);
    adapter.setMuted(this.state.muted);
    if (this.state.rate !== 1) adapter.setRate(this.state.rate);
    const duration = adapter.duration();
    const seek = this.pendingSeek === null ? null : clamp(this.pendingSeek, 0, duration ?? Number.POSITIVE_INFINITY);
    this.pendingSeek = null;
    if (seek !== null) adapter.seek(seek);
    this.set({ loading: false, duration, rates: adapter.rates(), error: null, ...(seek !== null ? { time: seek } : {}) });
  }

  /** Forgets the adapter (its owner destroys it): requests wait for the next one. */
  detach(): void {
    this.stopFollowing();
    this.adapter = null;
  }

  /** The provider's events. */
  handle(event: ProviderEvent): void {
    if (this.destroyed) return;
    switch (event.type) {
      case 'ready':
        if (event.duration) this.set({ duration: event.duration });
        return;
      case 'time':
        this.set({ time: event.time });
        return;
      case 'play':
        this.plays += 1;
        this.set({ playing: true, started: true });
        this.follow();
        return;
      case 'pause':
      case 'ended':
        this.stopFollowing();
        this.set({ playing: false });
        return;
      case 'waiting':
        if (this.adapter) this.set({ loading: event.waiting });
        return;
      case 'firstframe':
        if (this.adapter) this.set({ loading: false });
        return;
      case 'texttracks':
        this.set({ textTracks: event.tracks });
        return;
      case 'error':
        this.fail(event.message);
    }
  }

  /** The video cannot play: the loader closes and the message (if any) shows instead. */
  fail(message: string | null): void {
    if (this.destroyed) return;
    this.stopFollowing();
    this.set({ loading: false, playing: false, error: message ?? this.state.error });
  }

  /** The screen entered or left fullscreen (for whatever reason: our request, Esc, the browser). */
  fullscreenChanged(fullscreen: boolean): void {
    if (!this.destroyed) this.set({ fullscreen });
  }

  /** What enterFullscreen/exitFullscreen ask (the view's container); returns the disconnect. */
  connectScreen(target: FullscreenTarget): () => void {
    this.screen = target;
    return () => {
      if (this.screen === target) this.screen = null;
    };
  }

  // --- requests (controls, keys, the funnel, a timeline) ---------------------------------------

  /** Plays; a play that fails before the video ever started (autoplay refused) brings the play button back. */
  async play(): Promise<void> {
    const adapter = this.adapter;
    if (!adapter || this.destroyed) return;
    const wasStarted = this.state.started;
    const plays = this.plays;
    this.set({ started: true });
    try {
      await adapter.play();
    } catch {
      if (this.adapter === adapter && this.plays === plays) this.set({ started: wasStarted, playing: false });
    }
  }

  pause(): void {
    if (!this.destroyed) this.adapter?.pause();
  }

  toggle(): void {
    if (!this.adapter || this.destroyed) return;
    if (this.adapter.paused()) void this.play();
    else this.pause();
  }

  /** Seeks to `seconds`, clamped to [0, duration]; before the adapter is ready, when it is. */
  seek(seconds: number): void {
    if (!Number.isFinite(seconds) || this.destroyed) return;
    const target = clamp(seconds, 0, this.state.duration ?? Number.POSITIVE_INFINITY);
    if (this.adapter) this.adapter.seek(target);
    else this.pendingSeek = target;
    this.set({ time: target });
    for (const listener of [...this.seekListeners]) listener(target);
  }

  /** Seeks by `delta` seconds from where the video is (the keyboard's ±10 s step). */
  seekBy(delta: number): void {
    this.seek(this.state.time + delta);
  }

  /** A new volume (clamped to 0..1) also unmutes, as every player does when the slider moves. */
  setVolume(volume: number): void {
    if (this.destroyed) return;
    const v = clamp(volume, 0, 1);
    this.adapter?.setVolume(v);
    this.adapter?.setMuted(false);
    this.set({ volume: v, muted: false });
  }

  setMuted(muted: boolean): void {
    if (this.destroyed) return;
    this.adapter?.setMuted(muted);
    this.set({ muted });
  }

  toggleMuted(): void {
    this.setMuted(!this.state.muted);
  }

  setRate(rate: number): void {
    if (this.destroyed) return;
    this.adapter?.setRate(rate);
    this.set({ rate });
  }

  /** The provider's own captions in `language`, or off (null); nothing for a provider without its own. */
  setTextTrack(language: string | null): void {
    if (!this.destroyed) this.adapter?.setTextTrack?.(language);
  }

  enterFullscreen(): void {
    if (!this.destroyed) this.screen?.enter();
  }

  exitFullscreen(): void {
    if (!this.destroyed) this.screen?.exit();
  }

  toggleFullscreen(): void {
    if (this.state.fullscreen) this.exitFullscreen();
    else this.enterFullscreen();
  }

  /** Lets go of the adapter, the screen and every listener; later events and requests change nothing. */
  destroy(): void {
    this.detach();
    this.destroyed = true;
    this.screen = null;
    this.listeners.clear();
    this.seekListeners.clear();
  }

  // --- internals -------------------------------------------------------------------------------

  /** The only place state changes: listeners hear once per change, never for a no-op. */
  private set(patch: Partial<PlaybackState>): void {
    const next = { ...this.state, ...patch };
    const changed = (Object.keys(patch) as Array<keyof PlaybackState>).some((k) => !Object.is(next[k], this.state[k]));
    if (!changed) return;
    this.state = next;
    for (const listener of [...this.listeners]) listener();
  }

  private follow(): void {
    if (this.frame !== null) return;
    const step = () => {
      this.frame = null;
      if (!this.adapter || !this.state.playing) return;
      this.set({ time: this.adapter.currentTime() });
      this.frame = this.frames.request(step);
    };
    this.frame = this.frames.request(step);
  }

  private stopFollowing(): void {
    if (this.frame !== null) this.frames.cancel(this.frame);
    this.frame = null;
  }
}
