import { useEffect, useRef, useState } from 'react';
import { playerKeyHandler } from './keys';
import { MESSAGES } from '../../../config/src/messages';
import { factoryFor } from '../providers';
import type { ProviderAdapter, ProviderEvent } from '../providers';
import type { PlayerVideo } from '../runtime/types';
import { Controls } from './Controls';
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
  /** Seconds: the start position, and a seek whenever it changes (spec section 4). */
  playerTime?: number;
  /** Play as soon as the provider is ready (a refused autoplay shows the play button). */
  autoPlay?: boolean;
  /** Every time update, in seconds (spec section 4: the player publishes its current time). */
  onTime?(seconds: number): void;
  /** A provider failure, with the spec's message (section 8). Adilo fails silently: never called. */
  onError?(message: string): void;
  /** The provider is ready; the duration when it knows it. */
  onReady?(info: { duration: number | null }): void;
  className?: string;
}

/** A seek request closer than this to the published time is our own time coming back: ignored. */
const ECHO_TOLERANCE = 0.25;
/** Window resizes settle this long before the player reloads (spec section 4). */
const RESIZE_SETTLE_MS = 300;

const windowSize = () => `${window.innerWidth}x${window.innerHeight}`;

/**
 * One video in the player (spec section 2, "Video player"): the same provider adapters and
 * controls as the funnel player, without a funnel. It shows the load_video loader until the
 * provider is ready, reloads when the video or the window size changes, seeks when playerTime
 * changes, publishes every time update, and on a provider failure closes the loader and shows the
 * spec's message in place of the video (Adilo: closes silently). The editor's preview and the web
 * app's library previews use it, so they behave like the public page (DESIGN.md section 3).
 */
export const VideoPlayer = (props: VideoPlayerProps) => {
  const { embedUrl, provider, externalId = null, sourceUrl = null, title, thumbnail = null, playerTime, autoPlay = false, className } = props;
  const container = useRef<HTMLDivElement>(null);
  const stageEl = useRef<HTMLDivElement>(null);
  const adapterRef = useRef<ProviderAdapter | null>(null);
  const readyRef = useRef(false);
  const [generation, setGeneration] = useState(0);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [started, setStarted] = useState(false);
  const [time, setTime] = useState(playerTime ?? 0);
  const [duration, setDuration] = useState<number | null>(null);
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const [rate, setRate] = useState(1);
  const [rates, setRates] = useState<number[]>([]);
  const [fullscreen, setFullscreen] = useState(false);

  // The latest props and state the loading effect reads without reloading for them.
  const latest = useRef({ props, volume, muted, rate });
  latest.current = { props, volume, muted, rate };
  /** The last time published (or asked for): where a resize reload resumes. */
  const lastTime = useRef(playerTime ?? 0);
  const wasPlaying = useRef(false);
  const pendingSeek = useRef<number | null>(null);
  const loadedIdentity = useRef<string | null>(null);
  const identity = JSON.stringify([provider ?? null, embedUrl ?? null, externalId, sourceUrl]);

  // (Re)load: a new video, or the window size changed.
  useEffect(() => {
    const host = stageEl.current!;
    const fresh = loadedIdentity.current !== identity;
    loadedIdentity.current = identity;
    const { props: p } = latest.current;
    if (fresh) {
      lastTime.current = p.playerTime ?? 0;
      wasPlaying.current = Boolean(p.autoPlay);
    }
    const startAt = Math.max(0, lastTime.current || 0);
    const autoplay = wasPlaying.current;
    let cancelled = false;
    let failed = false;
    let adapter: ProviderAdapter | null = null;
    readyRef.current = false;
    pendingSeek.current = null;
    setLoading(true);
    setError(null);
    setPlaying(false);
    setStarted(false);
    setTime(startAt);
    setDuration(null);
    setRates([]);

    const fail = (message: string | null) => {
      if (cancelled || failed) return;
      failed = true;
      setLoading(false);
      setPlaying(false);
      if (message) {
        setError(message);
        latest.current.props.onError?.(message);
      }
    };

    const emit = (event: ProviderEvent) => {
      if (cancelled) return;
      switch (event.type) {
        case 'ready':
          if (event.duration) setDuration(event.duration);
          return;
        case 'time':
          lastTime.current = event.time;
          setTime(event.time);
          latest.current.props.onTime?.(event.time);
          return;
        case 'play':
          wasPlaying.current = true;
          setPlaying(true);
          setStarted(true);
          return;
        case 'pause':
        case 'ended':
          wasPlaying.current = false;
          setPlaying(false);
          return;
        case 'waiting':
          if (readyRef.current) setLoading(event.waiting);
          return;
        case 'firstframe':
          if (readyRef.current) setLoading(false);
          return;
        case 'error':
          fail(event.message);
      }
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
        adapterRef.current = a;
        host.appendChild(a.element);
        return a.ready().then(() => {
          if (cancelled || failed) return;
          readyRef.current = true;
          const { volume: v, muted: m, rate: r } = latest.current;
          a.setVolume(v);
          a.setMuted(m);
          if (r !== 1) a.setRate(r);
          setLoading(false);
          const d = a.duration();
          setDuration(d);
          setRates(a.rates());
          latest.current.props.onReady?.({ duration: d });
          const seek = pendingSeek.current;
          pendingSeek.current = null;
          if (seek !== null && Math.abs(seek - startAt) >= ECHO_TOLERANCE) a.seek(seek);
          if (autoplay)
            a.play().then(
              () => setStarted(true),
              () => setStarted(false), // autoplay refused (no gesture yet): the play button waits
            );
        });
      })
      .catch((e: unknown) => fail((e as Error)?.message || MESSAGES.playerLoadFailed));

    return () => {
      cancelled = true;
      readyRef.current = false;
      if (adapterRef.current === adapter) adapterRef.current = null;
      adapter?.destroy();
    };
    // The video's identity and the resize generation decide a reload; the rest is read from `latest`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [identity, generation]);

  // Seek when playerTime changes (not when it is our own published time coming back).
  useEffect(() => {
    if (playerTime === undefined || !Number.isFinite(playerTime)) return;
    if (Math.abs(playerTime - lastTime.current) < ECHO_TOLERANCE) return;
    const adapter = adapterRef.current;
    lastTime.current = playerTime;
    if (!adapter || !readyRef.current) {
      pendingSeek.current = playerTime;
      return;
    }
    adapter.seek(Math.max(0, playerTime));
  }, [playerTime]);

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
      setFullscreen(document.fullscreenElement === container.current);
    };
    window.addEventListener('resize', onResize);
    document.addEventListener('fullscreenchange', onFs);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
      document.removeEventListener('fullscreenchange', onFs);
    };
  }, []);

  const togglePlay = () => {
    const adapter = adapterRef.current;
    if (!adapter || !readyRef.current) return;
    if (adapter.paused()) {
      setStarted(true);
      void adapter.play().catch(() => undefined);
    } else adapter.pause();
  };
  const seekTo = (t: number) => {
    const adapter = adapterRef.current;
    if (!adapter || !readyRef.current) return;
    const d = adapter.duration();
    adapter.seek(Math.max(0, d ? Math.min(t, d) : t));
  };
  const toggleFullscreen = () => {
    const el = container.current!;
    if (document.fullscreenElement) void document.exitFullscreen();
    else void el.requestFullscreen?.().catch(() => undefined);
  };
  const applyMuted = (m: boolean) => {
    setMuted(m);
    adapterRef.current?.setMuted(m);
  };
  const onKey = playerKeyHandler({
    togglePlay,
    seekBy: (delta) => seekTo(time + delta),
    toggleFullscreen,
    toggleMuted: () => applyMuted(!muted),
  });

  return (
    <div
      ref={container}
      className={`bf-player bf-inline${playing ? ' bf-playing' : ''}${className ? ` ${className}` : ''}`}
      tabIndex={-1}
      onKeyDown={onKey}
      role="region"
      aria-label={title ?? 'Video player'}
      aria-busy={loading && !error}
      data-provider={provider ?? undefined}
      data-state={error ? 'error' : loading ? 'loading' : playing ? 'playing' : 'ready'}
    >
      <div ref={stageEl} className="bf-stage" onClick={togglePlay} hidden={Boolean(error)} />
      {loading && !error && <div className="bf-loader" role="progressbar" aria-label="load_video" aria-busy="true" />}
      {!started && !loading && !error && (
        <button type="button" className="bf-bigplay bf-focusable" aria-label="Play video" onClick={togglePlay}>
          <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true">
            <path d="M8 5v14l11-7z" fill="currentColor" />
          </svg>
        </button>
      )}
      {error ? (
        <div className="bf-error bf-error-full" role="alert">
          {error}
        </div>
      ) : (
        <Controls
          playing={playing}
          time={time}
          duration={duration}
          volume={volume}
          muted={muted}
          rates={rates}
          rate={rate}
          fullscreen={fullscreen}
          onPlay={togglePlay}
          onSeek={seekTo}
          onVolume={(v) => {
            setVolume(v);
            adapterRef.current?.setVolume(v);
            applyMuted(false);
          }}
          onMute={() => applyMuted(!muted)}
          onRate={(r) => {
            setRate(r);
            adapterRef.current?.setRate(r);
          }}
          onFullscreen={toggleFullscreen}
        />
      )}
    </div>
  );
};
