import { factoryFor } from '../providers';
import type { ProviderAdapter, ProviderEvent } from '../providers';
import type { PlaybackStore } from '../runtime/playback';
import type { PlayerVideo } from '../runtime/types';

interface Slot {
  video: PlayerVideo;
  adapter: ProviderAdapter | null;
  pending: Promise<ProviderAdapter>;
  host: HTMLDivElement;
  /** The provider's own caption tracks, heard while warming too (handed to the store on screen). */
  textTracks?: ProviderEvent & { type: 'texttracks' };
}

/** How many branch targets are kept warm beside the video on screen. */
const MAX_WARM = 3;

/**
 * The video layer, outside React: one slot per video that is on screen or warmed. Warmed slots
 * (a branch's targets) sit transparent under the current one with their media loading; switching
 * to one keeps the previous frame visible until the new video's first frame is drawn, so a branch
 * click never shows a blank gap. The video on screen is the playback store's: the Stage attaches
 * its adapter and hands the store its events.
 */
export class Stage {
  private slots = new Map<string, Slot>();
  private current: Slot | null = null;
  private leaving: Slot | null = null;

  constructor(
    private readonly root: HTMLElement,
    private readonly store: PlaybackStore,
    /** Events of the video on screen only (after the store has taken them). */
    private readonly onEvent: (event: ProviderEvent, video: PlayerVideo) => void,
  ) {}

  get adapter(): ProviderAdapter | null {
    return this.current?.adapter ?? null;
  }

  get video(): PlayerVideo | null {
    return this.current?.video ?? null;
  }

  /**
   * Puts a video on screen (reusing a warmed slot), optionally at a time and playing (through the
   * store: a refused autoplay shows the play button). Rejects when the video cannot load.
   */
  async show(video: PlayerVideo, options: { time?: number; autoplay?: boolean }): Promise<ProviderAdapter> {
    const previous = this.current;
    let slot = this.slots.get(video.editor_id);
    if (slot && slot === previous) {
      const adapter = await slot.pending;
      if (options.time !== undefined) this.store.seek(options.time);
      if (options.autoplay) await this.store.play();
      return adapter;
    }
    slot ??= this.createSlot(video, true, options.time ?? 0, !options.autoplay);
    this.current = slot;
    this.store.next(options.time ?? 0);
    slot.host.classList.add('bf-slot-current');
    if (previous) {
      this.finishLeaving();
      this.leaving = previous;
      previous.adapter?.pause();
      previous.host.classList.remove('bf-slot-current');
      previous.host.classList.add('bf-slot-leaving');
      // Kept visible until the new video draws (or a second at most).
      setTimeout(() => {
        if (this.current === slot) slot.host.classList.add('bf-slot-visible');
        this.finishLeaving(previous);
      }, 1200);
    }
    if (!previous || !options.autoplay) {
      slot.host.classList.add('bf-slot-visible');
      this.finishLeaving();
    }
    const adapter = await slot.pending;
    // Another video took the screen meanwhile: this one stays quiet.
    if (this.current !== slot) return adapter;
    this.store.attach(adapter);
    if (slot.textTracks) this.store.handle(slot.textTracks);
    if (options.autoplay) await this.store.play();
    return adapter;
  }

  /** Prepares the next videos (a branch's targets) in the background; drops stale warm slots. */
  warm(videos: readonly PlayerVideo[]): void {
    const wanted = new Set(videos.slice(0, MAX_WARM).map((v) => v.editor_id));
    for (const [id, slot] of this.slots) {
      if (slot !== this.current && slot !== this.leaving && !wanted.has(id)) this.drop(slot);
    }
    for (const video of videos.slice(0, MAX_WARM)) {
      if (!this.slots.has(video.editor_id)) this.createSlot(video, false, 0);
    }
  }

  destroy(): void {
    this.store.detach();
    for (const slot of this.slots.values()) this.drop(slot);
    this.current = null;
  }

  private createSlot(video: PlayerVideo, active: boolean, startAt: number, preview = false): Slot {
    const host = document.createElement('div');
    host.className = 'bf-slot';
    host.dataset.editorId = video.editor_id;
    this.root.appendChild(host);
    const slot: Slot = { video, adapter: null, host, pending: null as unknown as Promise<ProviderAdapter> };
    const emit = (event: ProviderEvent) => {
      if (event.type === 'texttracks') slot.textTracks = event;
      if (this.current !== slot) return;
      if (event.type === 'firstframe') {
        slot.host.classList.add('bf-slot-visible');
        this.finishLeaving();
      }
      this.store.handle(event);
      this.onEvent(event, video);
    };
    slot.pending = factoryFor(video).then(
      (factory) => {
        const adapter = factory(video, emit, { active, startAt, preview });
        slot.adapter = adapter;
        host.appendChild(adapter.element);
        return adapter.ready().then(() => adapter);
      },
      (error: Error) => {
        if (this.current === slot) {
          const event: ProviderEvent = { type: 'error', message: error.message };
          this.store.handle(event);
          this.onEvent(event, video);
        }
        throw error;
      },
    );
    slot.pending.catch(() => undefined);
    this.slots.set(video.editor_id, slot);
    return slot;
  }

  private finishLeaving(only?: Slot): void {
    const slot = this.leaving;
    if (!slot || (only && slot !== only)) return;
    this.leaving = null;
    slot.host.classList.remove('bf-slot-leaving', 'bf-slot-visible');
    if (slot !== this.current) {
      slot.adapter?.pause();
      // Rewound so that branching back to it starts from the beginning, already buffered.
      slot.adapter?.seek(0);
    }
  }

  private drop(slot: Slot): void {
    this.slots.delete(slot.video.editor_id);
    slot.adapter?.destroy();
    void slot.pending.then(
      (a) => a.destroy(),
      () => undefined,
    );
    slot.host.remove();
  }
}
