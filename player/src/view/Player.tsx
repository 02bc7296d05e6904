import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { FunnelRuntime } from '../runtime/machine';
import { PlaybackStore } from '../runtime/playback';
import type { FunnelLogic } from '../runtime/logic-hooks';
import type { LastViewState, PlayerPayload } from '../runtime/types';
import { Countdown } from './Countdown';
import { Overlays } from './Overlays';
import { PlayerShell } from './PlayerShell';
import { useFunnelStage, type PlayerHooks } from './useFunnelStage';

export type { PlayerHooks } from './useFunnelStage';

/** The element's size, kept up to date (the overlays scale with the player). */
const useElementSize = (ref: RefObject<HTMLElement>) => {
  const [box, setBox] = useState({ width: 640, height: 360 });
  useEffect(() => {
    const el = ref.current!;
    const ro = new ResizeObserver(() => setBox({ width: el.clientWidth, height: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return box;
};

/** Asks a returning viewer whether to resume; a click outside answers no. */
const ResumeDialog = ({ onAnswer }: { onAnswer: (yes: boolean) => void }) => (
  <div className="bf-modal-backdrop" onClick={() => onAnswer(false)}>
    <div className="bf-modal" role="dialog" aria-modal="true" aria-labelledby="bf-resume-title" onClick={(e) => e.stopPropagation()}>
      <p id="bf-resume-title">Do you want to resume?</p>
      <div className="bf-modal-actions">
        <button type="button" className="bf-focusable bf-secondary" onClick={() => onAnswer(false)}>
          No
        </button>
        <button type="button" className="bf-focusable bf-primary" autoFocus onClick={() => onAnswer(true)}>
          Yes
        </button>
      </div>
    </div>
  </div>
);

/**
 * A whole funnel in the player. `inline` fits it to its container (inside an app) instead of the
 * window (the /player page).
 */
export const Player = ({
  payload,
  hooks = {},
  inline = false,
  logic,
}: {
  payload: PlayerPayload;
  hooks?: PlayerHooks;
  inline?: boolean;
  /** The funnel's variables and conditions (loaded only when it uses them). */
  logic?: FunnelLogic;
}) => {
  // The funnel's logic and the playback are two stores; this view wires them to the video layer.
  const { runtime, store } = useMemo(
    () => ({ runtime: new FunnelRuntime(payload, { origin: location.origin, logic }), store: new PlaybackStore() }),
    [payload, logic],
  );
  const state = useSyncExternalStore(runtime.subscribe, runtime.getState);
  const container = useRef<HTMLDivElement>(null);
  const stageEl = useRef<HTMLDivElement>(null);
  const [live, setLive] = useState('');
  const [resumeAsk, setResumeAsk] = useState<LastViewState | null>(null);
  const onBranch = useFunnelStage({ payload, hooks, runtime, store, stageEl, announce: setLive, askResume: setResumeAsk });
  // Scale with the player's size.
  const box = useElementSize(container);

  const answerResume = (yes: boolean) => {
    const last = resumeAsk;
    setResumeAsk(null);
    if (yes && last) {
      // The viewer's variables come back with the position.
      if (last.variables) logic?.set(last.variables);
      if (last.editor_id === state.video?.editor_id) {
        store.seek(last.last_watch_time);
        void store.play();
      } else runtime.goTo(last.editor_id, last.last_watch_time, true);
    } else void store.play();
  };

  const waitingOn = state.waiting ? state.shown.find((s) => s.element.id === state.waiting!.elementId && !s.fading)?.element : undefined;

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
      captions={state.video?.captions}
      overlays={<Overlays shown={state.shown} box={box} handlers={{ onBranch, onSkip: (elementId) => runtime.skip(elementId) }} />}
    >
      {state.waiting && waitingOn?.type === 'branch' && (
        <Countdown
          waiting={state.waiting}
          element={waitingOn}
          onPause={() => runtime.pauseWait()}
          onResume={() => runtime.resumeWait()}
          onExtend={() => runtime.extendWait()}
        />
      )}
      {resumeAsk && <ResumeDialog onAnswer={answerResume} />}
      <div className="bf-sr-only" role="status" aria-live="polite">
        {live}
      </div>
    </PlayerShell>
  );
};
