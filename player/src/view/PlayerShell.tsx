import { useEffect, useRef, useState, type CSSProperties, type PointerEvent, type ReactNode, type RefObject } from 'react';
import type { PlaybackStore } from '../runtime/playback';
import type { PlayerCaptionTrack } from '../runtime/types';
import { Controls } from './Controls';
import { playerKeyHandler } from './keys';
import { usePlayback } from './usePlayback';
import { useCaptions } from './useCaptions';

export interface PlayerShellProps {
  store: PlaybackStore;
  /** The region's accessible name. */
  label: string;
  /** The element the video layer draws into. */
  stageRef: RefObject<HTMLDivElement>;
  /** The player's outer element, for a view that measures it (the shell keeps its own otherwise). */
  rootRef?: RefObject<HTMLDivElement>;
  className?: string;
  style?: CSSProperties;
  /** The provider's name, on the region as data-provider. */
  provider?: string;
  /** The big play button's accessible name. */
  playLabel?: string;
  /** Keeps the big play button away (while a question is open). */
  holdPlay?: boolean;
  /** A failure replaces the video and its controls (one video), instead of showing above them (a funnel). */
  errorReplacesVideo?: boolean;
  /** Drawn over the video, under the loader (a funnel's elements). */
  overlays?: ReactNode;
  /** Drawn after the error message, before the controls (dialogs, live regions). */
  children?: ReactNode;
  /** The video's caption tracks: with any (or its provider's own), the CC menu and the cues. */
  captions?: readonly PlayerCaptionTrack[];
  /** The player is the page (/player): its shortcuts work with focus on the page itself too. */
  pageKeys?: boolean;
}

/** How long a tap shows the controls over a playing video. */
const REVEAL_MS = 3000;

/**
 * Touch screens have no hover: a tap on the video while the hidden controls would not show them
 * shows them for a few seconds instead of pausing (another tap then pauses), and any tap in the
 * player while they show keeps them up. Returns the tap's handler for the video and whether they show.
 */
const useTouchReveal = (playing: boolean) => {
  const [revealed, setRevealed] = useState(false);
  const touch = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const reveal = () => {
    clearTimeout(timer.current);
    setRevealed(true);
    timer.current = setTimeout(() => setRevealed(false), REVEAL_MS);
  };
  return {
    revealed,
    onPointerDown: (e: PointerEvent) => {
      touch.current = e.pointerType === 'touch';
      if (touch.current && revealed) reveal();
    },
    /** A tap on the video: true when it only showed the controls. */
    tapShows: (): boolean => {
      if (!touch.current) return false;
      const shows = playing && !revealed;
      reveal();
      return shows;
    },
  };
};

/**
 * On a page that is the player, its shortcuts also work while focus is on the page itself (after
 * load, or a click outside any control): keys that reach the body go to the player.
 */
const usePageKeys = (on: boolean, onKey: ReturnType<typeof playerKeyHandler>) => {
  const latest = useRef(onKey);
  latest.current = onKey;
  useEffect(() => {
    if (!on) return;
    const listener = (e: KeyboardEvent) => {
      if (e.target === document.body || e.target === document.documentElement) latest.current(e);
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [on]);
};

/** The controls, reading the whole state (they follow the time frame by frame while playing). */
const StoreControls = ({ store, extra }: { store: PlaybackStore; extra?: ReactNode }) => {
  const { playing, time, duration, volume, muted, rates, rate, fullscreen } = usePlayback(store);
  return (
    <Controls
      playing={playing}
      time={time}
      duration={duration}
      volume={volume}
      muted={muted}
      rates={rates}
      rate={rate}
      fullscreen={fullscreen}
      onPlay={() => store.toggle()}
      onSeek={(t) => store.seek(t)}
      onVolume={(v) => store.setVolume(v)}
      onMute={() => store.toggleMuted()}
      onRate={(r) => store.setRate(r)}
      onFullscreen={() => store.toggleFullscreen()}
      extra={extra}
    />
  );
};

/**
 * What both players look like around their video: the region with its keyboard shortcuts, the
 * load_video loader, the big play button, the error message, the controls and the fullscreen
 * container (the player itself, never the video's native fullscreen, which would hide overlays).
 * All playback state is the store's; every control and key is a request to it.
 */
export const PlayerShell = (props: PlayerShellProps) => {
  const { store, label, stageRef, className, style, provider, playLabel = 'Play', holdPlay = false, errorReplacesVideo = false } = props;
  const ownRoot = useRef<HTMLDivElement>(null);
  const root = props.rootRef ?? ownRoot;
  const playing = usePlayback(store, (s) => s.playing);
  const started = usePlayback(store, (s) => s.started);
  const loading = usePlayback(store, (s) => s.loading);
  const error = usePlayback(store, (s) => s.error);

  // The container is what goes fullscreen; the store hears when the screen changes.
  useEffect(() => {
    const el = root.current!;
    const disconnect = store.connectScreen({
      enter: () => void el.requestFullscreen?.().catch(() => undefined),
      exit: () => {
        if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      },
    });
    const onChange = () => store.fullscreenChanged(document.fullscreenElement === el);
    document.addEventListener('fullscreenchange', onChange);
    return () => {
      disconnect();
      document.removeEventListener('fullscreenchange', onChange);
    };
  }, [store, root]);

  const onKey = playerKeyHandler({
    togglePlay: () => store.toggle(),
    seekBy: (delta) => store.seekBy(delta),
    toggleFullscreen: () => store.toggleFullscreen(),
    toggleMuted: () => store.toggleMuted(),
  });
  usePageKeys(Boolean(props.pageKeys), onKey);
  const replaced = errorReplacesVideo && Boolean(error);
  const cc = useCaptions(props.captions, store);
  const touch = useTouchReveal(playing);

  return (
    <div
      ref={root}
      className={`bf-player${playing ? ' bf-playing' : ''}${touch.revealed ? ' bf-reveal' : ''}${className ? ` ${className}` : ''}`}
      style={style}
      tabIndex={-1}
      onKeyDown={onKey}
      onPointerDown={touch.onPointerDown}
      role="region"
      aria-label={label}
      aria-busy={loading && !error}
      data-provider={provider}
      data-state={error ? 'error' : loading ? 'loading' : playing ? 'playing' : 'ready'}
    >
      <div ref={stageRef} className="bf-stage" onClick={() => void (touch.tapShows() || store.toggle())} hidden={replaced} />
      {props.overlays}
      {cc && !replaced && <cc.ui.CaptionsLayer store={store} choice={cc.choice} tracks={cc.tracks} />}
      {loading && !error && <div className="bf-loader" role="progressbar" aria-label="load_video" aria-busy="true" />}
      {!started && !loading && !error && !holdPlay && (
        <button
          type="button"
          className="bf-bigplay bf-focusable"
          aria-label={playLabel}
          onClick={(e) => {
            store.toggle();
            // The button goes as the video starts: focus stays in the player, on the bar's Pause for a
            // key press (detail 0), on the player itself for a click (the bar may hide then).
            const to = e.detail === 0 ? root.current?.querySelector<HTMLElement>('[data-control="play"]') : root.current;
            to?.focus({ preventScroll: true });
          }}
        >
          <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true">
            <path d="M8 5v14l11-7z" fill="currentColor" />
          </svg>
        </button>
      )}
      {error && (
        <div className={`bf-error${errorReplacesVideo ? ' bf-error-full' : ''}`} role="alert">
          {error}
        </div>
      )}
      {props.children}
      {!replaced && <StoreControls store={store} extra={cc && <cc.ui.CaptionsMenu store={store} choice={cc.choice} tracks={cc.tracks} />} />}
    </div>
  );
};
