import { config } from 'zod';

/**
 * Zod compiles object parsers with `new Function` when the page allows it and probes that with a
 * throwaway `Function('')`; under our CSP (no 'unsafe-eval') the probe is refused and the browser
 * reports a policy violation. Interpreted parsing needs no eval and no probe.
 */
config({ jitless: true });
