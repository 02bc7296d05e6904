import { useEffect, useRef, useState, type ReactNode } from 'react';
import { PlaybackStore } from '../runtime/playback';
import { MESSAGES } from '@branchify/shared';
import { factoryFor } from '../providers';
import type { ProviderAdapter, ProviderEvent } from '../providers';
import type { PlayerVideo } from '../runtime/types';
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
}

/** A seek request closer than this to the published time is our own time coming back: ignored. */
const ECHO_TOLERANCE = 0.25;
/** Window resizes settle this long before the player reloads. */
const RESIZE_SETTLE_MS = 300;

const windowSize = () => `${window.innerWidth}x${window.innerHeight}`;

/**
 * One video in the player: the same provider adapters and
 * controls as the funnel player, without a funnel. It shows the load_video loader until the
 * provider is ready, reloads when the video or the window size changes, seeks when playerTime
 * changes, publishes every time update, and on a provider failure closes the loader and shows the
 * spec's message in place of the video (Adilo: closes silently). The editor's preview and the web
 * app's library previews use it, so they behave like the public page.
 */
export const VideoPlayer = (props: VideoPlayerProps) => {
  const { embedUrl, provider, externalId = null, sourceUrl = null, title, thumbnail = null, playerTime, className } = props;
  const stageEl = useRef<HTMLDivElement>(null);
  // Playback state lives in the store (the funnel player's too); the shell reads it and asks it.
  const [ownStore] = useState(() => (props.store ? null : new PlaybackStore({ time: playerTime ?? 0 })));
  const store = props.store ?? ownStore!;
  const [generation, setGeneration] = useState(0);

  // The latest props the loading effect reads without reloading for them.
  const latest = useRef(props);
  latest.current = props;
  /** The last time published (or asked for): where a resize reload resumes. */
  const lastTime = useRef(playerTime ?? 0);
  const wasPlaying = useRef(false);
  const loadedIdentity = useRef<string | null>(null);
  const identity = JSON.stringify([provider ?? null, embedUrl ?? null, externalId, sourceUrl]);

  // (Re)load: a new video, or the window size changed.
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
    const autoplay = wasPlaying.current;
    let cancelled = false;
    let failed = false;
    let adapter: ProviderAdapter | null = null;
    store.reset(startAt);

    const fail = (message: string | null) => {
      if (cancelled || failed) return;
      failed = true;
      store.fail(message);
      if (message) latest.current.onError?.(message);
    };

    const emit = (event: ProviderEvent) => {
      if (cancelled) return;
      if (event.type === 'error') return fail(event.message);
      store.handle(event);
      if (event.type === 'time') {
        lastTime.current = event.time;
        latest.current.onTime?.(event.time);
      } else if (event.type === 'play') wasPlaying.current = true;
      else if (event.type === 'pause' || event.type === 'ended') wasPlaying.current = false;
    };

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

    factoryFor(video)
      .then((factory) => {
        if (cancelled) return;
        const a = factory(video, emit, { active: true, startAt, preview: !autoplay });
        adapter = a;
        host.appendChild(a.element);
        return a.ready().then(() => {
          if (cancelled || failed) return;
          store.attach(a);
          latest.current.onReady?.({ duration: a.duration() });
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the video's identity and the resize generation decide a reload; the rest is read from `latest`
  }, [identity, generation, store]);

  // Seek when playerTime changes (not when it is our own published time coming back).
  useEffect(() => {
    if (playerTime === undefined || !Number.isFinite(playerTime)) return;
    if (Math.abs(playerTime - lastTime.current) < ECHO_TOLERANCE) return;
    lastTime.current = playerTime;
    store.seek(playerTime);
  }, [playerTime, store]);

  // Reload when the window's size changes (not for entering or leaving fullscreen).
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
  }, []);

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
    />
  );
};
