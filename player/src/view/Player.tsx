import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent, type RefObject } from 'react';
import { FunnelRuntime } from '../runtime/machine';
import { PlaybackStore } from '../runtime/playback';
import type { FunnelLogic } from '../runtime/logic-hooks';
import type { LastViewState, PlayerPayload } from '../runtime/types';
import { Countdown } from './Countdown';
import { Overlays, sentences, type OverlayBox } from './Overlays';
import { PlayerShell } from './PlayerShell';
import { formatTime } from './style';
import { useFunnelStage, type PlayerHooks } from './useFunnelStage';

export type { PlayerHooks } from './useFunnelStage';

/** The element's size and its control bar's height, kept up to date (the overlays scale with the player). */
const useElementSize = (ref: RefObject<HTMLElement>) => {
  const [box, setBox] = useState<OverlayBox>({ width: 640, height: 360 });
  useEffect(() => {
    const el = ref.current!;
    const bar = () => el.querySelector<HTMLElement>('.bf-controls')?.offsetHeight ?? 0;
    const ro = new ResizeObserver(() => setBox({ width: el.clientWidth, height: el.clientHeight, bar: bar() }));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return box;
};

/**
 * Asks a returning viewer whether to resume, naming the video and the time it resumes at. Yes
 * resumes there; No, Escape and a click outside start over from the beginning. Tab stays in it.
 */
const ResumeDialog = ({ video, time, onAnswer }: { video: string; time: number; onAnswer: (yes: boolean) => void }) => {
  const onKey = (e: KeyboardEvent) => {
    // The dialog's keys are its own (the player's shortcuts would start the video under it).
    e.stopPropagation();
    if (e.key === 'Escape') {
      e.preventDefault();
      onAnswer(false);
    } else if (e.key === 'Tab') {
      const buttons = Array.from(e.currentTarget.querySelectorAll<HTMLButtonElement>('button'));
      const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
      e.preventDefault();
      buttons[(at + (e.shiftKey ? -1 : 1) + buttons.length) % buttons.length]?.focus();
    }
  };
  return (
    <div className="bf-modal-backdrop" onClick={() => onAnswer(false)}>
      <div
        className="bf-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="bf-resume-title"
        aria-describedby="bf-resume-where"
        onClick={(e) => e.stopPropagation()}
        onKeyDown={onKey}
      >
        <p id="bf-resume-title">Do you want to resume?</p>
        <p id="bf-resume-where" className="bf-modal-detail">
          {`Yes resumes '${video}' at ${formatTime(time)}. No starts over from the beginning.`}
        </p>
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
};

/**
 * Keeps keyboard focus in the player when what had it goes: a choice taken or skipped (its element
 * fades out, a branch swaps the video), or the resume question answered. Focus then moves to the
 * player region (the first choice of the new video is the next Tab), never to the page.
 */
const useFocusKeeper = (container: RefObject<HTMLElement>, changed: unknown) => {
  /** What last had focus in the player (null once focus went elsewhere on the page). */
  const last = useRef<Element | null>(null);
  useLayoutEffect(() => {
    const el = container.current!;
    const onIn = (e: FocusEvent) => {
      last.current = e.target as Element;
    };
    const onOut = (e: FocusEvent) => {
      if (e.relatedTarget && !el.contains(e.relatedTarget as Node)) last.current = null;
    };
    el.addEventListener('focusin', onIn);
    el.addEventListener('focusout', onOut);
    return () => {
      el.removeEventListener('focusin', onIn);
      el.removeEventListener('focusout', onOut);
    };
  }, [container]);
  useLayoutEffect(() => {
    const el = container.current;
    const had = last.current;
    if (!el || !had || had === el) return;
    const gone = !had.isConnected || Boolean(had.closest('[inert]'));
    const active = document.activeElement;
    if (gone && (!active || active === document.body || active === had)) el.focus({ preventScroll: true });
  }, [container, changed]);
};

/**
 * The polite live region's text and what sets it. What is said in one go (two elements' choices
 * appearing together) is joined, not lost; the same text again is said again (a non-breaking space
 * tells it from the last, or the region would not change).
 */
const useLiveRegion = (): [string, (text: string) => void] => {
  const [live, setLive] = useState('');
  const sameTurn = useRef(false);
  const announce = useCallback((text: string) => {
    const join = sameTurn.current;
    sameTurn.current = true;
    setTimeout(() => void (sameTurn.current = false), 0);
    setLive((previous) => {
      const next = join ? sentences(previous, text) : text;
      return next === previous ? `${next}\u00a0` : next;
    });
  }, []);
  return [live, announce];
};

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
  const [live, announce] = useLiveRegion();
  const [resumeAsk, setResumeAsk] = useState<LastViewState | null>(null);
  const onBranch = useFunnelStage({ payload, hooks, runtime, store, stageEl, announce, askResume: setResumeAsk });
  // Scale with the player's size.
  const box = useElementSize(container);

  useFocusKeeper(container, [state, resumeAsk]);

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
      pageKeys={!inline}
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
      {resumeAsk && (
        <ResumeDialog
          video={payload.videos.find((v) => v.editor_id === resumeAsk.editor_id)?.title ?? payload.title}
          time={resumeAsk.last_watch_time}
          onAnswer={answerResume}
        />
      )}
      <div className="bf-sr-only" role="status" aria-live="polite">
        {live}
      </div>
    </PlayerShell>
  );
};
