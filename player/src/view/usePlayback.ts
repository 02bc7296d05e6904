import { useSyncExternalStore } from 'react';
import type { PlaybackState, PlaybackStore } from '../runtime/playback';

const whole = (state: PlaybackState) => state;

/**
 * A view's reading of the playback store (useSyncExternalStore): it renders again when what it
 * reads changes. The selector returns a field or a value computed from primitives (a new object
 * on every call would render forever); without one, the whole state.
 */
export function usePlayback(store: PlaybackStore): PlaybackState;
export function usePlayback<T>(store: PlaybackStore, selector: (state: PlaybackState) => T): T;
export function usePlayback<T>(store: PlaybackStore, selector: (state: PlaybackState) => T = whole as (state: PlaybackState) => T): T {
  const read = () => selector(store.getState());
  return useSyncExternalStore(store.subscribe, read, read);
}
