import { MAX_PLAYBACK_RATE } from '@branchify/shared';
import type { PlayerEntry } from '../funnels/player-payload';
import { isViewToken } from './view-token';

/**
 * What ingest accepts from the public player endpoints, decided from the cached player payload
 * (no query): an event belongs to a view the server started on this funnel (its view token
 * verifies; that the view is stored is checked where the rows are written, recording.ts); an
 * interaction names a branch its video really has — by the branch's id, or by its
 * branch element's id — and the target that branch really leads to (the video's editor id, the
 * link as the funnel has it or as a browser parses it, `timestamp:<s>`); an inaction names the
 * branch its element defaults to. Times are bounded by what a viewer could have reached.
 * Everything else is dropped (never stored, never announced) and counted.
 */

/** Seconds of leeway on every time bound (clocks, requests in flight, rounding). */
const TIME_SLACK_SECONDS = 30;

export type DropReason =
  | 'forged_view_token'
  | 'unknown_view'
  | 'unknown_branch'
  | 'not_the_inaction_default'
  | 'wrong_target'
  | 'time_past_the_end'
  | 'position_past_the_end'
  | 'watch_time_over_view_age'
  | 'refused_by_the_database';

interface Candidate {
  kind: 'branch' | 'inaction';
  /** The target as stored (the funnel's own spelling). */
  stored: string | null;
  /** Every form a player may report it in. */
  reported: ReadonlySet<string | null>;
}

interface VideoIndex {
  /** Library duration in seconds, when known. */
  duration: number | null;
  /** Branch ids and branch-element ids of this video → what each may lead to. */
  nodes: ReadonlyMap<string, Candidate[]>;
}

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null;
const seconds = (t: unknown): number => {
  const o: Loose = isObject(t) ? t : {};
  return Math.max(0, (Number(o.hours) || 0) * 3600 + (Number(o.minutes) || 0) * 60 + (Number(o.seconds) || 0));
};
/** A link as a browser's URL parser spells it (what the player reports), or null when it is none. */
const href = (link: string): string | null => {
  try {
    const url = new URL(link);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

/** Where a branch leads, as the player works it out (a target it cannot use leads nowhere: null). */
const targetOf = (branch: Loose, editorIds: ReadonlySet<string>): Omit<Candidate, 'kind'> => {
  const only = (value: string | null) => ({ stored: value, reported: new Set([value]) });
  switch (branch.onclick) {
    case 'branch':
      return only(typeof branch.video === 'string' && editorIds.has(branch.video) ? branch.video : null);
    case 'url': {
      const link = typeof branch.externalLink === 'string' ? branch.externalLink.trim() : '';
      const parsed = link ? href(link) : null;
      return parsed ? { stored: link, reported: new Set([link, parsed]) } : only(null);
    }
    case 'timestamp':
      return only(`timestamp:${seconds(branch.timestamp)}`);
    default:
      return only(null);
  }
};

const buildIndex = (entry: PlayerEntry): Map<string, VideoIndex> => {
  const index = new Map<string, VideoIndex>();
  for (const video of entry.payload.videos) {
    const nodes = new Map<string, Candidate[]>();
    const add = (id: unknown, candidate: Candidate) => {
      if (typeof id !== 'string') return;
      const list = nodes.get(id) ?? [];
      list.push(candidate);
      nodes.set(id, list);
    };
    for (const element of video.elements) {
      if (!isObject(element) || element.type !== 'branch' || !isObject(element.data)) continue;
      const branches = Array.isArray(element.data.branches) ? element.data.branches.filter(isObject) : [];
      const settings: Loose = isObject(element.data.settings) ? element.data.settings : {};
      for (const branch of branches) {
        const target = targetOf(branch, entry.editorIds);
        const kinds: Array<Candidate['kind']> = settings.inaction === branch.id ? ['branch', 'inaction'] : ['branch'];
        for (const kind of kinds) {
          add(branch.id, { kind, ...target });
          add(element.id, { kind, ...target });
        }
      }
    }
    index.set(video.editor_id, { duration: video.duration !== null && video.duration > 0 ? video.duration : null, nodes });
  }
  return index;
};

/** Built once per cached payload (a funnel save makes a new entry). */
const indexes = new WeakMap<PlayerEntry, Map<string, VideoIndex>>();
const indexOf = (entry: PlayerEntry): Map<string, VideoIndex> => {
  let index = indexes.get(entry);
  if (!index) {
    index = buildIndex(entry);
    indexes.set(entry, index);
  }
  return index;
};

export type Verdict<T> = { ok: true; value: T } | { ok: false; reason: DropReason };

/** An event's view token checked against its view and this funnel (nothing is read to check it). */
export const checkViewToken = (entry: PlayerEntry, event: { view_id: string; view_token: string }): Verdict<null> =>
  isViewToken(entry.funnelId, event.view_id, event.view_token) ? { ok: true, value: null } : { ok: false, reason: 'forged_view_token' };

/**
 * An interaction checked against the funnel: the target as stored, or why it is dropped. An event
 * that names no target takes its branch's own, when the node it names leads to one place only.
 */
export const checkInteraction = (
  entry: PlayerEntry,
  event: { video_id: string; node_id: string; connected_node?: string | null; type: 'branch' | 'inaction'; player_time: number },
): Verdict<{ connected_node: string | null }> => {
  const video = indexOf(entry).get(event.video_id);
  const candidates = video?.nodes.get(event.node_id);
  if (!video || !candidates) return { ok: false, reason: 'unknown_branch' };
  const ofKind = candidates.filter((c) => c.kind === event.type);
  if (!ofKind.length) return { ok: false, reason: 'not_the_inaction_default' };
  const reported = event.connected_node ?? null;
  let stored: string | null | undefined;
  if (reported === null) {
    const places = new Set(ofKind.map((c) => c.stored));
    if (places.size === 1) stored = [...places][0];
  } else {
    stored = ofKind.find((c) => c.reported.has(reported))?.stored;
  }
  if (stored === undefined) return { ok: false, reason: 'wrong_target' };
  if (video.duration !== null && event.player_time > video.duration + TIME_SLACK_SECONDS) return { ok: false, reason: 'time_past_the_end' };
  return { ok: true, value: { connected_node: stored } };
};

/**
 * A view's move checked against the video: the duration the library knows stands (the player's
 * only counts when the library has none), and the position cannot be past that end.
 */
export const checkPosition = (
  entry: PlayerEntry,
  update: { editor_id: string; last_watch_time: number; duration?: number | null },
): Verdict<{ duration: number | null }> => {
  const known = indexOf(entry).get(update.editor_id)?.duration ?? null;
  const duration = known ?? update.duration ?? null;
  if (duration !== null && update.last_watch_time > duration + TIME_SLACK_SECONDS) return { ok: false, reason: 'position_past_the_end' };
  return { ok: true, value: { duration } };
};

/** The most a view started at `startedAt` can have been watched by `now`, at the fastest playback rate. */
export const watchTimeLimit = (startedAt: Date, now = Date.now()): number =>
  MAX_PLAYBACK_RATE * Math.max(0, (now - startedAt.getTime()) / 1000) + TIME_SLACK_SECONDS;

/**
 * Counts what ingest dropped, for the operator: a funnel's first drop is logged at once, later ones
 * are summed into one line per funnel per window, so a flood of invented events costs a line a
 * minute per funnel, not one per event.
 */
export class DropLog {
  private pending = new Map<number, Map<DropReason, number>>();
  private quiet = new Set<number>();
  private readonly names = new Map<number, string>();
  private timer: NodeJS.Timeout | null = null;
  private total = 0;

  constructor(
    private readonly write: (line: string) => void,
    private readonly windowMs = 60_000,
  ) {}

  /** `detail`: what the operator needs to find the cause (logged with the funnel's first line of a window). */
  drop(funnel: { id: number; identifier?: string }, reasons: ReadonlyMap<DropReason, number>, detail?: string): void {
    let n = 0;
    for (const count of reasons.values()) n += count;
    if (!n) return;
    this.total += n;
    if (funnel.identifier && !this.names.has(funnel.id)) {
      if (this.names.size >= 10_000) this.names.clear();
      this.names.set(funnel.id, funnel.identifier);
    }
    if (!this.quiet.has(funnel.id)) {
      this.quiet.add(funnel.id);
      this.write(`${this.line(funnel.id, reasons, '')}${detail ? `; ${detail}` : ''}`);
    } else {
      const sum = this.pending.get(funnel.id) ?? new Map<DropReason, number>();
      for (const [reason, count] of reasons) sum.set(reason, (sum.get(reason) ?? 0) + count);
      this.pending.set(funnel.id, sum);
    }
    this.timer ??= setTimeout(() => this.flush(), this.windowMs).unref();
  }

  /** Logs what was summed since the last line (also on shutdown). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const seconds = Math.round(this.windowMs / 1000);
    for (const [funnel, reasons] of this.pending) this.write(this.line(funnel, reasons, ` in the last ${seconds} s`));
    // A funnel still being flooded stays summed; one that went quiet logs its next drop at once.
    this.quiet = new Set(this.pending.keys());
    this.pending = new Map();
    if (this.quiet.size) this.timer = setTimeout(() => this.flush(), this.windowMs).unref();
  }

  private line(funnel: number, reasons: ReadonlyMap<DropReason, number>, when: string): string {
    const name = this.names.get(funnel);
    const counts = [...reasons].map(([reason, count]) => `${reason} ${count}`).join(', ');
    return `[analytics] ingest dropped events for funnel ${funnel}${name ? ` (${name})` : ''}${when}: ${counts}; ${this.total} dropped since start`;
  }
}
