import dns from 'node:dns';
import net from 'node:net';
import { MESSAGES } from '@branchify/shared';

/** Addresses a webhook must never reach: the server's own network and everything not publicly routed. */
const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated)
  ['64:ff9b::', 96], // NAT64 of any IPv4 address
  ['100::', 64], // discard
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(address, prefix, 'ipv6');
}

/** True for an address no webhook may reach (IPv4-mapped IPv6 addresses are judged as their IPv4 address). */
export const isPrivateAddress = (address: string): boolean => {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
};

export type AddressRefusal = 'not_https' | 'invalid' | 'private' | 'unresolvable';

export class WebhookAddressError extends Error {
  override name = 'WebhookAddressError';
  constructor(
    readonly reason: AddressRefusal,
    message: string,
  ) {
    super(message);
  }
}

const MESSAGE: Record<AddressRefusal, string> = {
  not_https: MESSAGES.webhookUrlNotHttps,
  invalid: MESSAGES.webhookUrlInvalid,
  private: MESSAGES.webhookUrlPrivate,
  unresolvable: MESSAGES.webhookUrlUnresolvable,
};
const refuse = (reason: AddressRefusal) => new WebhookAddressError(reason, MESSAGE[reason]);

export interface ResolvedTarget {
  url: URL;
  /** The host name as the TLS certificate must name it (brackets of an IPv6 literal removed). */
  host: string;
  /** The address the request goes to: resolved once, checked, then pinned. */
  address: string;
  family: 4 | 6;
}

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: Lookup = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/**
 * Checks a webhook URL and resolves its host: https only, no credentials, and every address the
 * name resolves to must be public (one private answer refuses the URL: DNS may rotate answers).
 * `allowed` lists addresses an operator explicitly permits although private.
 */
export const resolveTarget = async (raw: string, allowed: readonly string[] = [], lookup: Lookup = systemLookup): Promise<ResolvedTarget> => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('invalid');
  }
  if (url.protocol !== 'https:') throw refuse('not_https');
  if (url.username || url.password || !url.hostname) throw refuse('invalid');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');

  let answers: Array<{ address: string; family: number }>;
  if (net.isIP(host)) answers = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      answers = await lookup(host);
    } catch {
      throw refuse('unresolvable');
    }
  }
  if (!answers.length) throw refuse('unresolvable');
  const permitted = new Set(allowed);
  if (answers.some((a) => isPrivateAddress(a.address) && !permitted.has(a.address))) throw refuse('private');
  const first = answers[0]!;
  return { url, host, address: first.address, family: first.family === 6 ? 6 : 4 };
};
