import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { MESSAGES } from '@branchify/shared';
import { FunnelRuntime, type Command, type Interaction } from '../runtime/machine';
import { PlaybackStore } from '../runtime/playback';
import { branchTargets } from '../runtime/timeline';
import type { LastViewState, PlayerPayload, PlayerVideo } from '../runtime/types';
import { Overlays, announcement } from './Overlays';
import { PlayerShell } from './PlayerShell';
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

/**
 * A whole funnel in the player. `inline` fits it to its container (inside an app) instead of the
 * window (the /player page).
 */
export const Player = ({ payload, hooks = {}, inline = false }: { payload: PlayerPayload; hooks?: PlayerHooks; inline?: boolean }) => {
  // The funnel's logic and the playback are two stores; this view wires them to the video layer.
  const { runtime, store } = useMemo(() => ({ runtime: new FunnelRuntime(payload, { origin: location.origin }), store: new PlaybackStore() }), [payload]);
  const state = useSyncExternalStore(runtime.subscribe, runtime.getState);
  const container = useRef<HTMLDivElement>(null);
  const stageEl = useRef<HTMLDivElement>(null);
  const stage = useRef<Stage | null>(null);
  const [box, setBox] = useState({ width: 640, height: 360 });
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
      lastTime.current = time;
      s.show(video, { time, autoplay }).then(
        () => warmFor(video),
        (e: Error) => {
          if (e?.message) store.fail(e.message);
        },
      );
    },
    [payload, warmFor, store],
  );

  // The video layer and the runtime's commands.
  useEffect(() => {
    const root = stageEl.current!;
    const s = new Stage(root, store, (event, video) => {
      switch (event.type) {
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
          runtime.resumed();
          return;
        case 'pause':
        case 'ended':
          hooks.onMilestone?.();
          return;
        case 'firstframe':
          if (!firstFrame.current) {
            firstFrame.current = true;
            mark('first-frame');
          }
          if (branchClick.current) {
            branchClick.current = false;
            mark('branch-frame');
          }
      }
    });
    stage.current = s;
    // A seek from the controls, the keyboard or the resume answer: the runtime jumps there too.
    const offSeek = store.onSeek((time) => runtime.timeUpdate(time, false));
    const off = runtime.onCommand((command: Command) => {
      switch (command.type) {
        case 'play':
          void store.play();
          return;
        case 'pause':
          store.pause();
          return;
        case 'seek':
          store.seek(command.time);
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
    const stop = () => {
      off();
      offSeek();
      s.destroy();
      store.destroy();
      runtime.destroy();
    };

    // Start: the root video; with resume on, paused on its preview until we know whether to ask.
    const root0 = runtime.getState().video;
    if (!root0) {
      store.fail(MESSAGES.couldntGetPlayer);
      return stop;
    }
    const ask = payload.settings.enable_resume_play && hooks.resume ? hooks.resume : null;
    // Without resume there is nothing to ask first: play at once (a refused autoplay shows the play button).
    const initial = s.show(root0, { autoplay: !ask });
    initial.then(
      () => warmFor(root0),
      (e: Error) => {
        warmFor(root0);
        store.fail(e?.message || MESSAGES.playerLoadFailed);
      },
    );
    let cancelled = false;
    void Promise.all([initial, ask]).then(
      ([, last]) => {
        if (!ask) return;
        if (cancelled) return;
        if (last && payload.videos.some((v) => v.editor_id === last.editor_id) && last.last_watch_time > 0) setResumeAsk(last);
        else void store.play();
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
      stop();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one stage per runtime; the payload and callbacks are read once at mount
  }, [runtime, store]);

  // Scale with the player's size.
  useEffect(() => {
    const el = container.current!;
    const ro = new ResizeObserver(() => setBox({ width: el.clientWidth, height: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const answerResume = (yes: boolean) => {
    const last = resumeAsk;
    setResumeAsk(null);
    if (yes && last) {
      if (last.editor_id === state.video?.editor_id) {
        store.seek(last.last_watch_time);
        void store.play();
      } else runtime.goTo(last.editor_id, last.last_watch_time, true);
    } else void store.play();
  };

  const scheme = payload.app.color_scheme ?? {};
  const primary = scheme['--primary'] ?? scheme.primary ?? '#2f27ce';

  return (
    <PlayerShell
      store={store}
      label={payload.title}
      className={inline ? 'bf-inline' : undefined}
      stageRef={stageEl}
      rootRef={container}
      style={{ ['--bf-primary' as string]: primary }}
      holdPlay={Boolean(resumeAsk)}
      overlays={
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
      }
    >
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
      <div className="bf-sr-only" role="status" aria-live="polite">
        {live}
      </div>
    </PlayerShell>
  );
};
