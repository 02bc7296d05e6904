import { FADE_OUT_MS, branchAction, inactionAction, isWithin, pauseSeconds, startVideo, type BranchAction, type InactionAction } from './timeline';
import type { Branch, BranchElement, FunnelElement, PlayerPayload, PlayerVideo } from './types';
import { branchApplies, elementApplies, inactionApplies, presentElement } from './conditions';
import type { FunnelLogic } from './logic-hooks';

/** Time as the runtime sees it: real in the browser, fake in the unit tests. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ShownElement {
  element: FunnelElement;
  /** Left its time window (or was dismissed): still drawn, fading out, removed after 500 ms. */
  fading: boolean;
}

export interface RuntimeState {
  video: PlayerVideo | null;
  time: number;
  shown: readonly ShownElement[];
  /** The video is paused while a branch element waits for a choice. */
  waiting: Waiting | null;
}

/** A branch element's wait for a choice, after which its default (inaction) path is taken. */
export interface Waiting {
  elementId: string;
  /** When the default is taken (while the countdown runs). */
  endsAt: number;
  /** Milliseconds left while the viewer has paused the countdown; null while it runs. */
  pausedLeft: number | null;
}

/** What one "More time" adds to a wait. */
export const WAIT_EXTENSION_SECONDS = 30;

export interface Interaction {
  video_id: string;
  node_id: string;
  connected_node: string | null;
  /** 'branch': the viewer chose it; 'inaction': the element's default took it when the wait ended. */
  type: 'branch' | 'inaction';
  player_time: number;
  /** An inaction: whether the viewer had paused the countdown before it ran out. */
  countdown_paused?: boolean;
  /** The funnel's variables after it (funnels that declare some). */
  variables?: Record<string, string | number | boolean>;
}

/** What the runtime asks the player (provider, window, analytics) to do. */
export type Command =
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'seek'; time: number }
  | { type: 'load'; editorId: string; time: number; autoplay: boolean }
  | { type: 'open'; url: string; newTab: boolean }
  | { type: 'interaction'; interaction: Interaction }
  /**
   * Choices appeared: the element's (as shown, only its visible branches) or, with `added`, those of
   * an element already on screen whose conditions now hold. `waitSeconds`: the video waits that
   * long for a choice, else null.
   */
  | { type: 'announce'; element: BranchElement; waitSeconds: number | null; added?: readonly Branch[] };

export interface RuntimeOptions {
  clock?: Clock;
  /** The page's origin, to tell external links from our own. */
  origin?: string;
  /** The funnel's variables and conditions, when it uses them. */
  logic?: FunnelLogic;
}

/** A jump in time larger than this between two updates is a seek, not playback. */
const CONTINUOUS_SECONDS = 1.5;

/**
 * The player's state machine, free of any framework or DOM: which elements are visible at the
 * current time (and which are fading out), what a branch click, a skip or the end of a wait does.
 * The view feeds it time updates and clicks and carries out the commands it emits.
 */
export class FunnelRuntime {
  private readonly clock: Clock;
  private readonly origin: string;
  private state: RuntimeState;
  private readonly listeners = new Set<() => void>();
  private readonly commandListeners = new Set<(command: Command) => void>();
  private readonly fadeTimers = new Map<string, unknown>();
  /** Elements that entered during this pass through their window (their pause has fired). */
  private readonly entered = new Set<string>();
  /** Elements the viewer answered, skipped or that took their inaction: hidden for this pass. */
  private readonly dismissed = new Set<string>();
  /** The branches each entered branch element showed at the last sync (conditions may add some later). */
  private readonly visibleChoices = new Map<string, ReadonlySet<string>>();
  private waitTimer: unknown = null;
  /** The viewer paused the current wait's countdown at some point (recorded with its inaction). */
  private waitPaused = false;
  private readonly logic: FunnelLogic | null;
  private offLogic: (() => void) | null = null;

  constructor(
    private readonly payload: PlayerPayload,
    options: RuntimeOptions = {},
  ) {
    this.clock = options.clock ?? realClock;
    this.origin = options.origin ?? 'http://localhost';
    this.state = { video: startVideo(payload), time: 0, shown: [], waiting: null };
    this.logic = options.logic ?? null;
    this.offLogic = this.logic?.subscribe(() => this.valuesChanged()) ?? null;
  }

  getState = (): RuntimeState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  onCommand(listener: (command: Command) => void): () => void {
    this.commandListeners.add(listener);
    return () => this.commandListeners.delete(listener);
  }

  get videos(): readonly PlayerVideo[] {
    return this.payload.videos;
  }

  /** Switches to a video of the funnel (the start, a branch target, or the resume position). */
  goTo(editorId: string, time = 0, autoplay = true): boolean {
    const video = this.payload.videos.find((v) => v.editor_id === editorId);
    if (!video) return false;
    this.cancelWait();
    this.clearFades();
    this.entered.clear();
    this.dismissed.clear();
    this.visibleChoices.clear();
    this.set({ video, time, shown: [], waiting: null });
    this.emit({ type: 'load', editorId, time, autoplay });
    this.sync(time, false);
    return true;
  }

  /** A time update from the provider. `playing`: the video is advancing (not a paused seek). */
  timeUpdate(time: number, playing = true): void {
    const previous = this.state.time;
    const continuous = playing && time >= previous && time - previous <= CONTINUOUS_SECONDS;
    if (!continuous) this.rewind(time);
    const video = this.state.video;
    if (!video) return;
    if (continuous) {
      // Branch elements whose window playback just ran past without a choice: inaction.
      for (const element of video.elements) {
        if (element.type !== 'branch' || this.dismissed.has(element.id) || !this.entered.has(element.id)) continue;
        if (previous <= element.hideAt && time > element.hideAt && pauseSeconds(element) === null) {
          this.dismissed.add(element.id);
          this.takeInaction(element, time);
          if (this.state.video !== video) return;
        }
      }
    }
    this.sync(time, playing);
  }

  /** The viewer clicked (or pressed Enter/Space on) one of a branch element's branches. */
  click(elementId: string, branchId: string): BranchAction {
    const element = this.findElement(elementId);
    const branch = element?.type === 'branch' ? element.data.branches.find((b) => b.id === branchId) : undefined;
    if (!element || element.type !== 'branch' || !branch || !branchApplies(branch, this.logic)) return { kind: 'none' };
    const action = branchAction(branch, element, this.payload.videos, this.origin);
    this.logic?.apply(branch.set);
    this.record(branch.id, action, 'branch');
    const wasWaiting = this.state.waiting?.elementId === elementId;
    if (action.kind === 'url' && action.newTab) {
      // A link out in another tab is not a choice of path: the element and its other branches stay
      // where they were for when the viewer comes back. A wait ends (no default is taken while
      // the viewer reads the other tab); the video stays paused until they press play.
      if (wasWaiting) this.resumed();
      this.perform(action, false);
      return action;
    }
    this.dismiss(element);
    this.perform(action, wasWaiting);
    return action;
  }

  /** The skip button: dismiss the element and carry on playing. */
  skip(elementId: string): void {
    const element = this.findElement(elementId);
    if (!element) return;
    const wasWaiting = this.state.waiting?.elementId === elementId;
    this.dismiss(element);
    if (wasWaiting) this.emit({ type: 'play' });
  }

  /** The viewer pressed play during a wait: the wait is over, the choices stay on screen. */
  resumed(): void {
    if (this.state.waiting) {
      this.cancelWait();
      this.waitPaused = false;
      this.set({ ...this.state, waiting: null });
    }
  }

  /** The viewer paused the countdown: the default path waits until they resume it (or choose). */
  pauseWait(): void {
    const waiting = this.state.waiting;
    if (!waiting || waiting.pausedLeft !== null) return;
    this.cancelWait();
    this.waitPaused = true;
    this.set({ ...this.state, waiting: { ...waiting, pausedLeft: Math.max(0, waiting.endsAt - this.clock.now()) } });
  }

  /** The countdown runs on from where it was paused. */
  resumeWait(): void {
    const waiting = this.state.waiting;
    if (!waiting || waiting.pausedLeft === null) return;
    this.startWaitTimer(waiting.elementId, waiting.pausedLeft);
    this.set({ ...this.state, waiting: { ...waiting, endsAt: this.clock.now() + waiting.pausedLeft, pausedLeft: null } });
  }

  /** More time: the wait gets `seconds` longer, paused or running. */
  extendWait(seconds = WAIT_EXTENSION_SECONDS): void {
    const waiting = this.state.waiting;
    if (!waiting) return;
    const more = seconds * 1000;
    if (waiting.pausedLeft !== null) {
      this.set({ ...this.state, waiting: { ...waiting, pausedLeft: waiting.pausedLeft + more } });
      return;
    }
    const left = Math.max(0, waiting.endsAt - this.clock.now()) + more;
    this.cancelWait();
    this.startWaitTimer(waiting.elementId, left);
    this.set({ ...this.state, waiting: { ...waiting, endsAt: this.clock.now() + left } });
  }

  destroy(): void {
    this.offLogic?.();
    this.cancelWait();
    this.clearFades();
    this.listeners.clear();
    this.commandListeners.clear();
  }

  // --- internals ---------------------------------------------------------------------------

  private perform(action: BranchAction | { kind: 'continue' }, resume: boolean): void {
    switch (action.kind) {
      case 'branch':
        this.goTo(action.editorId, 0, true);
        return;
      case 'url':
        this.emit({ type: 'open', url: action.url, newTab: action.newTab });
        return;
      case 'seek':
        this.emit({ type: 'seek', time: action.time });
        this.rewind(action.time);
        this.sync(action.time, false);
        this.emit({ type: 'play' });
        return;
      case 'continue':
        if (resume) this.emit({ type: 'play' });
        return;
      case 'none':
        if (resume) this.emit({ type: 'play' });
    }
  }

  private takeInaction(element: BranchElement, time: number): void {
    this.fadeOut(element.id, time);
    const action: InactionAction = inactionApplies(element, this.logic) ? inactionAction(element, this.payload.videos, this.origin) : { kind: 'continue' };
    // A default that takes one of the element's branches is recorded as that branch, by inaction.
    const branch = element.data.branches.find((b) => b.id === element.data.settings?.inaction);
    if (branch && action.kind !== 'continue') this.logic?.apply(branch.set);
    if (branch && action.kind !== 'continue') this.record(branch.id, action, 'inaction', this.waitPaused);
    this.waitPaused = false;
    this.perform(action, true);
  }

  private record(nodeId: string, action: InactionAction, type: Interaction['type'], countdownPaused = false): void {
    const video = this.state.video;
    if (!video) return;
    this.emit({
      type: 'interaction',
      interaction: {
        video_id: video.editor_id,
        node_id: nodeId,
        connected_node:
          action.kind === 'branch' ? action.editorId : action.kind === 'url' ? action.url : action.kind === 'seek' ? `timestamp:${action.time}` : null,
        type,
        player_time: round(this.state.time),
        ...(type === 'inaction' ? { countdown_paused: countdownPaused } : {}),
        ...(this.logic ? { variables: { ...this.logic.values() } } : {}),
      },
    });
  }

  /** After a jump: elements whose window starts after the new time may show (and pause) again. */
  private rewind(time: number): void {
    const video = this.state.video;
    if (!video) return;
    for (const element of video.elements) {
      if (time < element.showAt || time > element.hideAt) {
        this.entered.delete(element.id);
        this.dismissed.delete(element.id);
        this.visibleChoices.delete(element.id);
      }
    }
    if (this.state.waiting) {
      const waiting = this.findElement(this.state.waiting.elementId);
      if (!waiting || !isWithin(waiting, time)) {
        this.cancelWait();
        this.state = { ...this.state, waiting: null };
      }
    }
  }

  private sync(time: number, playing: boolean): void {
    const video = this.state.video;
    if (!video) return;
    const shownById = new Map(this.state.shown.map((s) => [s.element.id, s]));
    const next: ShownElement[] = [];
    let waiting = this.state.waiting;
    const entering: FunnelElement[] = [];
    const appearing: Array<{ element: BranchElement; added: Branch[] }> = [];
    for (const element of video.elements) {
      const inside = isWithin(element, time) && !this.dismissed.has(element.id) && elementApplies(element, this.logic);
      const current = shownById.get(element.id);
      if (inside) {
        if (current?.fading) this.cancelFade(element.id);
        const shown = presentElement(element, this.logic);
        next.push({ element: shown, fading: false });
        if (!this.entered.has(element.id)) {
          this.entered.add(element.id);
          entering.push(shown);
        } else if (shown.type === 'branch') {
          // Choices whose conditions have come to hold since the last sync are news too.
          const before = this.visibleChoices.get(element.id);
          const added = shown.data.branches.filter((b) => !before?.has(b.id));
          if (added.length) appearing.push({ element: shown, added: before?.size ? added : [] });
        }
        if (shown.type === 'branch') this.visibleChoices.set(element.id, new Set(shown.data.branches.map((b) => b.id)));
      } else if (current) {
        if (!current.fading) this.startFade(element.id);
        next.push({ element: current.element, fading: true });
      }
    }
    this.set({ video, time, shown: next, waiting });
    for (const element of entering) {
      if (element.type !== 'branch') continue;
      const seconds = pauseSeconds(element);
      const waits = seconds !== null && playing && !this.state.waiting;
      // An element whose choices are all hidden by their conditions has nothing to say (yet).
      if (element.data.branches.length) this.emit({ type: 'announce', element, waitSeconds: waits ? seconds : null });
      if (waits) {
        waiting = { elementId: element.id, endsAt: this.clock.now() + seconds * 1000, pausedLeft: null };
        this.waitPaused = false;
        this.startWaitTimer(element.id, seconds * 1000);
        this.set({ ...this.state, waiting });
        this.emit({ type: 'pause' });
      }
    }
    // An element that showed no choice announces itself whole; one that did, what it gained.
    for (const { element, added } of appearing) this.emit({ type: 'announce', element, waitSeconds: null, ...(added.length ? { added } : {}) });
  }

  private endWait(elementId: string): void {
    this.waitTimer = null;
    if (this.state.waiting?.elementId !== elementId) return;
    const element = this.findElement(elementId);
    this.set({ ...this.state, waiting: null });
    if (!element || element.type !== 'branch') return;
    this.dismissed.add(element.id);
    this.takeInaction(element, this.state.time);
  }

  private dismiss(element: FunnelElement): void {
    this.dismissed.add(element.id);
    if (this.state.waiting?.elementId === element.id) {
      this.cancelWait();
      this.state = { ...this.state, waiting: null };
    }
    this.fadeOut(element.id, this.state.time);
  }

  private fadeOut(elementId: string, time: number): void {
    if (!this.state.shown.some((s) => s.element.id === elementId && !s.fading)) return;
    this.startFade(elementId);
    this.set({ ...this.state, time, shown: this.state.shown.map((s) => (s.element.id === elementId ? { ...s, fading: true } : s)) });
  }

  private startFade(elementId: string): void {
    this.cancelFade(elementId);
    this.fadeTimers.set(
      elementId,
      this.clock.setTimeout(() => {
        this.fadeTimers.delete(elementId);
        this.set({ ...this.state, shown: this.state.shown.filter((s) => !(s.element.id === elementId && s.fading)) });
      }, FADE_OUT_MS),
    );
  }

  private cancelFade(elementId: string): void {
    const timer = this.fadeTimers.get(elementId);
    if (timer !== undefined) this.clock.clearTimeout(timer);
    this.fadeTimers.delete(elementId);
  }

  private clearFades(): void {
    for (const timer of this.fadeTimers.values()) this.clock.clearTimeout(timer);
    this.fadeTimers.clear();
  }

  private startWaitTimer(elementId: string, ms: number): void {
    this.waitTimer = this.clock.setTimeout(() => this.endWait(elementId), ms);
  }

  private cancelWait(): void {
    if (this.waitTimer !== null) this.clock.clearTimeout(this.waitTimer);
    this.waitTimer = null;
  }

  /** New values: elements and branches whose conditions changed show or leave, texts are filled in again. */
  private valuesChanged(): void {
    const waiting = this.state.waiting ? this.findElement(this.state.waiting.elementId) : undefined;
    if (waiting && !elementApplies(waiting, this.logic)) {
      // The element waited on no longer applies: no choice is left to wait for.
      this.cancelWait();
      this.state = { ...this.state, waiting: null };
      this.emit({ type: 'play' });
    }
    this.sync(this.state.time, false);
  }

  private findElement(elementId: string): FunnelElement | undefined {
    return this.state.video?.elements.find((e) => e.id === elementId);
  }

  private set(state: RuntimeState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }

  private emit(command: Command): void {
    for (const listener of [...this.commandListeners]) listener(command);
  }
}

const round = (n: number) => Math.round(n * 1000) / 1000;
