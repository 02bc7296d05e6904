import type { VideoResource } from '@branchify/shared';
import { api } from './api';

/** The widest frame drawn (a poster is shown small; the clip's own size when it is narrower). */
const FRAME_MAX_WIDTH = 640;
/** How far into the clip the frame is taken: a second, or a tenth of a shorter clip. */
const FRAME_AT_SECONDS = 1;
/** A clip that has not given a frame by then counts as unreadable for this visit. */
const FRAME_TIMEOUT_MS = 15_000;
/** Clips read at once (each is a download), so a long library does not fetch them all together. */
const AT_ONCE = 2;
/** Where the browser remembers the clips it may not read, so they are not tried on every visit. */
const UNREADABLE_KEY = 'branchify.poster-unreadable';
const UNREADABLE_KEPT = 200;

const unreadable = (): string[] => {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(UNREADABLE_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((u): u is string => typeof u === 'string') : [];
  } catch {
    return [];
  }
};

const rememberUnreadable = (url: string): void => {
  try {
    localStorage.setItem(UNREADABLE_KEY, JSON.stringify([...unreadable().filter((u) => u !== url), url].slice(-UNREADABLE_KEPT)));
  } catch {
    /* storage full or off: the clip is tried again next visit */
  }
};

/** Whether this browser already found it may not read the clip's frames. */
const knownUnreadable = (url: string): boolean => unreadable().includes(url);

/**
 * One frame of the clip as a JPEG, or null when the browser may not read it: the clip is loaded
 * with CORS (`crossOrigin="anonymous"`), so a host that does not allow it fails the load, and a
 * canvas that is tainted anyway refuses to export. Never throws; nothing is logged.
 */
const drawFrame = (url: string): Promise<Blob | null> =>
  new Promise((resolve) => {
    const video = document.createElement('video');
    let done = false;
    const finish = (frame: Blob | null) => {
      if (done) return;
      done = true;
      window.clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      resolve(frame);
    };
    const timer = window.setTimeout(() => finish(null), FRAME_TIMEOUT_MS);
    video.crossOrigin = 'anonymous';
    video.muted = true;
    video.preload = 'auto';
    video.playsInline = true;
    video.addEventListener('error', () => finish(null));
    video.addEventListener('loadedmetadata', () => {
      const length = Number.isFinite(video.duration) && video.duration > 0 ? video.duration : FRAME_AT_SECONDS * 10;
      video.currentTime = Math.min(FRAME_AT_SECONDS, length / 10);
    });
    video.addEventListener('seeked', () => {
      const { videoWidth, videoHeight } = video;
      if (!videoWidth || !videoHeight) return finish(null);
      const scale = Math.min(1, FRAME_MAX_WIDTH / videoWidth);
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(videoWidth * scale);
      canvas.height = Math.round(videoHeight * scale);
      const context = canvas.getContext('2d');
      if (!context) return finish(null);
      try {
        context.drawImage(video, 0, 0, canvas.width, canvas.height);
        canvas.toBlob((blob) => finish(blob), 'image/jpeg', 0.85);
      } catch {
        // A tainted canvas: the browser may show the clip but not hand its pixels to the page.
        finish(null);
      }
    });
    video.src = url;
  });

let running = 0;
const waiting: Array<() => void> = [];
const inTurn = async <T>(work: () => Promise<T>): Promise<T> => {
  if (running >= AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
};

/** What came of drawing a video's frame: its stored URL, a clip the browser may not read, or a frame not stored. */
export type FrameResult = { status: 'stored'; url: string } | { status: 'unreadable' } | { status: 'unstored' };

/** One attempt per video and page load, shared by every poster showing it. */
const attempts = new Map<number, Promise<FrameResult>>();

/**
 * The stored poster for a direct-URL video without one: a frame drawn here and stored through the
 * API (so it is drawn once, then shown from storage everywhere). A clip the browser may not read
 * is remembered, so it is not tried again.
 */
export const storedFrame = (video: Pick<VideoResource, 'id' | 'source_url'>): Promise<FrameResult> => {
  const url = video.source_url;
  if (!url || knownUnreadable(url)) return Promise.resolve({ status: 'unreadable' });
  let attempt = attempts.get(video.id);
  if (!attempt) {
    attempt = inTurn(async (): Promise<FrameResult> => {
      const frame = await drawFrame(url);
      if (!frame) {
        rememberUnreadable(url);
        return { status: 'unreadable' };
      }
      const body = new FormData();
      body.append('image', frame, 'frame.jpg');
      try {
        const stored = (await api.put<VideoResource>(`videos/${video.id}/poster`, body)).data.thumbnail;
        return stored ? { status: 'stored', url: stored } : { status: 'unstored' };
      } catch {
        // Not stored (the upload budget is spent, the server is busy): the tile stays; a later visit tries again.
        return { status: 'unstored' };
      }
    });
    attempts.set(video.id, attempt);
  }
  return attempt;
};
