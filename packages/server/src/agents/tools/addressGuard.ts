import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The address guard of the server-side fetcher, @browse's Chromium proxy and the image proxy
 * (SSRF, docs/SECURITY.md H7, H8): only plain global unicast addresses may be reached, judged on
 * the address the connection will really use (after DNS), never on the spelling of the URL.
 * Every ipaddr.js range but `unicast` is refused (loopback, private, link-local, CGNAT, multicast,
 * reserved, NAT64, 6to4, Teredo …), and IPv4-mapped IPv6 is judged as the IPv4 it carries.
 */

/** One resolved address of a name. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; tests inject one (a public name → 127.0.0.1). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo), every address, in its order. */
export const systemResolver: Resolver = async (hostname) => {
  const addresses = await lookup(hostname, { all: true, verbatim: true });
  return addresses.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

/** Words for ipaddr.js range names, said in refusals. */
const rangeWords: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (cloud metadata lives there)',
  loopback: 'a loopback address (this server itself)',
  carrierGradeNat: 'a shared (CGNAT) address',
  private: 'a private-network address',
  uniqueLocal: 'a private-network (unique local) address',
  reserved: 'a reserved address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  deprecatedSiteLocal: 'a site-local address',
};

/**
 * Why an address (IPv4 or IPv6, brackets allowed) may not be reached, or undefined when it is
 * plain global unicast. IPv4-mapped IPv6 is judged as the IPv4 it carries; the deprecated
 * IPv4-compatible block ::/96 (what `new URL` makes of `[::127.0.0.1]`) is refused whole.
 */
export function addressRefusal(ip: string): string | undefined {
  const host = ip.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(host)) return 'not an IP address';
  const address = ipaddr.process(host);
  if (address.kind() === 'ipv6' && address.toByteArray().slice(0, 12).every((byte) => byte === 0)) {
    return host === '::' || address.toNormalizedString() === '0:0:0:0:0:0:0:0' ? rangeWords['unspecified'] : 'a reserved (IPv4-compatible) address';
  }
  const range = address.range();
  if (range === 'unicast') return undefined;
  return rangeWords[range] ?? `a special-purpose address (${range})`;
}

/** Whether an address is plain global unicast. */
export function isPublicAddress(ip: string): boolean {
  return addressRefusal(ip) === undefined;
}

/** Ports browsers never fetch (the Fetch Standard's "bad ports"): other protocols listen there. */
const badPorts = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723,
  2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The port a URL connects to (its default when none is written). */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

export function isBadPort(port: number): boolean {
  return badPorts.has(port);
}

/**
 * The operator's allow-list (`CONFAB_FETCH_ALLOW_HOSTS`): exact `host:port` pairs (`[::1]:8080`
 * for IPv6) that may be reached although their address is not public, e.g. an intranet wiki.
 * Never a switch that turns the guard off: a pair allows that host and port only.
 */
export class AllowList {
  private readonly pairs: Set<string>;

  constructor(entries: readonly string[] = []) {
    this.pairs = new Set(entries.map((entry) => entry.trim().toLowerCase()).filter((entry) => /^(\[[0-9a-f:.]+\]|[^:\s]+):\d+$/.test(entry)));
  }

  /** Whether `host:port` is listed; host as `URL.hostname` spells it (brackets for IPv6). */
  allows(host: string, port: number): boolean {
    const name = host.toLowerCase().replace(/\.$/, '');
    const bracketed = isIP(name) === 6 ? `[${name}]` : name;
    return this.pairs.has(`${bracketed}:${port}`);
  }

  get size(): number {
    return this.pairs.size;
  }
}

/** Splits `CONFAB_FETCH_ALLOW_HOSTS` (commas or spaces) into its pairs. */
export function parseAllowHosts(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,]+/).map((entry) => entry.trim()).filter((entry) => entry !== '');
}
