/**
 * The query-string parser of every route (Fastify's routerOptions.querystringParser): what Fastify's
 * own parser (fast-querystring) gives, for every input, at about half its cost on the long
 * percent-encoded Chinese titles and options of an OCS query. Node's querystring does the splitting and
 * the native decodeURIComponent the decoding; a query with a malformed escape (which fast-querystring
 * keeps as it came, where node's would turn it into U+FFFD) is left to fast-querystring itself.
 */
import querystring from 'node:querystring';
import fastQuerystring from 'fast-querystring';

let malformed = false;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    malformed = true;
    return text;
  }
}

export function parseQueryString(text: string): Record<string, string | string[]> {
  malformed = false;
  // maxKeys 0: no limit, as fast-querystring (the URL's length is bounded by the HTTP server).
  const parsed = querystring.parse(text, '&', '=', { decodeURIComponent: decode, maxKeys: 0 });
  return malformed ? fastQuerystring.parse(text) : (parsed as Record<string, string | string[]>);
}
