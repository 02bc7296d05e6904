import { PlaybackStore, type FrameScheduler, type FullscreenTarget } from '../../player/src/runtime/playback';
import type { ProviderAdapter } from '../../player/src/providers/types';

/** Frames that run only when the test says so (the store's clock). */
const fakeFrames = () => {
  let next = 1;
  const queued = new Map<number, () => void>();
  const frames: FrameScheduler = {
    request: (cb) => {
      queued.set(next, cb);
      return next++;
    },
    cancel: (handle) => void queued.delete(handle),
  };
  const run = () => {
    const due = [...queued.values()];
    queued.clear();
    for (const cb of due) cb();
  };
  return { frames, run, pending: () => queued.size };
};

/** A provider adapter that records what the store asked of it. */
const fakeAdapter = (duration: number | null = 60, options: { refusePlay?: string } = {}) => {
  const calls: string[] = [];
  let time = 0;
  let paused = true;
  const adapter = {
    video: {} as ProviderAdapter['video'],
    element: {} as HTMLElement,
    ready: async () => undefined,
    play: async () => {
      calls.push('play');
      if (options.refusePlay) {
        const error = new Error('refused');
        error.name = options.refusePlay;
        throw error;
      }
      paused = false;
    },
    pause: () => {
      calls.push('pause');
      paused = true;
    },
    seek: (t: number) => {
      calls.push(`seek ${t}`);
      time = t;
    },
    currentTime: () => time,
    duration: () => duration,
    paused: () => paused,
    setVolume: (v: number) => calls.push(`volume ${v}`),
    setMuted: (m: boolean) => calls.push(`muted ${m}`),
    rates: () => [1, 2],
    setRate: (r: number) => calls.push(`rate ${r}`),
    destroy: () => calls.push('destroy'),
  } satisfies ProviderAdapter;
  return { adapter, calls, advance: (t: number) => (time = t) };
};

/** A fullscreen target (the player's container in a browser) that records the requests. */
const fakeScreen = () => {
  const calls: string[] = [];
  const target: FullscreenTarget = { enter: () => void calls.push('enter'), exit: () => void calls.push('exit') };
  return { target, calls };
};

const newStore = (clock = fakeFrames()) => new PlaybackStore({ frames: clock.frames });

describe('the playback store', () => {
  it('loads, then hands the adapter the chosen volume, mute and rate and a seek asked for meanwhile', () => {
    const store = newStore();
    expect(store.getState()).toMatchObject({ loading: true, playing: false, duration: null, time: 0 });
    store.setVolume(0.4);
    store.setMuted(true);
    store.setRate(2);
    store.seek(12);
    const { adapter, calls } = fakeAdapter();
    store.attach(adapter);
    expect(calls).toEqual(['volume 0.4', 'muted true', 'rate 2', 'seek 12']);
    expect(store.getState()).toMatchObject({ loading: false, duration: 60, rates: [1, 2], time: 12, volume: 0.4, muted: true });
  });

  it('starts at the time it is given (a resume point)', () => {
    const store = new PlaybackStore({ frames: fakeFrames().frames, time: 42 });
    expect(store.getState().time).toBe(42);
  });

  it('plays, pauses and toggles through the adapter; the state follows its events', async () => {
    const store = newStore();
    const { adapter, calls } = fakeAdapter();
    store.attach(adapter);
    await store.play();
    expect(store.getState().started).toBe(true);
    store.handle({ type: 'play' });
    expect(store.getState().playing).toBe(true);
    store.toggle();
    store.handle({ type: 'pause' });
    expect(store.getState().playing).toBe(false);
    store.toggle();
    store.handle({ type: 'play' });
    store.handle({ type: 'ended' });
    expect(store.getState().playing).toBe(false);
    expect(calls.filter((c) => c === 'play' || c === 'pause')).toEqual(['play', 'pause', 'play']);
  });

  it('a refused autoplay brings the play button back; a refusal after playing keeps it away', async () => {
    const store = newStore();
    store.attach(fakeAdapter(60, { refusePlay: 'NotAllowedError' }).adapter);
    await store.play();
    expect(store.getState()).toMatchObject({ started: false, playing: false });

    const other = newStore();
    other.attach(fakeAdapter(60, { refusePlay: 'AbortError' }).adapter);
    other.handle({ type: 'play' });
    await other.play();
    expect(other.getState().started).toBe(true);
  });

  it('clamps seeks to [0, duration] and steps by ±10 s from where the video is', () => {
    const store = newStore();
    const { adapter, calls } = fakeAdapter(30);
    store.attach(adapter);
    store.seek(45);
    expect(store.getState().time).toBe(30);
    store.seek(-3);
    expect(store.getState().time).toBe(0);
    store.seekBy(10);
    store.seekBy(10);
    store.seekBy(10);
    expect(store.getState().time).toBe(30);
    store.seekBy(-10);
    store.seekBy(-25);
    expect(store.getState().time).toBe(0);
    store.seek(Number.NaN);
    expect(calls).toEqual(['volume 1', 'muted false', 'seek 30', 'seek 0', 'seek 10', 'seek 20', 'seek 30', 'seek 20', 'seek 0']);
  });

  it('a seek asked for before the duration is known is clamped to the video once it is', () => {
    const store = newStore();
    store.seek(-4);
    expect(store.getState().time).toBe(0);
    store.seek(500);
    const { adapter, calls } = fakeAdapter(90);
    store.attach(adapter);
    expect(calls).toContain('seek 90');
    expect(store.getState().time).toBe(90);
  });

  it('tells seek listeners where every seek went (the funnel runtime, a timeline)', () => {
    const store = newStore();
    store.attach(fakeAdapter(30).adapter);
    const seeks: number[] = [];
    const off = store.onSeek((t) => seeks.push(t));
    store.seek(12);
    store.seekBy(100);
    off();
    store.seek(3);
    expect(seeks).toEqual([12, 30]);
  });

  it('follows the current time frame by frame while playing, and stops when paused', () => {
    const clock = fakeFrames();
    const store = newStore(clock);
    const { adapter, advance } = fakeAdapter();
    store.attach(adapter);
    store.handle({ type: 'play' });
    advance(1.25);
    clock.run();
    expect(store.getState().time).toBe(1.25);
    advance(1.5);
    clock.run();
    expect(store.getState().time).toBe(1.5);
    store.handle({ type: 'pause' });
    expect(clock.pending()).toBe(0);
    advance(9);
    clock.run();
    expect(store.getState().time).toBe(1.5);
  });

  it("takes the provider's time updates", () => {
    const store = newStore();
    store.attach(fakeAdapter().adapter);
    store.handle({ type: 'time', time: 7.5 });
    expect(store.getState().time).toBe(7.5);
  });

  it('a new volume unmutes and is clamped to 0..1; mute toggles', () => {
    const store = newStore();
    const { adapter, calls } = fakeAdapter();
    store.attach(adapter);
    store.toggleMuted();
    expect(store.getState().muted).toBe(true);
    store.setVolume(1.7);
    expect(store.getState()).toMatchObject({ muted: false, volume: 1 });
    store.setVolume(-1);
    expect(store.getState().volume).toBe(0);
    store.toggleMuted();
    expect(calls.slice(2)).toEqual(['muted true', 'volume 1', 'muted false', 'volume 0', 'muted false', 'muted true']);
  });

  it('shows buffering only once ready, and a provider failure instead of the video', () => {
    const store = newStore();
    store.handle({ type: 'waiting', waiting: false });
    expect(store.getState().loading).toBe(true);
    store.attach(fakeAdapter().adapter);
    store.handle({ type: 'waiting', waiting: true });
    expect(store.getState().loading).toBe(true);
    store.handle({ type: 'firstframe' });
    expect(store.getState().loading).toBe(false);
    store.handle({ type: 'play' });
    store.handle({ type: 'error', message: 'Could not load player, try again later' });
    expect(store.getState()).toMatchObject({ loading: false, playing: false, error: 'Could not load player, try again later' });
  });

  it('a silent failure (Adilo) closes the loader with no message', () => {
    const store = newStore();
    store.handle({ type: 'error', message: null });
    expect(store.getState()).toMatchObject({ loading: false, error: null });
  });

  it('asks its fullscreen target to enter and leave, and records what the screen did', () => {
    const store = newStore();
    store.toggleFullscreen(); // no target yet: nothing to ask
    const { target, calls } = fakeScreen();
    const off = store.connectScreen(target);
    store.enterFullscreen();
    expect(store.getState().fullscreen).toBe(false); // until the screen says so
    store.fullscreenChanged(true);
    expect(store.getState().fullscreen).toBe(true);
    store.toggleFullscreen();
    store.fullscreenChanged(false);
    store.toggleFullscreen();
    store.exitFullscreen();
    off();
    store.enterFullscreen();
    expect(calls).toEqual(['enter', 'exit', 'enter', 'exit']);
  });

  it('notifies listeners once per change, not for a request that changes nothing', () => {
    const store = newStore();
    store.setMuted(true);
    let notified = 0;
    const off = store.subscribe(() => (notified += 1));
    store.setVolume(0.5); // volume and mute change together: one notification
    store.setMuted(false);
    store.handle({ type: 'time', time: 3 });
    store.handle({ type: 'time', time: 3 });
    store.attach(fakeAdapter().adapter); // loading, duration and rates together
    expect(notified).toBe(3);
    off();
    store.setMuted(true);
    expect(notified).toBe(3);
  });

  it('a new video starts again at its resume point', () => {
    const clock = fakeFrames();
    const store = newStore(clock);
    const { adapter } = fakeAdapter();
    store.attach(adapter);
    store.handle({ type: 'play' });
    store.reset(42);
    expect(store.getState()).toMatchObject({ time: 42, playing: false, started: false, loading: true, duration: null });
    expect(clock.pending()).toBe(0);
  });

  it("the funnel's next video keeps the controls as they were, shows the loader and starts at its time", async () => {
    const store = newStore();
    const first = fakeAdapter(20);
    store.attach(first.adapter);
    await store.play();
    store.handle({ type: 'play' });
    store.next(5);
    expect(store.getState()).toMatchObject({ time: 5, playing: true, started: true, loading: true, error: null });
    store.pause(); // between videos: nobody to ask
    expect(first.calls).not.toContain('pause');
    const second = fakeAdapter(40);
    store.attach(second.adapter);
    expect(second.calls).toEqual(['volume 1', 'muted false', 'seek 5']);
    expect(store.getState()).toMatchObject({ duration: 40, loading: false, time: 5 });
  });

  it('destroy lets go of the provider: its late events and any request change nothing', () => {
    const clock = fakeFrames();
    const store = newStore(clock);
    const { adapter, calls } = fakeAdapter();
    store.attach(adapter);
    store.handle({ type: 'play' });
    let notified = 0;
    store.subscribe(() => (notified += 1));
    store.destroy();
    expect(clock.pending()).toBe(0);
    const before = store.getState();
    store.handle({ type: 'time', time: 9 });
    store.handle({ type: 'pause' });
    store.handle({ type: 'error', message: 'late' });
    void store.play();
    store.seek(5);
    store.setVolume(0.2);
    expect(store.getState()).toBe(before);
    expect(notified).toBe(0);
    expect(calls.slice(2)).toEqual([]);
  });
});
