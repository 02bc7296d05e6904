/** Koa's `next`: runs the rest of the chain; what it resolves with is never read. */
export type Next = () => Promise<void>;
