import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { playerKeyHandler } from './keys';
import { MESSAGES } from '../../../config/src/messages';
import { FunnelRuntime, type Command, type Interaction } from '../runtime/machine';
import { branchTargets } from '../runtime/timeline';
import type { LastViewState, PlayerPayload, PlayerVideo } from '../runtime/types';
import { Controls } from './Controls';
import { Overlays, announcement } from './Overlays';
import { Stage } from './stage';

export interface PlayerHooks {
  /** Resolves with the returning viewer's last position (resume), or null. */
  resume?: Promise<LastViewState | null>;
  onInteraction?(interaction: Interaction): void;
  /** Position updates (editor id, time, duration, seconds played since the last one). */
  onPosition?(editorId: string, time: number, duration: number | null, played: number): void;
  /** A branch switched videos or the viewer paused: a good moment to send the position. */
  onMilestone?(): void;
}

const mark = (name: string) => {
  try {
    performance.mark(`branchify:${name}`);
  } catch {
    /* marks are diagnostics only */
  }
};

export const Player = ({ payload, hooks = {} }: { payload: PlayerPayload; hooks?: PlayerHooks }) => {
  const runtime = useMemo(() => new FunnelRuntime(payload, { origin: location.origin }), [payload]);
  const state = useSyncExternalStore(runtime.subscribe, runtime.getState);
  const container = useRef<HTMLDivElement>(null);
  const stageEl = useRef<HTMLDivElement>(null);
  const stage = useRef<Stage | null>(null);
  const [box, setBox] = useState({ width: 640, height: 360 });
  const [playing, setPlaying] = useState(false);
  const [loading, setLoading] = useState(true);
  const [started, setStarted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [duration, setDuration] = useState<number | null>(null);
  const [volume, setVolume] = useState(1);
  const [muted, setMuted] = useState(false);
  const [rate, setRate] = useState(1);
  const [fullscreen, setFullscreen] = useState(false);
  const [live, setLive] = useState('');
  const [resumeAsk, setResumeAsk] = useState<LastViewState | null>(null);
  const lastTime = useRef(0);
  const firstFrame = useRef(false);
  const branchClick = useRef(false);

  const warmFor = useCallback(
    (video: PlayerVideo) => {
      const targets = branchTargets(video, payload.videos).map((id) => payload.videos.find((v) => v.editor_id === id)!);
      stage.current?.warm(targets);
    },
    [payload],
  );

  const show = useCallback(
    (editorId: string, time: number, autoplay: boolean) => {
      const video = payload.videos.find((v) => v.editor_id === editorId);
      const s = stage.current;
      if (!video || !s) return;
      setError(null);
      setLoading(true);
      lastTime.current = time;
      s.show(video, { time, autoplay }).then(
        (adapter) => {
          setLoading(false);
          setDuration(adapter.duration());
          warmFor(video);
        },
        (e: Error) => {
          setLoading(false);
          // Autoplay refused (no gesture yet): wait for the play button; anything else is shown.
          if (e?.name === 'NotAllowedError') setStarted(false);
          else if (e?.message) setError(e.message);
        },
      );
    },
    [payload, warmFor],
  );

  // The video layer and the runtime's commands.
  useEffect(() => {
    const root = stageEl.current!;
    const s = new Stage(root, (event, video) => {
      switch (event.type) {
        case 'ready':
          setDuration(event.duration);
          return;
        case 'time': {
          const adapter = s.adapter;
          const isPlaying = adapter ? !adapter.paused() : false;
          const delta = event.time - lastTime.current;
          lastTime.current = event.time;
          runtime.timeUpdate(event.time, isPlaying);
          hooks.onPosition?.(video.editor_id, event.time, adapter?.duration() ?? video.duration, isPlaying && delta > 0 ? delta : 0);
          return;
        }
        case 'play':
          setPlaying(true);
          setStarted(true);
          runtime.resumed();
          return;
        case 'pause':
          setPlaying(false);
          hooks.onMilestone?.();
          return;
        case 'ended':
          setPlaying(false);
          hooks.onMilestone?.();
          return;
        case 'waiting':
          setLoading(event.waiting);
          return;
        case 'firstframe':
          setLoading(false);
          if (!firstFrame.current) {
            firstFrame.current = true;
            mark('first-frame');
          }
          if (branchClick.current) {
            branchClick.current = false;
            mark('branch-frame');
          }
          return;
        case 'error':
          setLoading(false);
          if (event.message) setError(event.message);
      }
    });
    stage.current = s;
    const off = runtime.onCommand((command: Command) => {
      const adapter = s.adapter;
      switch (command.type) {
        case 'play':
          void adapter?.play().catch(() => setStarted(false));
          return;
        case 'pause':
          adapter?.pause();
          return;
        case 'seek':
          adapter?.seek(command.time);
          return;
        case 'load':
          show(command.editorId, command.time, command.autoplay);
          hooks.onMilestone?.();
          return;
        case 'open': {
          if (command.newTab) {
            const opened = window.open(command.url, '_blank');
            if (opened) opened.opener = null;
            else location.assign(command.url); // blocked as a pop-up (no click): follow it here
          } else location.assign(command.url);
          return;
        }
        case 'interaction':
          hooks.onInteraction?.(command.interaction);
          return;
        case 'announce':
          setLive(announcement(command.element));
      }
    });

    // Start: the root video; with resume on, paused on its preview until we know whether to ask.
    const root0 = runtime.getState().video;
    if (!root0) {
      setLoading(false);
      setError(MESSAGES.couldntGetPlayer);
      return () => off();
    }
    const ask = payload.settings.enable_resume_play && hooks.resume ? hooks.resume : null;
    // Without resume there is nothing to ask first: play at once (a refused autoplay shows the play button).
    const initial = s.show(root0, { autoplay: !ask });
    initial.then(
      (adapter) => {
        setLoading(false);
        setDuration(adapter.duration());
        warmFor(root0);
      },
      (e: Error) => {
        setLoading(false);
        warmFor(root0);
        if (e?.name === 'NotAllowedError') setStarted(false);
        else setError(e?.message || MESSAGES.playerLoadFailed);
      },
    );
    let cancelled = false;
    void Promise.all([initial, ask]).then(([adapter, last]) => {
      if (!ask) return;
      if (cancelled) return;
      if (last && payload.videos.some((v) => v.editor_id === last.editor_id) && last.last_watch_time > 0) setResumeAsk(last);
      else
        adapter.play().then(
          () => setStarted(true),
          () => setStarted(false),
        );
    }, () => undefined);
    return () => {
      cancelled = true;
      off();
      s.destroy();
      runtime.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runtime]);

  // Scale with the player's size.
  useEffect(() => {
    const el = container.current!;
    const ro = new ResizeObserver(() => setBox({ width: el.clientWidth, height: el.clientHeight }));
    ro.observe(el);
    const onFs = () => setFullscreen(document.fullscreenElement === el);
    document.addEventListener('fullscreenchange', onFs);
    return () => {
      ro.disconnect();
      document.removeEventListener('fullscreenchange', onFs);
    };
  }, []);

  const togglePlay = () => {
    const adapter = stage.current?.adapter;
    if (!adapter) return;
    if (adapter.paused()) {
      runtime.resumed();
      setStarted(true);
      void adapter.play().catch(() => undefined);
    } else adapter.pause();
  };
  const seekTo = (t: number) => {
    const adapter = stage.current?.adapter;
    if (!adapter) return;
    const d = adapter.duration();
    const target = Math.max(0, d ? Math.min(t, d) : t);
    adapter.seek(target);
    runtime.timeUpdate(target, false);
  };
  const toggleFullscreen = () => {
    // The player container, never the video's native fullscreen (it would hide the overlays).
    const el = container.current!;
    if (document.fullscreenElement) void document.exitFullscreen();
    else void el.requestFullscreen?.().catch(() => undefined);
  };
  const onKey = playerKeyHandler({
    togglePlay,
    seekBy: (delta) => seekTo(runtime.getState().time + delta),
    toggleFullscreen,
    toggleMuted: () => setMuted((m) => (stage.current?.setMuted(!m), !m)),
  });

  const answerResume = (yes: boolean) => {
    const last = resumeAsk;
    setResumeAsk(null);
    setStarted(true);
    if (yes && last) {
      if (last.editor_id === state.video?.editor_id) {
        seekTo(last.last_watch_time);
        void stage.current?.adapter?.play().catch(() => setStarted(false));
      } else runtime.goTo(last.editor_id, last.last_watch_time, true);
    } else void stage.current?.adapter?.play().catch(() => setStarted(false));
  };

  const scheme = payload.app.color_scheme ?? {};
  const primary = scheme['--primary'] ?? scheme.primary ?? '#2f27ce';

  return (
    <div
      ref={container}
      className={`bf-player${playing ? ' bf-playing' : ''}`}
      style={{ ['--bf-primary' as string]: primary }}
      tabIndex={-1}
      onKeyDown={onKey}
      aria-label={payload.title}
      role="region"
    >
      <div ref={stageEl} className="bf-stage" onClick={togglePlay} />
      <Overlays
        shown={state.shown}
        box={box}
        handlers={{
          onBranch: (elementId, branchId) => {
            branchClick.current = true;
            mark('branch-click');
            const action = runtime.click(elementId, branchId);
            if (action.kind !== 'branch') branchClick.current = false;
          },
          onSkip: (elementId) => runtime.skip(elementId),
        }}
      />
      {loading && !error && <div className="bf-loader" role="progressbar" aria-label="load_video" />}
      {!started && !loading && !error && !resumeAsk && (
        <button type="button" className="bf-bigplay bf-focusable" aria-label="Play" onClick={togglePlay}>
          <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true">
            <path d="M8 5v14l11-7z" fill="currentColor" />
          </svg>
        </button>
      )}
      {error && (
        <div className="bf-error" role="alert">
          {error}
        </div>
      )}
      {resumeAsk && (
        <div className="bf-modal-backdrop" onClick={() => answerResume(false)}>
          <div className="bf-modal" role="dialog" aria-modal="true" aria-labelledby="bf-resume-title" onClick={(e) => e.stopPropagation()}>
            <p id="bf-resume-title">Do you want to resume?</p>
            <div className="bf-modal-actions">
              <button type="button" className="bf-focusable bf-secondary" onClick={() => answerResume(false)}>
                No
              </button>
              <button type="button" className="bf-focusable bf-primary" autoFocus onClick={() => answerResume(true)}>
                Yes
              </button>
            </div>
          </div>
        </div>
      )}
      <Controls
        playing={playing}
        time={state.time}
        duration={duration}
        volume={volume}
        muted={muted}
        rates={stage.current?.adapter?.rates() ?? []}
        rate={rate}
        fullscreen={fullscreen}
        onPlay={togglePlay}
        onSeek={seekTo}
        onVolume={(v) => {
          setVolume(v);
          setMuted(false);
          stage.current?.setVolume(v);
          stage.current?.setMuted(false);
        }}
        onMute={() => setMuted((m) => (stage.current?.setMuted(!m), !m))}
        onRate={(r) => {
          setRate(r);
          stage.current?.adapter?.setRate(r);
        }}
        onFullscreen={toggleFullscreen}
      />
      <div className="bf-sr-only" role="status" aria-live="polite">
        {live}
      </div>
    </div>
  );
};
