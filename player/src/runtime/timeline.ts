import { CONTENT_LIMITS, DEFAULT_INACTION, rootVideo } from '@branchify/shared';
import type { Branch, BranchElement, FunnelElement, PlayerPayload, PlayerVideo } from './types';

/** A fading element is removed after 500 ms. */
export const FADE_OUT_MS: number = CONTENT_LIMITS.fadeOutMs;
/** Pause duration: default and minimum 10 s. */
const PAUSE_MIN_SECONDS: number = CONTENT_LIMITS.pauseMinSeconds;
export const SEEK_STEP_SECONDS: number = CONTENT_LIMITS.seekStepSeconds;
/** An element is shown while the player time is within showAt..hideAt (inclusive), if active. */
export const isWithin = (element: Pick<FunnelElement, 'showAt' | 'hideAt' | 'active'>, time: number): boolean =>
  element.active !== false && time >= element.showAt && time <= element.hideAt;

/** The elements of a video visible at `time`, in document order. */
export const visibleAt = (elements: readonly FunnelElement[], time: number): FunnelElement[] => elements.filter((e) => isWithin(e, time));

/** The payload's root video: root_editor_id when it names a video, else the rule above. */
export const startVideo = (payload: Pick<PlayerPayload, 'videos' | 'root_editor_id'>): PlayerVideo | null =>
  payload.videos.find((v) => v.editor_id === payload.root_editor_id) ?? rootVideo(payload.videos);

export const timestampSeconds = (t: Branch['timestamp'] | null | undefined): number =>
  t ? Math.max(0, (t.hours || 0) * 3600 + (t.minutes || 0) * 60 + (t.seconds || 0)) : 0;

/** Only http(s): a URL a payload could carry must never become javascript: or data:. */
export const safeHttpUrl = (value: string | null | undefined): string | null => {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
};

const isExternal = (url: string, origin: string): boolean => {
  try {
    return new URL(url).origin !== origin;
  } catch {
    return true;
  }
};

export type BranchAction =
  | { kind: 'branch'; editorId: string }
  | { kind: 'url'; url: string; newTab: boolean }
  | { kind: 'seek'; time: number }
  | { kind: 'none' };

/**
 * What clicking a branch does: switch to the target video (which then autoplays), open a URL (a
 * new tab for external links, or when the element's settings ask for one), or jump to a timestamp
 * in the current video. Anything unusable (a target not in the funnel, an unsafe URL) does nothing.
 */
export const branchAction = (branch: Branch, element: BranchElement, videos: readonly Pick<PlayerVideo, 'editor_id'>[], origin: string): BranchAction => {
  switch (branch.onclick) {
    case 'branch':
      return branch.video && videos.some((v) => v.editor_id === branch.video) ? { kind: 'branch', editorId: branch.video } : { kind: 'none' };
    case 'url': {
      const url = safeHttpUrl(branch.externalLink);
      if (!url) return { kind: 'none' };
      return { kind: 'url', url, newTab: element.data.settings?.externalLink !== false || isExternal(url, origin) };
    }
    case 'timestamp':
      return { kind: 'seek', time: timestampSeconds(branch.timestamp) };
    default:
      return { kind: 'none' };
  }
};

export type InactionAction = { kind: 'continue' } | BranchAction;

/**
 * When the wait for a choice ends without one (spec: inaction): 'skip-and-continue' carries on,
 * an http(s) URL is opened, the id of one of the element's branches acts as if it were clicked.
 */
export const inactionAction = (element: BranchElement, videos: readonly Pick<PlayerVideo, 'editor_id'>[], origin: string): InactionAction => {
  const inaction = element.data.settings?.inaction ?? DEFAULT_INACTION;
  if (inaction === DEFAULT_INACTION) return { kind: 'continue' };
  const branch = element.data.branches.find((b) => b.id === inaction);
  if (branch) return branchAction(branch, element, videos, origin);
  const url = safeHttpUrl(inaction);
  if (url) return { kind: 'url', url, newTab: element.data.settings?.externalLink !== false || isExternal(url, origin) };
  return { kind: 'continue' };
};

/** Seconds to pause the video while a branch element waits for a choice, or null (no pause). */
export const pauseSeconds = (element: FunnelElement): number | null => {
  if (element.type !== 'branch' || !element.data.settings?.pauseVideo?.enabled) return null;
  return Math.max(PAUSE_MIN_SECONDS, Number(element.data.settings.pauseVideo.duration) || PAUSE_MIN_SECONDS);
};

/** Whether the element offers a skip button (its settings' showSkip, or the element's own flag). */
export const hasSkip = (element: FunnelElement): boolean =>
  element.type === 'branch' ? Boolean(element.data.settings?.showSkip?.show || element.skip) : Boolean(element.data.settings?.showSkip?.show || element.skip);

/** Editor ids a video's branches lead to (what to warm while it plays), first appearance first. */
export const branchTargets = (video: PlayerVideo, videos: readonly PlayerVideo[]): string[] => {
  const known = new Set(videos.map((v) => v.editor_id));
  const out: string[] = [];
  const elements = [...video.elements].sort((a, b) => a.showAt - b.showAt);
  for (const element of elements) {
    if (element.type !== 'branch' || element.active === false) continue;
    const ids = [...element.data.branches.map((b) => (b.onclick === 'branch' ? b.video : null))];
    for (const id of ids) if (id && id !== video.editor_id && known.has(id) && !out.includes(id)) out.push(id);
  }
  return out;
};
