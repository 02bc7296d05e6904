import { useEffect, useState } from 'react';
import { DEFAULT_INACTION } from '@branchify/shared';
import { WAIT_EXTENSION_SECONDS, type Waiting } from '../runtime/machine';
import type { BranchElement } from '../runtime/types';
import { branchLabel } from './element-style';

/** "8 s", or "1:30" from a minute on. */
const formatLeft = (seconds: number): string => (seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`);

/** What the wait ends in: one of the element's buttons (by its words), a link, or the video playing on. */
const defaultPath = (element: BranchElement): { kind: 'branch'; label: string } | { kind: 'link' } | { kind: 'continue' } => {
  const inaction = element.data.settings?.inaction ?? DEFAULT_INACTION;
  if (inaction === DEFAULT_INACTION) return { kind: 'continue' };
  const branch = element.data.branches.find((b) => b.id === inaction);
  return branch ? { kind: 'branch', label: branchLabel(branch) } : { kind: 'link' };
};

/** "Continuing with 'Yes' in 8 s" (or the link, or the video). */
const runningText = (element: BranchElement, left: string): string => {
  const path = defaultPath(element);
  if (path.kind === 'branch') return `Continuing with '${path.label}' in ${left}`;
  if (path.kind === 'link') return `Opening the link in ${left}`;
  return `The video continues in ${left}`;
};

/** What a screen reader hears once, with the choices, when a wait starts. */
export const countdownAnnouncement = (element: BranchElement, seconds: number): string => {
  const path = defaultPath(element);
  const then = path.kind === 'branch' ? `'${path.label}' is chosen` : path.kind === 'link' ? 'a link opens' : 'the video continues';
  return `If you do not choose, ${then} in ${formatLeft(seconds).replace(' s', ' seconds')}. Pause countdown stops it; More time adds ${WAIT_EXTENSION_SECONDS} seconds.`;
};

/** Whole seconds left, kept current while the countdown runs (a quarter-second tick, only while waiting). */
const useSecondsLeft = (waiting: Waiting): number => {
  const read = () => Math.max(0, Math.ceil((waiting.pausedLeft ?? waiting.endsAt - Date.now()) / 1000));
  const [left, setLeft] = useState(read);
  useEffect(() => {
    setLeft(read());
    if (waiting.pausedLeft !== null) return;
    const tick = setInterval(() => setLeft(read()), 250);
    return () => clearInterval(tick);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `read` reads only `waiting`
  }, [waiting]);
  return left;
};

/**
 * While a branch element waits for a choice: the time left before its default path (unless the
 * creator hid it), a button to pause or resume the countdown and one for more time, both reachable
 * by keyboard. The time itself is not a live region: it is announced once when the wait starts.
 */
export const Countdown = ({
  waiting,
  element,
  onPause,
  onResume,
  onExtend,
}: {
  waiting: Waiting;
  element: BranchElement;
  onPause: () => void;
  onResume: () => void;
  onExtend: () => void;
}) => {
  const left = formatLeft(useSecondsLeft(waiting));
  const paused = waiting.pausedLeft !== null;
  const show = element.data.settings?.pauseVideo?.showCountdown !== false;
  return (
    <div className="bf-countdown" role="group" aria-label="Time to choose" data-testid="bf-countdown" data-paused={paused || undefined}>
      {show && (
        <span className="bf-countdown-time">
          <span className="bf-countdown-long">{paused ? `Countdown paused: ${left} left` : runningText(element, left)}</span>
          {/* A phone's player is small: the short form, over as little of the choices as can be. */}
          <span className="bf-countdown-short" aria-hidden="true">
            {paused ? `Paused: ${left}` : left}
          </span>
        </span>
      )}
      <button
        type="button"
        className="bf-countdown-button bf-focusable"
        aria-pressed={paused}
        aria-label={paused ? 'Resume countdown' : 'Pause countdown'}
        onClick={paused ? onResume : onPause}
      >
        <span className="bf-countdown-long">{paused ? 'Resume countdown' : 'Pause countdown'}</span>
        <span className="bf-countdown-short">{paused ? 'Resume' : 'Pause'}</span>
      </button>
      <button type="button" className="bf-countdown-button bf-focusable" aria-label={`More time: ${WAIT_EXTENSION_SECONDS} seconds more`} onClick={onExtend}>
        More time
      </button>
    </div>
  );
};
