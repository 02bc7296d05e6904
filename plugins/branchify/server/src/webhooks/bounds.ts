/**
 * How much anonymous viewers can have announced to webhook receivers (applied by
 * webhooks/anonymous.ts). Past a bound the event is still stored and counted; only its delivery is
 * not queued.
 */

/** A view announces at most its first 50 clicks (a real viewer clicks a handful; an invented flood gets no further). */
export const CLICKS_ANNOUNCED_PER_VIEW = 50;
/** A client address triggers at most 300 announced events per rate-limit window (RATE_LIMIT_WINDOW_SECONDS, a minute by default). */
export const ANONYMOUS_EVENTS_PER_ADDRESS = 300;
