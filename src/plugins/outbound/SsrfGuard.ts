import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';
import { SsrfBlockedError } from './OutboundErrors';

type Ipv4Range = readonly [ number, number ];

/** IPv4 ranges that are not public unicast (RFC 6890 special-purpose registry and friends). */
const IPV4_BLOCKED: readonly Ipv4Range[] = [
  [ ipv4Number([ 0, 0, 0, 0 ]), 8 ], // "this network", unspecified
  [ ipv4Number([ 10, 0, 0, 0 ]), 8 ], // private
  [ ipv4Number([ 100, 64, 0, 0 ]), 10 ], // carrier-grade NAT
  [ ipv4Number([ 127, 0, 0, 0 ]), 8 ], // loopback
  [ ipv4Number([ 169, 254, 0, 0 ]), 16 ], // link-local (cloud metadata)
  [ ipv4Number([ 172, 16, 0, 0 ]), 12 ], // private
  [ ipv4Number([ 192, 0, 0, 0 ]), 24 ], // IETF protocol assignments
  [ ipv4Number([ 192, 0, 2, 0 ]), 24 ], // TEST-NET-1
  [ ipv4Number([ 192, 88, 99, 0 ]), 24 ], // 6to4 relay anycast
  [ ipv4Number([ 192, 168, 0, 0 ]), 16 ], // private
  [ ipv4Number([ 198, 18, 0, 0 ]), 15 ], // benchmarking
  [ ipv4Number([ 198, 51, 100, 0 ]), 24 ], // TEST-NET-2
  [ ipv4Number([ 203, 0, 113, 0 ]), 24 ], // TEST-NET-3
  [ ipv4Number([ 224, 0, 0, 0 ]), 4 ], // multicast
  [ ipv4Number([ 240, 0, 0, 0 ]), 4 ], // reserved, broadcast
];

function ipv4Number(octets: readonly number[]): number {
  return ((octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3]) >>> 0;
}

function ipv4Public(value: number): boolean {
  for (const [ base, bits ] of IPV4_BLOCKED) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if (((value & mask) >>> 0) === base) {
      return false;
    }
  }
  return true;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or undefined. */
export function parseIpv6(address: string): number[] | undefined {
  const text = address.replace(/^\[|\]$/gu, '').replace(/%.*$/u, '');
  if (!isIPv6(text)) {
    return undefined;
  }
  let head = text;
  const tailV4: number[] = [];
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const octets = last.split('.').map(Number);
    tailV4.push((octets[0] << 8) | octets[1], (octets[2] << 8) | octets[3]);
    head = text.slice(0, lastColon + 1);
    if (head.endsWith(':') && !head.endsWith('::')) {
      head = head.slice(0, -1);
    }
  }
  const halves = head.split('::');
  const toGroups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = toGroups(halves[0]);
  const right = halves.length > 1 ? toGroups(halves[1]) : [];
  const fill = 8 - left.length - right.length - tailV4.length;
  const groups = [ ...left, ...new Array<number>(halves.length > 1 ? fill : 0).fill(0), ...right, ...tailV4 ];
  return groups.length === 8 ? groups : undefined;
}

function ipv6Public(g: number[]): boolean {
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  const embedded = (hi: number, lo: number): boolean => ipv4Public(((hi << 16) | lo) >>> 0);
  if (zeros(0, 5) && g[5] === 0xffff) {
    return embedded(g[6], g[7]); // ::ffff:a.b.c.d, IPv4-mapped
  }
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) {
    return embedded(g[6], g[7]); // ::ffff:0:a.b.c.d, IPv4-translated
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) {
    return embedded(g[6], g[7]); // 64:ff9b::/96 NAT64
  }
  if (g[0] === 0x2002) {
    return embedded(g[1], g[2]); // 6to4
  }
  // Everything else must be global unicast (2000::/3) outside the special blocks in it.
  if ((g[0] & 0xe000) !== 0x2000) {
    return false; // ::, ::1, ::/96, 64:ff9b:1::/48, 100::/64, fc00::/7, fe80::/10, ff00::/8, …
  }
  if (g[0] === 0x2001 && (g[1] < 0x200 || g[1] === 0xdb8)) {
    return false; // 2001::/23 IETF protocol assignments (Teredo, ORCHID, …), 2001:db8::/32 documentation
  }
  if ((g[0] & 0xfff0) === 0x3ff0) {
    return false; // 3fff::/20 documentation
  }
  return true;
}

/** Whether an IP address is public unicast, i.e. not loopback, private, link-local, etc. */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) {
    return ipv4Public(ipv4Number(address.split('.').map(Number)));
  }
  const groups = parseIpv6(address);
  return groups !== undefined && ipv6Public(groups);
}

/** `scheme://host:port` with the port always written (80, 443 by default) and the host in lower case. */
export function originKey(protocol: string, hostname: string, port?: string | number | null): string {
  const scheme = protocol.endsWith(':') ? protocol : `${protocol}:`;
  const host = hostname.replace(/^\[|\]$/gu, '').toLowerCase();
  const fallback = scheme === 'https:' ? 443 : 80;
  const number = port === undefined || port === null || port === '' ? fallback : Number(port);
  return `${scheme}//${host}:${number}`;
}

/**
 * Keeps server-side requests away from the server's own network: only http(s) URLs without
 * credentials, and only to public unicast addresses unless `allowPrivateNetwork` (for tests and
 * closed federations on a LAN). The `allowedOrigins` (the server's own public origin: its base URL)
 * are reached wherever they resolve to: a Solid token this server issued names this server as its
 * issuer and a WebID here, and the server reads both as any client would.
 *
 * Use `lookupFunction()` as the `lookup` option of the http(s) agents: node then connects to exactly the
 * addresses checked here, so a DNS answer cannot change between the check and the connection
 * (no DNS-rebinding gap). IP-literal hosts never reach `lookup`, so `checkUrl` (or, for a connection,
 * `connectionCheck`) must be called before each request (including after each redirect).
 * `GuardedAgents`, `GuardedDispatcher` and `ProcessOutboundGuard` do all of that for a connection.
 */
export class SsrfGuard {
  private readonly origins: ReadonlySet<string>;

  /**
   * @param allowPrivateNetwork - Let requests reach loopback, private and other reserved addresses.
   * @param allowedOrigins - URLs whose origins are always reached (the server's base URL).
   */
  public constructor(private readonly allowPrivateNetwork = false, allowedOrigins: string[] = []) {
    this.origins = new Set(allowedOrigins.filter((url): boolean => url !== '').map((url): string => {
      const parsed = new URL(url);
      return originKey(parsed.protocol, parsed.hostname, parsed.port);
    }));
  }

  /** The origins always reached, as `scheme://host:port`. */
  public get allowedOrigins(): readonly string[] {
    return [ ...this.origins ];
  }

  /** Whether a connection to this scheme, host and port is one to an allowed origin (the server itself). */
  public isAllowedOrigin(protocol: string, hostname: string, port?: string | number | null): boolean {
    return this.origins.size > 0 && this.origins.has(originKey(protocol, hostname, port));
  }

  /**
   * For a connection about to be opened (by an agent or a dispatcher): why it must not be, or
   * undefined. Refuses IP-literal hosts that are not allowed, and Unix sockets; a host name is
   * checked by `lookup` when it is resolved. `usesLookup` tells whether the caller must resolve the
   * host through `lookup` (false for an allowed origin, which is reached wherever it resolves to).
   */
  public connectionCheck(protocol: string, host: string | null | undefined, port?: string | number | null, socketPath?: string | null):
  { refusal?: SsrfBlockedError; usesLookup: boolean } {
    if (socketPath) {
      return this.allowPrivateNetwork ? { usesLookup: false } :
        { refusal: new SsrfBlockedError(`Refusing to connect to the Unix socket ${socketPath}`), usesLookup: false };
    }
    // Node connects to localhost when no host is given.
    const name = (host ?? '').replace(/^\[|\]$/gu, '') || 'localhost';
    if (this.isAllowedOrigin(protocol, name, port)) {
      return { usesLookup: false };
    }
    if (isIP(name) !== 0 && !this.isAllowedAddress(name)) {
      return { refusal: new SsrfBlockedError(`Refusing to connect to the non-public address ${name}`), usesLookup: false };
    }
    return { usesLookup: isIP(name) === 0 && !this.allowPrivateNetwork };
  }

  /**
   * A `net.LookupFunction` for the `lookup` option of http(s) agents (bind it: `guard.lookup.bind(guard)`,
   * or use `lookupFunction()`): resolves like `dns.lookup` and fails with `SsrfBlockedError` when
   * any address of the host is not allowed.
   */
  public lookup(
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void {
    this.resolveChecked(hostname, options.family).then(
      (addresses) => {
        if (options.all === true) {
          callback(null, addresses);
        } else {
          callback(null, addresses[0].address, addresses[0].family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  }

  /** `lookup` bound to this guard. */
  public lookupFunction(): LookupFunction {
    return (hostname, options, callback): void => this.lookup(hostname, options, callback);
  }

  /** Checks the scheme, the credentials and an IP-literal host, without DNS. Throws `SsrfBlockedError`. */
  public checkUrl(input: string | URL): URL {
    let url: URL;
    try {
      url = new URL(input);
    } catch {
      throw new SsrfBlockedError(`Not a valid URL: ${String(input)}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new SsrfBlockedError(`Only http and https URLs are fetched, not ${url.protocol}`);
    }
    if (url.username !== '' || url.password !== '') {
      throw new SsrfBlockedError('URLs with credentials are not fetched');
    }
    const host = url.hostname.replace(/^\[|\]$/gu, '');
    if (host === '') {
      throw new SsrfBlockedError('The URL has no host');
    }
    if (isIP(host) !== 0 && !this.isAllowedAddress(host) && !this.isAllowedOrigin(url.protocol, host, url.port)) {
      throw new SsrfBlockedError(`Refusing to connect to the non-public address ${host}`);
    }
    return url;
  }

  /** `checkUrl` and a DNS lookup of the host, every address of which must be allowed (unless it is an allowed origin). */
  public async check(input: string | URL): Promise<{ url: URL; addresses: string[] }> {
    const url = this.checkUrl(input);
    const host = url.hostname.replace(/^\[|\]$/gu, '');
    if (isIP(host) !== 0) {
      return { url, addresses: [ host ] };
    }
    if (this.isAllowedOrigin(url.protocol, host, url.port)) {
      const addresses = await this.resolveHost(host, 0);
      return { url, addresses: addresses.map((entry) => entry.address) };
    }
    const addresses = await this.resolveChecked(host);
    return { url, addresses: addresses.map((entry) => entry.address) };
  }

  public isAllowedAddress(address: string): boolean {
    return this.allowPrivateNetwork || isPublicAddress(address);
  }

  /** All addresses of a host name; overridable for tests. */
  protected async resolveHost(hostname: string, family: number): Promise<LookupAddress[]> {
    return dns.lookup(hostname, { all: true, family, verbatim: true });
  }

  private async resolveChecked(hostname: string, requested?: number | string): Promise<LookupAddress[]> {
    const family = requested === 'IPv4' || requested === 4 ? 4 : requested === 'IPv6' || requested === 6 ? 6 : 0;
    const addresses = await this.resolveHost(hostname, family);
    if (addresses.length === 0) {
      throw Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' });
    }
    const refused = addresses.find((entry) => !this.isAllowedAddress(entry.address));
    if (refused !== undefined) {
      throw new SsrfBlockedError(`Refusing to connect to ${hostname}: it resolves to the non-public address ${refused.address}`);
    }
    return addresses;
  }
}
