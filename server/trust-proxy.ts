import { BlockList, isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';

/*
 * Which proxies' X-Forwarded-* headers are believed (docs/decisions/003-abuse-limits.md, issue 27
 * point 6). Off by default: the address a limit counts is the socket's, so a client cannot pick a
 * new address per request by sending X-Forwarded-For, nor a tenant by X-Forwarded-Host.
 * TRUST_PROXY is either a hop count (the number of proxies in front of the server: each of them is
 * believed, the address one further out is the client's) or a comma-separated list of the proxies'
 * addresses and CIDR ranges (`loopback`, `private` name the usual ones).
 */

/** proxy-addr's trust function: is the address at `hop` (0 = the socket's peer) a proxy we believe? */
export type TrustProxy = (address: string, hop: number) => boolean;

const namedRanges: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
};

/** `::ffff:10.0.0.1` is the IPv4 address 10.0.0.1 seen on an IPv6 socket. */
const unmapped = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address);

function addRange(list: BlockList, range: string): boolean {
  const [address = '', prefix] = range.split('/');
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) {
    list.addAddress(address, type);
    return true;
  }
  const bits = Number(prefix);
  if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) return false;
  list.addSubnet(address, bits, type);
  return true;
}

/**
 * The trust function TRUST_PROXY describes, `false` when it is empty or `false`, or a string saying
 * what is wrong with it. `true` is refused: it would believe every client's headers.
 */
export function parseTrustProxy(value: string): TrustProxy | false | string {
  const setting = value.trim();
  if (setting === '' || setting === 'false' || setting === '0') return false;
  if (/^\d+$/.test(setting)) {
    const hops = Number(setting);
    return (_address, hop) => hop < hops;
  }
  if (setting === 'true') return 'true would believe X-Forwarded-For from anyone: give the number of proxies or their addresses';
  const list = new BlockList();
  for (const entry of setting.split(',').map((item) => item.trim()).filter(Boolean)) {
    const ranges = namedRanges[entry] ?? [entry];
    if (!ranges.every((range) => addRange(list, range))) return `${entry} is not an address, a CIDR range or one of ${Object.keys(namedRanges).join(', ')}`;
  }
  return (address) => {
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  };
}

const forwardedHeaders = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded'] as const;

/**
 * Removes the forwarding headers of a request whose peer is not a trusted proxy, before anything
 * reads them: Fastify applies the same trust to `request.ip`, `host` and `protocol`, but the input
 * guards and the identity provider (koa with `proxy` on) read the headers themselves.
 */
export function registerProxyHeaders(app: FastifyInstance, trust: TrustProxy | false) {
  app.addHook('onRequest', async (request) => {
    const peer = request.raw.socket.remoteAddress ?? '';
    if (trust && trust(peer, 0)) return;
    for (const name of forwardedHeaders) delete request.headers[name];
  });
}

/** The trust function of a TRUST_PROXY that config.ts has already validated. */
export function trustProxyOf(setting: string): TrustProxy | false {
  const trust = parseTrustProxy(setting);
  if (typeof trust === 'string') throw new Error(`TRUST_PROXY: ${trust}`);
  return trust;
}
