/**
 * This process's serving state: requests in flight, and whether it is shutting down (readiness
 * then answers 503 and every response closes its connection).
 */
export const processState = {
  shuttingDown: false,
  inFlight: 0,
};
