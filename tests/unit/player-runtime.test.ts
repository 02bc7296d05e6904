import { rootVideo } from '@branchify/shared';
import { FunnelRuntime, WAIT_EXTENSION_SECONDS, type Clock, type Command } from '../../player/src/runtime/machine';
import {
  FADE_OUT_MS,
  branchAction,
  branchTargets,
  hasSkip,
  inactionAction,
  isWithin,
  pauseSeconds,
  safeHttpUrl,
  startVideo,
  timestampSeconds,
  visibleAt,
} from '../../player/src/runtime/timeline';
import type { BranchElement, FunnelElement, PlayerPayload, PlayerVideo } from '../../player/src/runtime/types';

/** A clock whose time only moves when the test says so. */
class FakeClock implements Clock {
  private t = 1_000_000;
  private seq = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  now = () => this.t;
  setTimeout = (fn: () => void, ms: number) => {
    this.seq += 1;
    this.timers.set(this.seq, { at: this.t + ms, fn });
    return this.seq;
  };
  clearTimeout = (handle: unknown) => {
    this.timers.delete(handle as number);
  };
  advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
  get pending() {
    return this.timers.size;
  }
}

const ORIGIN = 'https://funnels.example.com';

const text = (id: string, showAt: number, hideAt: number, extra: Partial<FunnelElement> = {}): FunnelElement =>
  ({
    id,
    type: 'text',
    showAt,
    hideAt,
    active: true,
    skip: false,
    position: { top: 0, left: 0 },
    player: { width: 640, height: 360 },
    width: null,
    data: { name: 'text', title: id, fontSize: 2, fontFamily: 'Abel', fontThickness: 'regular', color: '#fff', settings: { showSkip: { show: false } } },
    ...extra,
  }) as unknown as FunnelElement;

type BranchSpec = {
  id: string;
  onclick?: 'branch' | 'url' | 'timestamp';
  video?: string | null;
  externalLink?: string | null;
  timestamp?: { hours: number; minutes: number; seconds: number };
};
const branchEl = (
  id: string,
  showAt: number,
  hideAt: number,
  branches: BranchSpec[],
  settings: Record<string, unknown> = {},
  extra: Partial<FunnelElement> = {},
): BranchElement =>
  ({
    id,
    type: 'branch',
    showAt,
    hideAt,
    active: true,
    skip: false,
    position: { top: 0, left: 0 },
    player: { width: 640, height: 360 },
    width: null,
    data: {
      name: 'branch',
      branches: branches.map((b) => ({
        name: b.id,
        type: 'standard',
        onclick: 'branch',
        video: null,
        externalLink: null,
        timestamp: { hours: 0, minutes: 0, seconds: 0 },
        standard: { text: b.id },
        ...b,
      })),
      settings: {
        externalLink: true,
        inaction: 'skip-and-continue',
        pauseVideo: { enabled: false, duration: 10 },
        showSkip: { show: false },
        animation: 'none',
        ...settings,
      },
      prompt: { text: 'Choose' },
      overlay: { enabled: false },
    },
    ...extra,
  }) as unknown as BranchElement;

const video = (editor_id: string, elements: FunnelElement[] = []): PlayerVideo => ({
  editor_id,
  title: editor_id,
  provider: 'generic',
  external_id: null,
  embed_url: `https://cdn.example.com/${editor_id}.mp4`,
  source_url: `https://cdn.example.com/${editor_id}.mp4`,
  thumbnail: null,
  duration: 60,
  elements,
});

const payload = (videos: PlayerVideo[], root: string | null = null): PlayerPayload => ({
  identifier: 'ref',
  title: 'Funnel',
  description: '',
  settings: { enable_resume_play: false },
  version: 1,
  root_editor_id: root,
  videos,
  app: { name: 'branchify', favicon_url: null, logo_url: null, color_scheme: null },
});

const setup = (videos: PlayerVideo[], root: string | null = null) => {
  const clock = new FakeClock();
  const runtime = new FunnelRuntime(payload(videos, root), { clock, origin: ORIGIN });
  const commands: Command[] = [];
  runtime.onCommand((c) => commands.push(c));
  const shown = () => runtime.getState().shown.map((s) => `${s.element.id}${s.fading ? '~' : ''}`);
  const of = <T extends Command['type']>(type: T) => commands.filter((c): c is Extract<Command, { type: T }> => c.type === type);
  /** Plays from `from` to `to` in steps of 0.25 s, as a provider reports time. */
  const play = (from: number, to: number) => {
    for (let t = from; t <= to + 1e-9; t += 0.25) {
      runtime.timeUpdate(Math.round(t * 100) / 100, true);
      clock.advance(250);
    }
  };
  return { clock, runtime, commands, shown, of, play };
};

describe('visibility', () => {
  it('shows an element while the time is within showAt..hideAt, inclusive', () => {
    const el = text('t', 2, 5);
    expect([1.99, 2, 3.5, 5, 5.01].map((t) => isWithin(el, t))).toEqual([false, true, true, true, false]);
    expect(isWithin({ ...el, active: false } as FunnelElement, 3)).toBe(false);
    expect(visibleAt([text('a', 0, 2), text('b', 1, 3), text('c', 4, 6)], 1.5).map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('marks an element that leaves its window as fading and removes it after 500 ms', () => {
    const { runtime, clock, shown } = setup([video('v', [text('t', 1, 2)])]);
    runtime.timeUpdate(0.5);
    expect(shown()).toEqual([]);
    runtime.timeUpdate(1.2);
    expect(shown()).toEqual(['t']);
    runtime.timeUpdate(2.2);
    expect(shown()).toEqual(['t~']);
    // A fading element is removed 500 ms later.
    clock.advance(499);
    expect(shown()).toEqual(['t~']);
    clock.advance(1);
    expect(shown()).toEqual([]);
  });

  it('brings a fading element back when the time returns into its window', () => {
    const { runtime, clock, shown } = setup([video('v', [text('t', 1, 2)])]);
    runtime.timeUpdate(1.5);
    runtime.timeUpdate(2.5);
    expect(shown()).toEqual(['t~']);
    runtime.timeUpdate(1.8, false);
    expect(shown()).toEqual(['t']);
    clock.advance(1000);
    expect(shown()).toEqual(['t']);
  });
});

describe('root video', () => {
  it('is the first video no branch points to, otherwise the first; root_editor_id wins when valid', () => {
    const a = video('a', [branchEl('e', 0, 5, [{ id: 'x', video: 'b' }])]);
    const b = video('b', [branchEl('f', 0, 5, [{ id: 'y', video: 'c' }])]);
    const c = video('c');
    expect(rootVideo([b, c, a])?.editor_id).toBe('a');
    // A cycle: everyone is a target, so the first video.
    const cyc1 = video('p', [branchEl('e', 0, 5, [{ id: 'x', video: 'q' }])]);
    const cyc2 = video('q', [branchEl('f', 0, 5, [{ id: 'y', video: 'p' }])]);
    expect(rootVideo([cyc2, cyc1])?.editor_id).toBe('q');
    // A branch to itself does not make a video a target.
    const self = video('s', [branchEl('e', 0, 5, [{ id: 'x', video: 's' }])]);
    expect(rootVideo([a, self])?.editor_id).toBe('a');
    expect(rootVideo([])).toBeNull();
    expect(startVideo({ videos: [a, b, c], root_editor_id: 'c' })?.editor_id).toBe('c');
    expect(startVideo({ videos: [b, a, c], root_editor_id: 'gone' })?.editor_id).toBe('a');
  });

  it('the runtime starts on the root video', () => {
    const { runtime } = setup([video('b', [branchEl('f', 0, 5, [{ id: 'y', video: 'c' }])]), video('c')]);
    expect(runtime.getState().video?.editor_id).toBe('b');
  });
});

describe('branch clicks', () => {
  const funnel = () => [
    video('intro', [
      branchEl('choice', 1, 8, [
        { id: 'to-next', onclick: 'branch', video: 'next' },
        { id: 'offer', onclick: 'url', externalLink: 'https://shop.example.org/buy' },
        { id: 'local', onclick: 'url', externalLink: `${ORIGIN}/pricing` },
        { id: 'jump', onclick: 'timestamp', timestamp: { hours: 0, minutes: 1, seconds: 5 } },
        { id: 'nowhere', onclick: 'branch', video: 'missing' },
        { id: 'evil', onclick: 'url', externalLink: 'javascript:alert(1)' },
      ]),
    ]),
    video('next', [text('n1', 0, 3)]),
  ];

  it('branch: switches to the target video, autoplays, and records the interaction', () => {
    const { runtime, of, shown } = setup(funnel());
    runtime.timeUpdate(2);
    expect(shown()).toEqual(['choice']);
    expect(runtime.click('choice', 'to-next')).toEqual({ kind: 'branch', editorId: 'next' });
    expect(runtime.getState().video?.editor_id).toBe('next');
    expect(of('load')).toEqual([{ type: 'load', editorId: 'next', time: 0, autoplay: true }]);
    expect(of('interaction')[0]!.interaction).toEqual({ video_id: 'intro', node_id: 'to-next', connected_node: 'next', type: 'branch', player_time: 2 });
    expect(shown()).toEqual(['n1']);
  });

  it('url: opens it, in a new tab for external links (and by default)', () => {
    const { runtime, of } = setup(funnel());
    runtime.timeUpdate(2);
    runtime.click('choice', 'offer');
    expect(of('open')).toEqual([{ type: 'open', url: 'https://shop.example.org/buy', newTab: true }]);
    expect(of('interaction')[0]!.interaction.connected_node).toBe('https://shop.example.org/buy');
  });

  it('url in a new tab: the element and its other branches stay, and a seek back still shows them', () => {
    const { runtime, of, shown, clock } = setup(funnel());
    runtime.timeUpdate(2);
    runtime.click('choice', 'offer');
    expect(of('open')).toHaveLength(1);
    clock.advance(1000);
    expect(shown()).toEqual(['choice']);
    runtime.timeUpdate(6, false);
    runtime.timeUpdate(1.5, false);
    expect(shown()).toEqual(['choice']);
    expect(runtime.click('choice', 'to-next')).toEqual({ kind: 'branch', editorId: 'next' });
    expect(runtime.getState().video?.editor_id).toBe('next');
  });

  it('url in a new tab during a wait: the wait ends without its default, the choices stay, the video stays paused', () => {
    const videos = funnel();
    const el = videos[0]!.elements[0] as BranchElement;
    el.data.settings = { ...el.data.settings, pauseVideo: { enabled: true, duration: 10, showCountdown: true }, inaction: 'to-next' };
    const { runtime, of, shown, clock, play } = setup(videos);
    play(0.5, 1.25);
    expect(runtime.getState().waiting?.elementId).toBe('choice');
    runtime.click('choice', 'offer');
    expect(runtime.getState().waiting).toBeNull();
    clock.advance(20_000);
    expect(runtime.getState().video?.editor_id).toBe('intro');
    expect(shown()).toEqual(['choice']);
    expect(of('play')).toEqual([]);
  });

  it('url on our own origin opens in the same tab only when the element turns new tabs off', () => {
    const videos = funnel();
    const el = videos[0]!.elements[0] as BranchElement;
    const sameTab = { ...el, data: { ...el.data, settings: { ...el.data.settings, externalLink: false } } } as BranchElement;
    const local = el.data.branches.find((b) => b.id === 'local')!;
    const offer = el.data.branches.find((b) => b.id === 'offer')!;
    expect(branchAction(local, el, videos, ORIGIN)).toEqual({ kind: 'url', url: `${ORIGIN}/pricing`, newTab: true });
    expect(branchAction(local, sameTab, videos, ORIGIN)).toEqual({ kind: 'url', url: `${ORIGIN}/pricing`, newTab: false });
    expect(branchAction(offer, sameTab, videos, ORIGIN)).toEqual({ kind: 'url', url: 'https://shop.example.org/buy', newTab: true });
  });

  it('timestamp: seeks the current video and plays on', () => {
    const { runtime, of } = setup(funnel());
    runtime.timeUpdate(2);
    expect(runtime.click('choice', 'jump')).toEqual({ kind: 'seek', time: 65 });
    expect(of('seek')).toEqual([{ type: 'seek', time: 65 }]);
    expect(of('play')).toHaveLength(1);
    expect(runtime.getState().video?.editor_id).toBe('intro');
    expect(timestampSeconds({ hours: 1, minutes: 2, seconds: 3 })).toBe(3723);
  });

  it('does nothing for a target outside the funnel or an unsafe URL, and ignores unknown ids', () => {
    const { runtime, of } = setup(funnel());
    runtime.timeUpdate(2);
    expect(runtime.click('choice', 'nowhere')).toEqual({ kind: 'none' });
    expect(runtime.click('nope', 'to-next')).toEqual({ kind: 'none' });
    expect(of('load')).toHaveLength(0);
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl('data:text/html,x')).toBeNull();
    const el = funnel()[0]!.elements[0] as BranchElement;
    expect(branchAction(el.data.branches.find((b) => b.id === 'evil')!, el, funnel(), ORIGIN)).toEqual({ kind: 'none' });
  });

  it('the clicked element fades out and stays dismissed until the time goes back before it', () => {
    const { runtime, clock, shown } = setup(funnel());
    runtime.timeUpdate(2);
    runtime.click('choice', 'nowhere');
    expect(shown()).toEqual(['choice~']);
    clock.advance(FADE_OUT_MS);
    runtime.timeUpdate(2.25);
    expect(shown()).toEqual([]);
    runtime.timeUpdate(0.5, false);
    runtime.timeUpdate(1.5, false);
    expect(shown()).toEqual(['choice']);
  });
});

describe('pause while waiting and inaction', () => {
  const waitingFunnel = (inaction: string, duration = 12) => [
    video('intro', [
      branchEl(
        'ask',
        1,
        8,
        [
          { id: 'yes', onclick: 'branch', video: 'next' },
          { id: 'site', onclick: 'url', externalLink: 'https://example.org/' },
        ],
        { pauseVideo: { enabled: true, duration }, inaction },
      ),
    ]),
    video('next'),
  ];

  it('pauses when the element appears during playback and waits pauseVideo.duration seconds', () => {
    const { runtime, clock, of } = setup(waitingFunnel('skip-and-continue', 12));
    runtime.timeUpdate(0.8);
    runtime.timeUpdate(1.05);
    expect(of('pause')).toHaveLength(1);
    expect(runtime.getState().waiting).toEqual({ elementId: 'ask', endsAt: clock.now() + 12_000, pausedLeft: null });
    clock.advance(11_999);
    expect(of('play')).toHaveLength(0);
    clock.advance(1);
    // skip-and-continue: plays on, the element is gone.
    expect(of('play')).toHaveLength(1);
    expect(runtime.getState().waiting).toBeNull();
    expect(runtime.getState().shown.map((s) => s.fading)).toEqual([true]);
    clock.advance(FADE_OUT_MS);
    runtime.timeUpdate(1.3);
    expect(runtime.getState().shown).toEqual([]);
  });

  it('enforces the 10 s minimum and ignores a disabled pause', () => {
    expect(pauseSeconds(waitingFunnel('skip-and-continue', 3)[0]!.elements[0]!)).toBe(10);
    expect(pauseSeconds(branchEl('x', 0, 1, [], { pauseVideo: { enabled: false, duration: 30 } }))).toBeNull();
    expect(pauseSeconds(text('t', 0, 1))).toBeNull();
  });

  it('inaction with a URL opens it when the wait ends', () => {
    const { runtime, clock, of } = setup(waitingFunnel('https://example.com/after'));
    runtime.timeUpdate(1.1);
    clock.advance(12_000);
    expect(of('open')).toEqual([{ type: 'open', url: 'https://example.com/after', newTab: true }]);
  });

  it('inaction with a branch id acts as that branch and records it as taken by inaction (not a click)', () => {
    const { runtime, clock, of } = setup(waitingFunnel('yes'));
    runtime.timeUpdate(1.1);
    clock.advance(12_000);
    expect(runtime.getState().video?.editor_id).toBe('next');
    expect(of('load')).toEqual([{ type: 'load', editorId: 'next', time: 0, autoplay: true }]);
    expect(of('interaction')).toEqual([
      { type: 'interaction', interaction: expect.objectContaining({ node_id: 'yes', connected_node: 'next', type: 'inaction' }) },
    ]);
  });

  it('an unusable inaction (unknown id, unsafe URL) carries on', () => {
    const el = waitingFunnel('javascript:alert(1)')[0]!.elements[0] as BranchElement;
    expect(inactionAction(el, [], ORIGIN)).toEqual({ kind: 'continue' });
  });

  it('a click during the wait cancels it', () => {
    const { runtime, clock, of } = setup(waitingFunnel('https://example.com/after'));
    runtime.timeUpdate(1.1);
    runtime.click('ask', 'yes');
    clock.advance(60_000);
    expect(of('open')).toHaveLength(0);
    expect(runtime.getState().video?.editor_id).toBe('next');
  });

  it('announces how long it waits with the choices (and no wait for an element reached paused)', () => {
    const { runtime, of } = setup(waitingFunnel('yes', 20));
    runtime.timeUpdate(1.1);
    expect(of('announce').map((c) => [c.element.id, c.waitSeconds])).toEqual([['ask', 20]]);
    const paused = setup(waitingFunnel('yes', 20));
    paused.runtime.timeUpdate(2, false);
    expect(paused.of('announce').map((c) => c.waitSeconds)).toEqual([null]);
  });

  it('a paused countdown never ends the wait; resumed, it runs on from the time it had left', () => {
    const { runtime, clock, of } = setup(waitingFunnel('yes', 12));
    runtime.timeUpdate(1.1);
    clock.advance(4_000);
    runtime.pauseWait();
    expect(runtime.getState().waiting).toEqual({ elementId: 'ask', endsAt: expect.any(Number), pausedLeft: 8_000 });
    clock.advance(10 * 60_000);
    expect(runtime.getState().video?.editor_id).toBe('intro');
    expect(of('interaction')).toHaveLength(0);
    runtime.pauseWait();
    runtime.resumeWait();
    expect(runtime.getState().waiting).toEqual({ elementId: 'ask', endsAt: clock.now() + 8_000, pausedLeft: null });
    clock.advance(7_999);
    expect(runtime.getState().video?.editor_id).toBe('intro');
    clock.advance(1);
    expect(runtime.getState().video?.editor_id).toBe('next');
    // The inaction says the countdown was paused.
    expect(of('interaction').map((c) => c.interaction)).toEqual([expect.objectContaining({ node_id: 'yes', type: 'inaction', countdown_paused: true })]);
  });

  it('More time adds 30 s to a running or a paused countdown', () => {
    const { runtime, clock, of } = setup(waitingFunnel('yes', 12));
    runtime.timeUpdate(1.1);
    clock.advance(10_000);
    runtime.extendWait();
    expect(runtime.getState().waiting?.endsAt).toBe(clock.now() + 2_000 + WAIT_EXTENSION_SECONDS * 1000);
    clock.advance(31_999);
    expect(runtime.getState().video?.editor_id).toBe('intro');
    runtime.pauseWait();
    runtime.extendWait();
    expect(runtime.getState().waiting?.pausedLeft).toBe(1 + WAIT_EXTENSION_SECONDS * 1000);
    runtime.resumeWait();
    clock.advance(WAIT_EXTENSION_SECONDS * 1000 + 1);
    expect(runtime.getState().video?.editor_id).toBe('next');
    expect(of('interaction').map((c) => c.interaction.countdown_paused)).toEqual([true]);
  });

  it('an inaction whose countdown ran untouched says so; a click carries no countdown field; without a wait the controls do nothing', () => {
    const first = setup(waitingFunnel('yes', 12));
    first.runtime.timeUpdate(1.1);
    first.clock.advance(12_000);
    expect(first.of('interaction').map((c) => c.interaction.countdown_paused)).toEqual([false]);
    const second = setup(waitingFunnel('yes', 12));
    second.runtime.timeUpdate(1.1);
    second.runtime.pauseWait();
    second.runtime.click('ask', 'yes');
    expect(second.of('interaction').map((c) => c.interaction)).toEqual([expect.not.objectContaining({ countdown_paused: expect.anything() })]);
    const idle = setup(waitingFunnel('yes', 12));
    idle.runtime.pauseWait();
    idle.runtime.resumeWait();
    idle.runtime.extendWait();
    expect(idle.runtime.getState().waiting).toBeNull();
    expect(idle.clock.pending).toBe(0);
  });

  it('does not pause when the element is reached by a paused seek, nor twice in one pass', () => {
    const { runtime, clock, of } = setup(waitingFunnel('skip-and-continue'));
    runtime.timeUpdate(2, false);
    expect(of('pause')).toHaveLength(0);
    const second = setup(waitingFunnel('skip-and-continue'));
    second.runtime.timeUpdate(1.1);
    second.runtime.resumed();
    expect(second.runtime.getState().waiting).toBeNull();
    second.play(1.25, 3);
    expect(second.of('pause')).toHaveLength(1);
    clock.advance(1);
  });

  it('the viewer pressing play ends the wait but keeps the choices on screen', () => {
    const { runtime, clock, of, shown } = setup(waitingFunnel('https://example.com/after'));
    runtime.timeUpdate(1.1);
    runtime.resumed();
    clock.advance(20_000);
    expect(of('open')).toHaveLength(0);
    expect(shown()).toEqual(['ask']);
  });

  it('without a pause, playback running past hideAt with no choice takes the inaction', () => {
    const videos = [video('intro', [branchEl('ask', 1, 3, [{ id: 'yes', video: 'next' }], { inaction: 'yes' })]), video('next')];
    const { runtime, play } = setup(videos);
    play(0, 3.5);
    expect(runtime.getState().video?.editor_id).toBe('next');
    // A seek past the window is not inaction.
    const other = setup(videos);
    other.play(0, 1.5);
    other.runtime.timeUpdate(10, true);
    expect(other.runtime.getState().video?.editor_id).toBe('intro');
  });
});

describe('skip', () => {
  it('dismisses the element and resumes a paused wait', () => {
    const el = branchEl('ask', 1, 8, [{ id: 'yes', video: 'next' }], {
      pauseVideo: { enabled: true, duration: 10 },
      showSkip: { show: true, text: 'Skip' },
      inaction: 'yes',
    });
    const { runtime, clock, of, shown } = setup([video('intro', [el]), video('next')]);
    expect(hasSkip(el)).toBe(true);
    expect(hasSkip(text('t', 0, 1))).toBe(false);
    runtime.timeUpdate(1.1);
    runtime.skip('ask');
    expect(of('play')).toHaveLength(1);
    expect(shown()).toEqual(['ask~']);
    clock.advance(30_000);
    // The wait was cancelled: no inaction later.
    expect(runtime.getState().video?.editor_id).toBe('intro');
    expect(clock.pending).toBe(0);
  });

  it('on a text element hides it without touching playback', () => {
    const t = text('t', 0, 5, { data: { name: 'text', title: 'x', settings: { showSkip: { show: true } } } } as Partial<FunnelElement>);
    const { runtime, of, shown } = setup([video('v', [t])]);
    runtime.timeUpdate(1);
    runtime.skip('t');
    expect(shown()).toEqual(['t~']);
    expect(of('play')).toHaveLength(0);
  });
});

describe('announcements and warming', () => {
  it('announces a branch element once when it appears', () => {
    const { runtime, of } = setup([video('v', [branchEl('b', 1, 3, [{ id: 'x', video: 'w' }]), text('t', 0, 3)]), video('w')]);
    runtime.timeUpdate(0.5);
    runtime.timeUpdate(1.5);
    runtime.timeUpdate(1.75);
    expect(of('announce').map((c) => c.element.id)).toEqual(['b']);
  });

  it('lists the targets to warm, in order of appearance, without duplicates or unknown videos', () => {
    const v = video('v', [
      branchEl('late', 9, 12, [{ id: 'a', video: 'c' }]),
      branchEl('early', 1, 3, [
        { id: 'b', video: 'w' },
        { id: 'c', video: 'c' },
        { id: 'd', video: 'zzz' },
        { id: 'e', onclick: 'url', externalLink: 'https://x.org' },
      ]),
      branchEl('off', 0, 1, [{ id: 'f', video: 'u' }], {}, { active: false } as Partial<FunnelElement>),
    ]);
    expect(branchTargets(v, [v, video('w'), video('c'), video('u')])).toEqual(['w', 'c']);
  });

  it('goTo resets the elements and emits a load; unknown ids are refused', () => {
    const { runtime, of } = setup([video('a', [text('t', 0, 5)]), video('b')]);
    runtime.timeUpdate(1);
    expect(runtime.goTo('b', 12, false)).toBe(true);
    expect(runtime.getState()).toMatchObject({ time: 12, shown: [] });
    expect(of('load').at(-1)).toEqual({ type: 'load', editorId: 'b', time: 12, autoplay: false });
    expect(runtime.goTo('zzz')).toBe(false);
  });
});
