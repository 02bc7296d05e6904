import { useLayoutEffect, useRef, type RefObject } from 'react';
import { MESSAGES } from '@branchify/shared';
import type { ProviderEvent } from '../providers';
import type { Command, FunnelRuntime, Interaction } from '../runtime/machine';
import type { PlaybackStore } from '../runtime/playback';
import { branchTargets } from '../runtime/timeline';
import type { LastViewState, PlayerPayload, PlayerVideo } from '../runtime/types';
import { countdownAnnouncement } from './Countdown';
import { addedAnnouncement, announcement, sentences } from './Overlays';
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

interface FunnelStageOptions {
  payload: PlayerPayload;
  hooks: PlayerHooks;
  runtime: FunnelRuntime;
  store: PlaybackStore;
  /** Where the Stage draws the videos. */
  stageEl: RefObject<HTMLDivElement>;
  /** Says a text to screen readers. */
  announce: (text: string) => void;
  /** Asks the returning viewer whether to resume at their last position. */
  askResume: (last: LastViewState) => void;
}

/** What the stage's events and the viewer's clicks share. */
interface Tracking {
  /** The last time seen: a time update plays the seconds since. */
  lastTime: number;
  /** The funnel's first frame is marked. */
  firstFrame: boolean;
  /** A branch click waits for its video's first frame. */
  branchClick: boolean;
}

/** The funnel's wiring, as it is at mount. */
interface Wiring extends Omit<FunnelStageOptions, 'stageEl'> {
  stage: { readonly current: Stage | null };
  tracking: Tracking;
}

const mark = (name: string) => {
  try {
    performance.mark(`branchify:${name}`);
  } catch {
    /* marks are diagnostics only */
  }
};

/** Warms the videos the branches of `video` lead to. */
const warmFor = (w: Wiring, video: PlayerVideo) => {
  const targets = branchTargets(video, w.payload.videos).map((id) => w.payload.videos.find((v) => v.editor_id === id)!);
  w.stage.current?.warm(targets);
};

/** Puts a video on screen at a time, playing or not, then warms its branch targets. */
const show = (w: Wiring, editorId: string, time: number, autoplay: boolean) => {
  const video = w.payload.videos.find((v) => v.editor_id === editorId);
  const s = w.stage.current;
  if (!video || !s) return;
  w.tracking.lastTime = time;
  s.show(video, { time, autoplay }).then(
    () => warmFor(w, video),
    (e: Error) => {
      if (e?.message) w.store.fail(e.message);
    },
  );
};

/** A time update: to the runtime, and to the position hook with the seconds played since the last. */
const reportTime = (w: Wiring, s: Stage, time: number, video: PlayerVideo) => {
  const adapter = s.adapter;
  const isPlaying = adapter ? !adapter.paused() : false;
  const delta = time - w.tracking.lastTime;
  w.tracking.lastTime = time;
  w.runtime.timeUpdate(time, isPlaying);
  w.hooks.onPosition?.(video.editor_id, time, adapter?.duration() ?? video.duration, isPlaying && delta > 0 ? delta : 0);
};

/** Marks the funnel's first frame, and the first frame after a branch click. */
const markFrame = (tracking: Tracking) => {
  if (!tracking.firstFrame) {
    tracking.firstFrame = true;
    mark('first-frame');
  }
  if (tracking.branchClick) {
    tracking.branchClick = false;
    mark('branch-frame');
  }
};

/** The events of the video on screen. */
const onStageEvent = (w: Wiring, s: Stage, event: ProviderEvent, video: PlayerVideo) => {
  switch (event.type) {
    case 'time':
      reportTime(w, s, event.time, video);
      return;
    case 'play':
      w.runtime.resumed();
      return;
    case 'pause':
    case 'ended':
      w.hooks.onMilestone?.();
      return;
    case 'firstframe':
      markFrame(w.tracking);
  }
};

/** Follows a link: in a new tab when asked (here when that is blocked), else in this page. */
const openLink = (url: string, newTab: boolean) => {
  if (newTab) {
    const opened = window.open(url, '_blank');
    if (opened) opened.opener = null;
    else location.assign(url); // blocked as a pop-up (no click): follow it here
  } else location.assign(url);
};

/** Carries out one of the runtime's commands. */
const onCommand = (w: Wiring, command: Command) => {
  switch (command.type) {
    case 'play':
      void w.store.play();
      return;
    case 'pause':
      w.store.pause();
      return;
    case 'seek':
      w.store.seek(command.time);
      return;
    case 'load':
      show(w, command.editorId, command.time, command.autoplay);
      w.hooks.onMilestone?.();
      return;
    case 'open':
      openLink(command.url, command.newTab);
      return;
    case 'interaction':
      w.hooks.onInteraction?.(command.interaction);
      return;
    case 'announce': {
      const choices = command.added ? addedAnnouncement(command.element, command.added) : announcement(command.element);
      if (!choices) return;
      w.announce(command.waitSeconds === null ? choices : sentences(choices, countdownAnnouncement(command.element, command.waitSeconds)));
    }
  }
};

/**
 * Starts on the root video: with resume on, paused on its preview until the last position is known
 * (then asks, or plays); without, playing at once (a refused autoplay shows the play button).
 * Returns what stops it from asking or playing later.
 */
const startRoot = (w: Wiring, s: Stage, root: PlayerVideo): (() => void) => {
  const ask = w.payload.settings.enable_resume_play && w.hooks.resume ? w.hooks.resume : null;
  const initial = s.show(root, { autoplay: !ask });
  initial.then(
    () => warmFor(w, root),
    (e: Error) => {
      warmFor(w, root);
      w.store.fail(e?.message || MESSAGES.playerLoadFailed);
    },
  );
  let cancelled = false;
  void Promise.all([initial, ask]).then(
    ([, last]) => {
      if (!ask) return;
      if (cancelled) return;
      if (last && w.payload.videos.some((v) => v.editor_id === last.editor_id) && last.last_watch_time > 0) w.askResume(last);
      else void w.store.play();
    },
    () => undefined,
  );
  return () => {
    cancelled = true;
  };
};

/**
 * The video layer (a Stage in `stageEl`) wired to the funnel's runtime and playback store: the
 * runtime's commands, the video's events, the start on the root video. Returns the branch click.
 */
export const useFunnelStage = ({ payload, hooks, runtime, store, stageEl, announce, askResume }: FunnelStageOptions) => {
  const stage = useRef<Stage | null>(null);
  const tracking = useRef<Tracking>({ lastTime: 0, firstFrame: false, branchClick: false });

  // A layout effect: the root video starts loading as soon as the stage element exists, not after
  // the first paint (a passive effect waits for the next frame).
  useLayoutEffect(() => {
    const w: Wiring = { payload, hooks, runtime, store, announce, askResume, stage, tracking: tracking.current };
    const s = new Stage(stageEl.current!, store, (event, video) => onStageEvent(w, s, event, video));
    stage.current = s;
    // A seek from the controls, the keyboard or the resume answer: the runtime jumps there too.
    const offSeek = store.onSeek((time) => runtime.timeUpdate(time, false));
    const off = runtime.onCommand((command: Command) => onCommand(w, command));
    const stop = () => {
      off();
      offSeek();
      s.destroy();
      store.destroy();
      runtime.destroy();
    };
    const root = runtime.getState().video;
    if (!root) {
      store.fail(MESSAGES.couldntGetPlayer);
      return stop;
    }
    const cancel = startRoot(w, s, root);
    return () => {
      cancel();
      stop();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one stage per runtime; the payload and callbacks are read once at mount
  }, [runtime, store]);

  /** A branch click, marked; its video's first frame is marked too when it does branch. */
  return (elementId: string, branchId: string) => {
    tracking.current.branchClick = true;
    mark('branch-click');
    const action = runtime.click(elementId, branchId);
    if (action.kind !== 'branch') tracking.current.branchClick = false;
  };
};
