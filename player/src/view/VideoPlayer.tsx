import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { PlaybackStore } from '../runtime/playback';
import { MESSAGES } from '@branchify/shared';
import { factoryFor } from '../providers';
import type { ProviderAdapter, ProviderEvent } from '../providers';
import type { PlayerCaptionTrack, PlayerVideo } from '../runtime/types';
import { PlayerShell } from './PlayerShell';
import './player.css';

export interface VideoPlayerProps {
  /** The provider's embed URL (generic: the direct video URL). */
  embedUrl: string | null | undefined;
  /** youtube, vimeo, adilo or generic; anything else shows 'Video provider not loaded'. */
  provider: string | null | undefined;
  /** The provider's video id (YouTube, Vimeo), when known; otherwise parsed from embedUrl. */
  externalId?: string | null;
  /** A generic video's media URL when it differs from embedUrl. */
  sourceUrl?: string | null;
  title?: string;
  thumbnail?: string | null;
  /** Seconds: the start position, and a seek whenever it changes. */
  playerTime?: number;
  /** Play as soon as the provider is ready (a refused autoplay shows the play button). */
  autoPlay?: boolean;
  /** Every time update, in seconds. */
  onTime?(seconds: number): void;
  /** A provider failure, with the spec's message. Adilo fails silently: never called. */
  onError?(message: string): void;
  /** The provider is ready; the duration when it knows it. */
  onReady?(info: { duration: number | null }): void;
  className?: string;
  /** The playback store to drive (an editor's timeline shares it); the player makes its own otherwise. */
  store?: PlaybackStore;
  /** Drawn over the video, under the loader and controls (an editor's elements). */
  overlays?: ReactNode;
  /** No big play button over the video (an editor plays from its controls and timeline). */
  hideBigPlay?: boolean;
  /** The video's caption tracks (the CC menu shows when it has any). */
  captions?: readonly PlayerCaptionTrack[];
}

/** A seek request closer than this to the published time is our own time coming back: ignored. */
const ECHO_TOLERANCE = 0.25;
/** Window resizes settle this long before the player reloads. */
const RESIZE_SETTLE_MS = 300;

const windowSize = () => `${window.innerWidth}x${window.innerHeight}`;

/** What a load reports back to the player. */
interface LoadListener {
  /** Every time update, after the store has it. */
  onTime(seconds: number): void;
  /** Playing from a play event, not playing from a pause or the end. */
  onPlaying(playing: boolean): void;
  /** A provider failure with a message (a silent one is only the store's). */
  onError(message: string): void;
  onReady(info: { duration: number | null }): void;
}

/**
 * Loads `video` into `host` and attaches it to the store once ready (playing when `autoplay`); a
 * failure goes to the store once. Returns the unload: the store is detached, not destroyed.
 */
const loadVideo = (host: HTMLElement, store: PlaybackStore, video: PlayerVideo, start: { startAt: number; autoplay: boolean }, listener: LoadListener) => {
  const { startAt, autoplay } = start;
  let cancelled = false;
  let failed = false;
  let adapter: ProviderAdapter | null = null;

  const fail = (message: string | null) => {
    if (cancelled || failed) return;
    failed = true;
    store.fail(message);
    if (message) listener.onError(message);
  };

  const emit = (event: ProviderEvent) => {
    if (cancelled) return;
    if (event.type === 'error') return fail(event.message);
    store.handle(event);
    if (event.type === 'time') listener.onTime(event.time);
    else if (event.type === 'play') listener.onPlaying(true);
    else if (event.type === 'pause' || event.type === 'ended') listener.onPlaying(false);
  };

  factoryFor(video)
    .then((factory) => {
      if (cancelled) return;
      const a = factory(video, emit, { active: true, startAt, preview: !autoplay });
      adapter = a;
      host.appendChild(a.element);
      return a.ready().then(() => {
        if (cancelled || failed) return;
        store.attach(a);
        listener.onReady({ duration: a.duration() });
        // Autoplay may be refused (no gesture yet): then the play button waits.
        if (autoplay) void store.play();
      });
    })
    .catch((e: unknown) => fail((e as Error)?.message || MESSAGES.playerLoadFailed));

  // Detached, not destroyed: the store outlives a reload (and React's StrictMode remount).
  return () => {
    cancelled = true;
    store.detach();
    adapter?.destroy();
  };
};

/**
 * (Re)loads the video into `stageEl` when its identity (provider, URLs, id) or the resize
 * generation changes: a new video from its playerTime, playing when autoPlay; a resize reload where
 * it was, as it was. Returns the last time published (or asked for).
 */
const useVideoLoad = (props: VideoPlayerProps, store: PlaybackStore, stageEl: RefObject<HTMLDivElement>, generation: number) => {
  const { embedUrl, provider, externalId = null, sourceUrl = null, thumbnail = null, playerTime } = props;
  // The latest props the loading effect reads without reloading for them.
  const latest = useRef(props);
  latest.current = props;
  /** The last time published (or asked for): where a resize reload resumes. */
  const lastTime = useRef(playerTime ?? 0);
  const wasPlaying = useRef(false);
  const loadedIdentity = useRef<string | null>(null);
  const identity = JSON.stringify([provider ?? null, embedUrl ?? null, externalId, sourceUrl]);

  useEffect(() => {
    const host = stageEl.current!;
    const fresh = loadedIdentity.current !== identity;
    loadedIdentity.current = identity;
    const p = latest.current;
    if (fresh) {
      lastTime.current = p.playerTime ?? 0;
      wasPlaying.current = Boolean(p.autoPlay);
    }
    const startAt = Math.max(0, lastTime.current || 0);
    store.reset(startAt);
    const video: PlayerVideo = {
      editor_id: 'video',
      title: p.title ?? 'Video',
      provider: provider ?? '',
      external_id: externalId,
      embed_url: embedUrl ?? null,
      source_url: sourceUrl,
      thumbnail,
      duration: null,
      elements: [],
    };
    return loadVideo(
      host,
      store,
      video,
      { startAt, autoplay: wasPlaying.current },
      {
        onTime(seconds) {
          lastTime.current = seconds;
          latest.current.onTime?.(seconds);
        },
        onPlaying: (playing) => void (wasPlaying.current = playing),
        onError: (message) => latest.current.onError?.(message),
        onReady: (info) => latest.current.onReady?.(info),
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the video's identity and the resize generation decide a reload; the rest is read from `latest`
  }, [identity, generation, store]);
  return lastTime;
};

/** Bumps the generation when the window's size settles at a new size (not for entering or leaving fullscreen). */
const useResizeReload = (setGeneration: (update: (generation: number) => number) => void) => {
  useEffect(() => {
    let baseline = windowSize();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let fsChangedAt = 0;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const size = windowSize();
        if (size === baseline) return;
        baseline = size;
        if (document.fullscreenElement || Date.now() - fsChangedAt < 1500) return;
        setGeneration((g) => g + 1);
      }, RESIZE_SETTLE_MS);
    };
    const onFs = () => {
      fsChangedAt = Date.now();
    };
    window.addEventListener('resize', onResize);
    document.addEventListener('fullscreenchange', onFs);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
      document.removeEventListener('fullscreenchange', onFs);
    };
  }, [setGeneration]);
};

/**
 * One video in the player: the same provider adapters and
 * controls as the funnel player, without a funnel. It shows the load_video loader until the
 * provider is ready, reloads when the video or the window size changes, seeks when playerTime
 * changes, publishes every time update, and on a provider failure closes the loader and shows the
 * spec's message in place of the video (Adilo: closes silently). The editor's preview and the web
 * app's library previews use it, so they behave like the public page.
 */
export const VideoPlayer = (props: VideoPlayerProps) => {
  const { provider, title, playerTime, className } = props;
  const stageEl = useRef<HTMLDivElement>(null);
  // Playback state lives in the store (the funnel player's too); the shell reads it and asks it.
  const [ownStore] = useState(() => (props.store ? null : new PlaybackStore({ time: playerTime ?? 0 })));
  const store = props.store ?? ownStore!;
  const [generation, setGeneration] = useState(0);
  const lastTime = useVideoLoad(props, store, stageEl, generation);

  // Seek when playerTime changes (not when it is our own published time coming back).
  useEffect(() => {
    if (playerTime === undefined || !Number.isFinite(playerTime)) return;
    if (Math.abs(playerTime - lastTime.current) < ECHO_TOLERANCE) return;
    lastTime.current = playerTime;
    store.seek(playerTime);
  }, [playerTime, store, lastTime]);

  useResizeReload(setGeneration);

  return (
    <PlayerShell
      store={store}
      label={title ?? 'Video player'}
      stageRef={stageEl}
      className={`bf-inline${className ? ` ${className}` : ''}`}
      provider={provider ?? undefined}
      playLabel="Play video"
      errorReplacesVideo
      overlays={props.overlays}
      holdPlay={props.hideBigPlay}
      captions={props.captions}
    />
  );
};
