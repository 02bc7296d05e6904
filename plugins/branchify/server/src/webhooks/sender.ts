import https from 'node:https';
import type { LookupFunction } from 'node:net';
import net from 'node:net';
import tls from 'node:tls';
import { resolveTarget, WebhookAddressError, type Lookup } from './address';

export interface SendOptions {
  timeoutMs: number;
  /** Extra trusted certificate authorities (PEM), besides the system's. */
  ca?: string;
  /** Private addresses an operator explicitly permits. */
  allowed?: readonly string[];
  lookup?: Lookup;
}

export interface AttemptOutcome {
  ok: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** Retrying cannot help (the URL is refused): the delivery fails at once. */
  permanent?: boolean;
  /** The Standard Webhooks timestamp and signature the attempt was sent with. */
  sent?: { timestamp: number; signature: string };
}

const RESPONSE_LIMIT = 64 * 1024;

const describe = (error: unknown): string => {
  const e = error as { code?: string; message?: string };
  if (e.code && e.message && !e.message.includes(e.code)) return `${e.code}: ${e.message}`.slice(0, 500);
  return String(e.message ?? e.code ?? 'Request failed').slice(0, 500);
};

/**
 * One POST of a signed body. The URL is checked again here (the host may now resolve elsewhere),
 * the checked address is pinned for the connection (no second lookup), redirects are not followed,
 * and only a 2xx answer counts as delivered.
 */
export const sendOnce = async (rawUrl: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<AttemptOutcome> => {
  const started = Date.now();
  const done = (partial: Omit<AttemptOutcome, 'duration_ms'>): AttemptOutcome => ({ ...partial, duration_ms: Date.now() - started });
  let target;
  try {
    target = await resolveTarget(rawUrl, options.allowed, options.lookup);
  } catch (error) {
    if (error instanceof WebhookAddressError) return done({ ok: false, status_code: null, error: error.message, permanent: error.reason !== 'unresolvable' });
    throw error;
  }
  const { url, host, address, family } = target;
  const pinned = ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;

  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'duration_ms'>) => {
      if (settled) return;
      settled = true;
      resolve(done(outcome));
    };
    const req = https.request(
      {
        host,
        port: url.port ? Number(url.port) : 443,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        lookup: pinned,
        servername: net.isIP(host) ? undefined : host,
        ca: options.ca ? [...tls.rootCertificates, options.ca] : undefined,
        agent: false,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_LIMIT) res.destroy();
        });
        const status = res.statusCode ?? 0;
        const settle = () => {
          if (status >= 200 && status < 300) finish({ ok: true, status_code: status, error: null });
          else if (status >= 300 && status < 400) finish({ ok: false, status_code: status, error: `Redirect not followed (HTTP ${status})` });
          else finish({ ok: false, status_code: status, error: `HTTP ${status}` });
        };
        res.on('end', settle);
        res.on('close', settle);
        res.on('error', settle);
      },
    );
    req.setTimeout(options.timeoutMs, () => req.destroy(new Error(`Timed out after ${options.timeoutMs} ms`)));
    req.on('error', (error) => finish({ ok: false, status_code: null, error: describe(error) }));
    req.end(body);
  });
};
