import type { KeyboardEvent } from 'react';
import { SEEK_STEP_SECONDS } from '../runtime/timeline';

export interface PlayerKeyActions {
  togglePlay: () => void;
  /** Seeks by `delta` seconds from where the video is now. */
  seekBy: (delta: number) => void;
  toggleFullscreen: () => void;
  toggleMuted: () => void;
}

/** Input types that take no typing (a slider, a checkbox…): the shortcuts stay on. */
const NOT_TYPED = new Set(['range', 'checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'color', 'file']);

/** Whether keys pressed in `target` are typed into it. */
const typesText = (target: HTMLElement): boolean =>
  target.isContentEditable ||
  target.tagName === 'TEXTAREA' ||
  target.tagName === 'SELECT' ||
  (target.tagName === 'INPUT' && !NOT_TYPED.has((target as HTMLInputElement).type));

/** Whether the target presses itself on this key (a button, a menu item, a link on Enter). */
const pressesItself = (target: HTMLElement, key: string): boolean =>
  (key === ' ' || key === 'Enter') &&
  (target.tagName === 'BUTTON' ||
    /^(button|menuitem|menuitemradio|link)$/.test(target.getAttribute('role') ?? '') ||
    (target.tagName === 'A' && key === 'Enter'));

/**
 * The player's keyboard shortcuts (space/k, ←/→ by the seek step, f, m), shared by the funnel
 * player and the single-video player. A focused button keeps Space/Enter, a slider its arrows, a
 * text field every key; a key with Ctrl, Alt or Meta is the browser's.
 */
export const playerKeyHandler =
  (actions: PlayerKeyActions) =>
  (e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'metaKey' | 'defaultPrevented' | 'preventDefault'> & { target: EventTarget | null }) => {
    const target = e.target as HTMLElement | null;
    if (!target || e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || typesText(target)) return;
    if (pressesItself(target, e.key)) return;
    if (target.tagName === 'INPUT' && e.key.startsWith('Arrow')) return;
    const run: Record<string, () => void> = {
      ' ': actions.togglePlay,
      k: actions.togglePlay,
      K: actions.togglePlay,
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
