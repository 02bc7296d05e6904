import { MESSAGES } from '@branchify/shared';
import { tooManyRequests } from '../http/errors';

/** Exports one account may have in flight in this process; more are refused until one is sent. */
const EXPORTS_PER_ACCOUNT = 1;
const EXPORT_RETRY_SECONDS = 5;
const inFlight = new Map<number, number>();

/** Takes one of the account's export slots (429 with Retry-After when none is free); the answer gives it back, once. */
export const takeExportSlot = (ownerId: number): (() => void) => {
  const taken = inFlight.get(ownerId) ?? 0;
  if (taken >= EXPORTS_PER_ACCOUNT) throw tooManyRequests(EXPORT_RETRY_SECONDS, MESSAGES.exportInProgress);
  inFlight.set(ownerId, taken + 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    const left = (inFlight.get(ownerId) ?? 1) - 1;
    if (left > 0) inFlight.set(ownerId, left);
    else inFlight.delete(ownerId);
  };
};
