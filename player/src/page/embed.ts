/** What the embedding page sends to set the funnel's variables: `{ type: 'branchify:set', variables: { … } }`. */
const SET_MESSAGE = 'branchify:set';

/**
 * The embedding page's `branchify:set` messages (from the parent window only), kept until the
 * funnel's logic is ready, then delivered as they come. Values are checked by the logic: declared
 * variables only, each of its type and within its limits.
 */
export const embedderMessages = () => {
  const early: unknown[] = [];
  let deliver: ((values: unknown) => void) | null = null;
  if (window.parent !== window) {
    addEventListener('message', (event: MessageEvent) => {
      if (event.source !== window.parent) return;
      const data = event.data as { type?: unknown; variables?: unknown } | null;
      if (typeof data !== 'object' || data === null || data.type !== SET_MESSAGE) return;
      if (deliver) deliver(data.variables);
      else if (early.length < 20) early.push(data.variables);
    });
  }
  return {
    deliver(to: (values: unknown) => void): void {
      deliver = to;
      for (const values of early.splice(0)) to(values);
    },
  };
};
