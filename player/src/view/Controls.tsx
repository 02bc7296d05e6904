import type { ReactNode } from 'react';
import { SEEK_STEP_SECONDS } from '../runtime/timeline';
import { MenuButton } from './MenuButton';
import { formatTime } from './style';

export interface ControlsProps {
  playing: boolean;
  time: number;
  duration: number | null;
  volume: number;
  muted: boolean;
  rates: number[];
  rate: number;
  fullscreen: boolean;
  onPlay: () => void;
  onSeek: (seconds: number) => void;
  onVolume: (volume: number) => void;
  onMute: () => void;
  onRate: (rate: number) => void;
  onFullscreen: () => void;
  /** Controls a feature adds when the video has it (the captions menu), before the settings. */
  extra?: ReactNode;
}

const Icon = ({ d }: { d: string }) => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
    <path d={d} fill="currentColor" />
  </svg>
);
const PLAY = 'M8 5v14l11-7z';
const PAUSE = 'M6 5h4v14H6zm8 0h4v14h-4z';
const VOLUME = 'M3 9v6h4l5 5V4L7 9H3zm13.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4z';
const MUTED = 'M3 9v6h4l5 5V4L7 9H3zm17.6 3 2.1-2.1-1.4-1.4-2.1 2.1-2.1-2.1-1.4 1.4 2.1 2.1-2.1 2.1 1.4 1.4 2.1-2.1 2.1 2.1 1.4-1.4z';
const SETTINGS =
  'M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7 7 0 0 0-1.7-1L15 3h-4l-.4 2.9a7 7 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7 7 0 0 0 1.7 1L11 21h4l.4-2.9a7 7 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z';
const FULL = 'M5 5h5v2H7v3H5zm9 0h5v5h-2V7h-3zM5 14h2v3h3v2H5zm12 0h2v5h-5v-2h3z';
const EXIT = 'M8 5h2v5H5V8h3zm6 0h2v3h3v2h-5zM5 14h5v5H8v-3H5zm9 0h5v2h-3v3h-2z';

/**
 * Where a key moves the progress bar: arrows and Page keys by the seek step, Home and End to the
 * ends. The bar itself moves freely (step "any"), so its thumb sits exactly at the current time.
 */
const progressKeyTarget = (key: string, time: number, max: number): number | null => {
  const by: Record<string, number> = { ArrowRight: 1, ArrowUp: 1, PageUp: 1, ArrowLeft: -1, ArrowDown: -1, PageDown: -1 };
  if (key === 'Home') return 0;
  if (key === 'End') return max;
  const sign = by[key];
  return sign === undefined ? null : Math.min(max, Math.max(0, time + sign * SEEK_STEP_SECONDS));
};

/** The controls: play, progress, current time, settings, volume, fullscreen. */
export const Controls = (p: ControlsProps) => {
  const max = p.duration && Number.isFinite(p.duration) ? p.duration : Math.max(p.time, 1);
  return (
    <div className="bf-controls" onClick={(e) => e.stopPropagation()}>
      <button type="button" className="bf-ctl bf-focusable" data-control="play" aria-label={p.playing ? 'Pause' : 'Play'} onClick={p.onPlay}>
        <Icon d={p.playing ? PAUSE : PLAY} />
      </button>
      <input
        className="bf-progress bf-focusable"
        type="range"
        aria-label="Seek"
        aria-valuetext={`${formatTime(p.time)} of ${formatTime(max)}`}
        min={0}
        max={max}
        step="any"
        value={Math.min(p.time, max)}
        onChange={(e) => p.onSeek(Number(e.currentTarget.value))}
        onKeyDown={(e) => {
          const to = progressKeyTarget(e.key, p.time, max);
          if (to === null) return;
          e.preventDefault();
          p.onSeek(to);
        }}
      />
      <span className="bf-time" aria-hidden="true">
        {formatTime(p.time)} / {formatTime(p.duration)}
      </span>
      {p.extra}
      <MenuButton
        label="Settings"
        menuLabel="Playback speed"
        icon={<Icon d={SETTINGS} />}
        items={p.rates.map((r) => ({ key: String(r), label: r === 1 ? 'Normal' : `${r}×`, checked: r === p.rate }))}
        empty="No settings for this video"
        onChoose={(index) => p.onRate(p.rates[index]!)}
      />
      <button type="button" className="bf-ctl bf-focusable" aria-label={p.muted ? 'Unmute' : 'Mute'} onClick={p.onMute}>
        <Icon d={p.muted || p.volume === 0 ? MUTED : VOLUME} />
      </button>
      <input
        className="bf-volume bf-focusable"
        type="range"
        aria-label="Volume"
        min={0}
        max={1}
        step={0.05}
        value={p.muted ? 0 : p.volume}
        onChange={(e) => p.onVolume(Number(e.currentTarget.value))}
      />
      <button type="button" className="bf-ctl bf-focusable" aria-label={p.fullscreen ? 'Exit fullscreen' : 'Fullscreen'} onClick={p.onFullscreen}>
        <Icon d={p.fullscreen ? EXIT : FULL} />
      </button>
    </div>
  );
};
