import type { Interaction } from '../runtime/machine';
import type { LastViewState } from '../runtime/types';

export interface ViewStart {
  view_id: string;
  /** The server's signature of this view: every interaction and update of it carries it back. */
  view_token: string;
  viewer_token: string;
  last_view_state: LastViewState | null;
}

/** A v4 UUID; crypto.randomUUID exists only in secure contexts (a plain-http install has none). */
const uuid = (): string => {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const storage = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null; // storage blocked (third-party iframe): no resume, still a view
    }
  },
  set(key: string, value: string): void {
    try {
      localStorage.setItem(key, value);
    } catch {
      /* see above */
    }
  },
};

const FLUSH_MS = 1000;
const MAX_BATCH = 100;
const POSITION_MS = 10_000;

/**
 * The viewer's side of analytics: one view per page load (the viewer token kept per funnel in
 * localStorage, so resume works without an account), interactions sent in batches, the position
 * sent every 10 s while it changes and with sendBeacon when the page is hidden or left, so the last
 * watch time is not lost.
 */
export class ViewTracker {
  private view: ViewStart | null = null;
  private readonly started: Promise<ViewStart | null>;
  private queue: Array<Interaction & { event_id: string }> = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private position: { editor_id: string; last_watch_time: number; duration: number | null } | null = null;
  private sentPosition = '';
  private watchTime = 0;
  /** The funnel's variables, sent with the position (what resume restores). */
  private variables: (() => Readonly<Record<string, string | number | boolean>>) | null = null;
  private readonly base: string;
  private readonly tokenKey: string;

  constructor(reference: string) {
    this.base = `/api/funnels/${encodeURIComponent(reference)}`;
    this.tokenKey = `branchify:viewer:${reference}`;
    this.started = this.start();
    setInterval(() => void this.sendPosition(false), POSITION_MS);
    const hide = () => this.flushOnHide();
    addEventListener('pagehide', hide);
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && hide());
  }

  /** Reports the funnel's variables with each position. */
  withVariables(read: () => Readonly<Record<string, string | number | boolean>>): void {
    this.variables = read;
  }

  /** The POST views answer (with last_view_state for a returning viewer), or null if it failed. */
  whenStarted(): Promise<ViewStart | null> {
    return this.started;
  }

  interaction(interaction: Interaction): void {
    this.queue.push({ ...interaction, event_id: uuid() });
    if (this.queue.length >= MAX_BATCH) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Where the viewer is; `played`: seconds actually watched since the last call. */
  track(editorId: string, time: number, duration: number | null, played = 0): void {
    this.position = {
      editor_id: editorId,
      last_watch_time: Math.max(0, Math.round(time * 100) / 100),
      duration: duration && Number.isFinite(duration) ? duration : null,
    };
    if (played > 0 && played < 5) this.watchTime += played;
  }

  /** Sends the position now (after a branch, a pause). */
  async sendPosition(force = true): Promise<void> {
    const body = this.positionBody();
    if (!body) return;
    const key = JSON.stringify([body.editor_id, body.last_watch_time, body.variables ?? null]);
    if (!force && key === this.sentPosition) return;
    this.sentPosition = key;
    await fetch(`${this.base}/views`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), keepalive: true }).catch(
      () => undefined,
    );
  }

  async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    await this.started;
    // The server takes no event outside a view it started: without one they are let go.
    if (!this.view) this.queue = [];
    const events = this.take();
    if (!events.length) return;
    const res = await fetch(`${this.base}/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
      keepalive: true,
    }).catch(() => null);
    // Event ids make a retry safe: put back what the server did not take (unless refused as invalid).
    if (!res || res.status >= 500 || res.status === 429) this.queue.unshift(...events);
    if (this.queue.length) this.flushTimer = setTimeout(() => void this.flush(), FLUSH_MS * 3);
  }

  /** sendBeacon survives the page going away; a POST with view_id is a view update. */
  flushOnHide(): void {
    const beacon = (url: string, body: unknown) => {
      const blob = new Blob([JSON.stringify(body)], { type: 'application/json' });
      let sent = false;
      try {
        sent = navigator.sendBeacon?.(url, blob) ?? false;
      } catch {
        sent = false;
      }
      if (!sent)
        void fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), keepalive: true }).catch(
          () => undefined,
        );
    };
    const events = this.take();
    if (events.length) beacon(`${this.base}/interactions`, { events });
    const body = this.positionBody();
    if (body) {
      this.sentPosition = JSON.stringify([body.editor_id, body.last_watch_time, body.variables ?? null]);
      beacon(`${this.base}/views`, body);
    }
  }

  /** The next batch, each event with its view and the view's token (none before the view has started). */
  private take() {
    const view = this.view;
    return view ? this.queue.splice(0, MAX_BATCH).map((e) => ({ ...e, view_id: view.view_id, view_token: view.view_token })) : [];
  }

  private positionBody() {
    if (!this.view || !this.position) return null;
    return {
      view_id: this.view.view_id,
      view_token: this.view.view_token,
      viewer_token: this.view.viewer_token,
      ...this.position,
      watch_time: Math.round(this.watchTime * 100) / 100,
      ...(this.variables ? { variables: this.variables() } : {}),
    };
  }

  private async start(retry = true): Promise<ViewStart | null> {
    const token = retry ? storage.get(this.tokenKey) : null;
    try {
      const res = await fetch(`${this.base}/views`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ event_id: uuid(), ...(token ? { viewer_token: token } : {}) }),
      });
      // A stored token the server refuses (malformed): start over as a new viewer.
      if (res.status === 422 && token) return this.start(false);
      if (!res.ok) return null;
      const data = ((await res.json()) as { data: ViewStart }).data;
      this.view = data;
      storage.set(this.tokenKey, data.viewer_token);
      return data;
    } catch {
      return null;
    }
  }
}
