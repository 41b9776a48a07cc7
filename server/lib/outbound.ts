/**
 * Requests to URLs that users and administrators typed — UMS webhooks and delivery callbacks, OCS
 * upstream banks, AI providers' base URLs — must not reach the server's own network: loopback,
 * private, link-local (cloud metadata at 169.254.169.254) and the other special ranges are refused when
 * the URL is saved, and again at every connection: the DNS answer itself is checked, so a name that
 * resolves inward (now or later) is refused too. Base URLs an operator allow-lists
 * (UMS_WEBHOOK_ALLOWLIST, ADMIN_URL_ALLOWLIST) are exempt: a self-hosted gateway, a model server on
 * the campus network, the tests' fakes.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import { Readable } from 'node:stream';

// Two lists: Node's BlockList checks an IPv4 address against IPv6 rules as ::ffff:a.b.c.d, so one list
// holding ::ffff:0:0/96 would call every IPv4 address private.
const PRIVATE_V4 = new net.BlockList();
const PRIVATE_V6 = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE_V4.addSubnet(net4, bits, 'ipv4');
for (const [net6, bits] of [
  // IPv4-compatible (::a.b.c.d, which URLs write as ::7f00:1) and the unspecified and loopback addresses
  ['::', 96],
  // IPv4-mapped in every spelling (URLs turn ::ffff:127.0.0.1 into ::ffff:7f00:1)
  ['::ffff:0:0', 96],
  // NAT64: an IPv4 address behind a translator, private ones included
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE_V6.addSubnet(net6, bits, 'ipv6');

/** A loopback, private, link-local, multicast or otherwise special address (false for a host name). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped ? mapped[1] : address;
  const version = net.isIP(plain);
  if (!version) return false;
  return version === 6 ? PRIVATE_V6.check(plain, 'ipv6') : PRIVATE_V4.check(plain, 'ipv4');
}

let interfaceAddresses: Set<string> | null = null;

/** The addresses of this server's network interfaces (public ones too): the server itself. */
export function ownInterfaceAddresses(): string[] {
  interfaceAddresses ??= new Set(
    Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.toLowerCase())),
  );
  return [...interfaceAddresses];
}

/** An address of one of this server's network interfaces. */
export function isOwnInterfaceAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return ownInterfaceAddresses().includes((mapped ? mapped[1] : address).toLowerCase());
}

/** A URL's host that points inward as written: a private address, or localhost in any spelling. */
export function isInwardHost(url: URL): boolean {
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host);
}

/** An allow-listed base URL covers this one (it starts with it). */
export function allowListed(raw: string, allowlist: readonly string[]): boolean {
  return allowlist.some((allowed) => raw.startsWith(allowed));
}

/** A typed URL that points inward as written and is not allow-listed (false for one that does not parse). */
export function pointsInward(raw: string, allowlist: readonly string[]): boolean {
  if (allowListed(raw, allowlist)) return false;
  try {
    return isInwardHost(new URL(raw));
  } catch {
    return false;
  }
}

/** The refusal of an administrator's URL that points inward, for messages. */
export const INWARD_ADMIN_URL = '不能是内网、本机或链路本地地址（管理员可将其加入 ADMIN_URL_ALLOWLIST）';

export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATE';
}

/**
 * dns.lookup that refuses names resolving to a private address or one of the server's own (the check
 * happens at connect time).
 */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 4);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address) || isOwnInterfaceAddress(a.address));
    if (bad || list.length === 0) {
      return callback(new PrivateAddressError(`${hostname} resolves to a private address`), '', 4);
    }
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    } else callback(null, list[0].address, list[0].family);
  });
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * One request over node:http(s), the answer as a fetch Response; with `guard`, an inward address (as
 * written, or as the name resolves) is refused before anything is sent.
 */
function requestOnce(
  url: URL,
  method: string,
  headers: Headers,
  body: Buffer | null,
  signal: AbortSignal,
  guard: boolean,
) {
  return new Promise<Response>((resolve, reject) => {
    // A literal IP is never looked up: check it here.
    if (guard && isInwardHost(url)) {
      reject(new PrivateAddressError(`${url.hostname} is a private address`));
      return;
    }
    const mod = url.protocol === 'https:' ? https : http;
    const sent: Record<string, string> = {};
    headers.forEach((value, name) => (sent[name] = value));
    if (body) sent['content-length'] = String(body.length);
    const req = mod.request(url, {
      method,
      headers: sent,
      ...(guard ? { lookup: guardedLookup } : {}),
      signal,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const answer = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) answer.append(name, v);
      }
      const status = res.statusCode ?? 502;
      const empty = status === 204 || status === 205 || status === 304 || method === 'HEAD';
      if (empty) res.resume();
      resolve(
        new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
          status,
          statusText: res.statusMessage ?? '',
          headers: answer,
        }),
      );
    });
    req.end(body ?? undefined);
  });
}

/**
 * fetch for URLs someone typed: a URL that is not allow-listed is refused (PrivateAddressError) when its
 * host is, or resolves to, an inward address — at connection time, and for every redirect it follows
 * too. Answers carry no `url` and are never `redirected`.
 */
export function guardedFetch(allowlist: readonly string[]): typeof fetch {
  return async (input, init) => {
    let request = new Request(input, init);
    let body = request.body ? Buffer.from(await request.arrayBuffer()) : null;
    for (let hop = 0; ; hop++) {
      const url = new URL(request.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new TypeError(`fetch failed: unsupported protocol ${url.protocol}`);
      }
      const guard = !allowListed(url.href, allowlist);
      const res = await requestOnce(url, request.method, request.headers, body, request.signal, guard);
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || !location || request.redirect === 'manual') return res;
      await res.body?.cancel();
      if (request.redirect === 'error' || hop >= MAX_REDIRECTS) throw new TypeError('fetch failed: redirect');
      // As fetch does: 303 (and 301/302 after a POST) continue as a GET without the body.
      const asGet = res.status === 303 || ((res.status === 301 || res.status === 302) && request.method === 'POST');
      const next = new URL(location, url);
      if (asGet) body = null;
      // As fetch does: credentials are not sent on to another origin.
      const headers = new Headers(request.headers);
      if (next.origin !== url.origin) for (const name of ['authorization', 'cookie']) headers.delete(name);
      request = new Request(next, {
        method: asGet ? 'GET' : request.method,
        headers,
        signal: request.signal,
        redirect: request.redirect,
      });
    }
  };
}
