/**
 * Which hops in front of the portal are trusted proxies (TRUST_PROXY), as the function Fastify's
 * `trustProxy` takes: `(address, hop)` for the connecting address (hop 0) and then each
 * `X-Forwarded-For` entry from the right. The client is the first address not trusted — the one the
 * last trusted proxy saw — so an entry a client wrote itself (an appending proxy keeps it on the left)
 * is never taken. Only a trusted peer's `X-Forwarded-Proto`, `-Host` and `X-Request-Id` are read.
 *
 * - `false` (default): no proxy; the connecting address is the client.
 * - `true`: one proxy on this host (nginx on loopback, deploy/systemd): hop 0 is trusted when it is a
 *   loopback address, nothing beyond it.
 * - a number n: exactly n proxies, whatever their addresses (every request must pass through them,
 *   e.g. instances reachable only from nginx's container network).
 * - IP addresses and CIDR blocks (`10.0.0.5,192.168.10.0/24`): the proxies' addresses; every hop from
 *   the right that is one of them is trusted (a CDN in front of nginx: list both).
 */
import { parseIpAllowList, type IpAllowList } from './ip-allow';

export interface TrustProxy {
  /** The setting as given, for messages. */
  readonly text: string;
  /** How many hops from the connection may be trusted at most. */
  readonly hops: number;
  /** The addresses a trusted hop must have; null: any. */
  readonly from: IpAllowList | null;
}

const LOOPBACK = parseIpAllowList('127.0.0.0/8,::1');

/** Throws a message naming what is wrong. */
export function parseTrustProxy(value: string): TrustProxy {
  const text = value.trim();
  const lower = text.toLowerCase();
  if (['', 'false', 'no', '0'].includes(lower)) return { text, hops: 0, from: null };
  if (['true', 'yes'].includes(lower)) return { text, hops: 1, from: LOOPBACK };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 10) throw new Error('at most 10 hops');
    return { text, hops, from: null };
  }
  try {
    return { text, hops: Infinity, from: parseIpAllowList(text) };
  } catch (err) {
    throw new Error(`true, false, a number of hops, or proxy addresses/CIDR blocks (${(err as Error).message})`);
  }
}

/** Fastify's `trustProxy` for the setting (false when nothing is trusted). */
export function trustProxyOption(trust: TrustProxy): false | ((address: string, hop: number) => boolean) {
  if (trust.hops === 0) return false;
  return (address, hop) => hop < trust.hops && (trust.from === null || trust.from.allows(address));
}

/** Whether the connecting address is a trusted proxy (its forwarded headers may be read). */
export function trustsPeer(trust: TrustProxy, address: string | undefined): boolean {
  return trust.hops > 0 && (trust.from === null || trust.from.allows(address));
}
