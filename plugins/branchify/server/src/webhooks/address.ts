import dns from 'node:dns';
import net from 'node:net';
import { MESSAGES } from '@branchify/shared';
import { env } from '@branchify/shared/node';

/** IPv4 addresses a webhook must never reach: the server's own network and everything not publicly routed. */
const blockedV4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blockedV4.addSubnet(address, prefix, 'ipv4');
}

/** Parts of global unicast (2000::/3) that are not a reachable host of its own. */
const blockedV6 = new net.BlockList();
for (const [address, prefix] of [
  ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32), benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
] as const) {
  blockedV6.addSubnet(address, prefix, 'ipv6');
}

/** The eight 16-bit groups of an IPv6 address in any valid spelling (a zone index ignored), or null. */
const ipv6Groups = (address: string): number[] | null => {
  const plain = address.split('%')[0]!;
  if (net.isIP(plain) !== 6) return null;
  // A trailing dotted IPv4 part is the last two groups.
  const text = plain.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) =>
    [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((n) => n.toString(16)).join(':'),
  );
  const [head = '', tail] = text.split('::');
  const before = head ? head.split(':') : [];
  const after = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? before : [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  return groups.length === 8 ? groups.map((g) => parseInt(g, 16)) : null;
};

const dotted = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/**
 * The IPv4 address an IPv6 address reaches through a translation that keeps it whole: IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64's well-known prefix (64:ff9b::/96)
 * and 6to4 (2002::/16, the IPv4 address in groups 2 and 3).
 */
const embeddedIPv4 = (g: number[]): string | null => {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return dotted(g[6]!, g[7]!);
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return dotted(g[6]!, g[7]!);
  if (g[0] === 0x2002) return dotted(g[1]!, g[2]!);
  return null;
};

/**
 * True for an address no webhook may reach. IPv4 must be outside the private and reserved ranges;
 * an IPv6 form that carries an IPv4 address is judged by that address; any other IPv6 address must
 * be global unicast (2000::/3) outside the special-purpose blocks, so ULA, link-local, multicast,
 * IPv4-compatible (::/96), local-use NAT64 (64:ff9b:1::/48) and Teredo are refused whatever they
 * embed. Anything that is not an address in canonical form (`127.1`, `0x7f.0.0.1`) is refused.
 */
export const isPrivateAddress = (address: string): boolean => {
  if (net.isIP(address) === 4) return blockedV4.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const v4 = embeddedIPv4(groups);
  if (v4) return blockedV4.check(v4, 'ipv4');
  const globalUnicast = (groups[0]! & 0xe000) === 0x2000;
  return !globalUnicast || blockedV6.check(groups.map((x) => x.toString(16)).join(':'), 'ipv6');
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

/** The private addresses this install lets webhooks reach (WEBHOOKS_ALLOWED_PRIVATE_ADDRESSES). */
export const allowedPrivateAddresses = (): readonly string[] => env().WEBHOOKS_ALLOWED_PRIVATE_ADDRESSES ?? [];

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
