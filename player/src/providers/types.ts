import { PLAYBACK_RATES } from '@branchify/shared';
import type { PlayerVideo } from '../runtime/types';

export type ProviderEvent =
  | { type: 'ready'; duration: number | null }
  | { type: 'time'; time: number }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'ended' }
  /** The first frame after play() is on screen (what seamless branching waits for). */
  | { type: 'firstframe' }
  | { type: 'waiting'; waiting: boolean }
  /** A spec message (MESSAGES.playerLoadFailed, vimeoLoadFailed, …); null: fail silently (Adilo). */
  | { type: 'error'; message: string | null }
  /** The caption tracks the provider's own player has (YouTube, Vimeo). */
  | { type: 'texttracks'; tracks: ProviderTextTrack[] };

/** A caption track of the provider's own player, switched through its API. */
export interface ProviderTextTrack {
  /** BCP-47, as the provider names it. */
  language: string;
  label: string;
}

interface AdapterOptions {
  /** The video is the one on screen (false: warmed in the background for a branch). */
  active: boolean;
  /** Seconds to start at (resume), 0 by default. */
  startAt?: number;
  /** Show a preview frame until played (generic: the frame at 2 s); off when it will autoplay. */
  preview?: boolean;
}

/** One provider's player, the same surface for all four (vidstack's provider pattern). */
export interface ProviderAdapter {
  readonly video: PlayerVideo;
  /** The element the adapter draws into (the stage positions it). */
  readonly element: HTMLElement;
  /** Resolves once the player can play (SDK loaded, metadata known); rejects with a spec message. */
  ready(): Promise<void>;
  play(): Promise<void>;
  pause(): void;
  seek(seconds: number): void;
  currentTime(): number;
  duration(): number | null;
  paused(): boolean;
  setVolume(volume: number): void;
  setMuted(muted: boolean): void;
  /** Playback rates this provider can change to ([] when it cannot). */
  rates(): number[];
  setRate(rate: number): void;
  /** Shows the provider's own captions in `language`, or none (null); absent when it has none. */
  setTextTrack?(language: string | null): void;
  destroy(): void;
}

export type AdapterFactory = (video: PlayerVideo, emit: (event: ProviderEvent) => void, options: AdapterOptions) => ProviderAdapter;

export interface ProviderLoader {
  readonly name: string;
  canPlay(video: PlayerVideo): boolean;
  /** Loads the provider's code (a lazy import / SDK script) only when a funnel uses it. */
  load(): Promise<AdapterFactory>;
}

/** The playback rates offered (shared: the server bounds watch time by the fastest). */
export const RATES: number[] = [...PLAYBACK_RATES];
