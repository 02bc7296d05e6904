import type { KeyboardEvent } from 'react';
import { SEEK_STEP_SECONDS } from '../runtime/timeline';

export interface PlayerKeyActions {
  togglePlay: () => void;
  /** Seeks by `delta` seconds from where the video is now. */
  seekBy: (delta: number) => void;
  toggleFullscreen: () => void;
  toggleMuted: () => void;
}

/**
 * The player's keyboard shortcuts (space/k, ←/→ by the seek step, f, m), shared by the funnel
 * player and the single-video player. A focused button keeps Space/Enter, a slider its arrows.
 */
export const playerKeyHandler = (actions: PlayerKeyActions) => (e: KeyboardEvent) => {
  const target = e.target as HTMLElement;
  if (target.tagName === 'BUTTON' && (e.key === ' ' || e.key === 'Enter')) return;
  if (target.tagName === 'INPUT' && e.key.startsWith('Arrow')) return;
  const run: Record<string, () => void> = {
    ' ': actions.togglePlay,
    k: actions.togglePlay,
    ArrowRight: () => actions.seekBy(SEEK_STEP_SECONDS),
    ArrowLeft: () => actions.seekBy(-SEEK_STEP_SECONDS),
    f: actions.toggleFullscreen,
    m: actions.toggleMuted,
  };
  const action = run[e.key];
  if (!action) return;
  action();
  e.preventDefault();
};
