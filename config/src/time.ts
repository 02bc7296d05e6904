/**
 * How the app writes lengths of time, in one place: clock style (`1:05`, `1:02:03`, with tenths
 * `1:02.5`) for players, timelines and video lengths; spelled out (`1h 2m 5s`) for reports.
 */

/** Seconds as m:ss, or h:mm:ss from an hour; `tenths` keeps one decimal when the time has one. */
export const clockTime = (seconds: number, { tenths = false }: { tenths?: boolean } = {}): string => {
  const total = Math.max(0, seconds);
  const tenth = tenths ? Math.round(total * 10) % 10 : 0;
  const whole = tenths ? Math.floor(Math.round(total * 10) / 10) : Math.floor(total);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0') + (tenth ? `.${tenth}` : '');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
};

/** A video's length in clock style, or '' when it is unknown (or zero). */
export const videoLength = (seconds: number | null | undefined): string => (seconds ? clockTime(Math.round(seconds)) : '');

/** 3725 s → '1h 2m 5s'. */
export const spelledDuration = (seconds: number): string => {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return [h && `${h}h`, (h || m) && `${m}m`, `${rest}s`].filter(Boolean).join(' ');
};
