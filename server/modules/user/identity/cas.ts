/**
 * The CAS client side (CAS protocol 2.0 and 3.0, apereo.github.io/cas/…/CAS-Protocol-Specification):
 * the login URL, ticket validation at /serviceValidate (2.0) or /p3/serviceValidate (3.0, with
 * attributes), and reading a single-logout request. The XML is read with fast-xml-parser, which
 * resolves no external entities.
 */
import { XMLParser } from 'fast-xml-parser';
import type { ExternalIdentity } from './accounts';

/** Why a validation failed: the ticket was refused, the server could not be reached, or its answer made no sense. */
export class CasError extends Error {
  constructor(
    readonly kind: 'ticket' | 'unreachable' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

export interface CasSettings {
  url: string;
  version: '2' | '3';
  timeoutMs: number;
  /** Usernames differing by case alone are different people (CAS_CASE_SENSITIVE). */
  caseSensitive: boolean;
}

export function casLoginUrl(casUrl: string, service: string): string {
  return `${casUrl}/login?service=${encodeURIComponent(service)}`;
}

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
});

function asStrings(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list
    .map((v) => (v && typeof v === 'object' ? (v as { '#text'?: unknown })['#text'] : v))
    .filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v))
    .map(String);
}

/** The authenticated user and attributes of a serviceValidate answer; CasError('ticket') for a failure. */
export function parseValidation(xml: string): { user: string; attributes: Record<string, string[]> } {
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(xml) as Record<string, unknown>;
  } catch {
    throw new CasError('failed', 'CAS 服务器的应答无法解析');
  }
  const response = doc.serviceResponse as Record<string, unknown> | undefined;
  if (!response || typeof response !== 'object') throw new CasError('failed', 'CAS 服务器的应答格式不正确');
  const failure = response.authenticationFailure;
  if (failure !== undefined) {
    const code = (failure as { '@code'?: string })?.['@code'] ?? 'INVALID_TICKET';
    throw new CasError('ticket', `CAS 拒绝了票据（${code}）`);
  }
  const success = response.authenticationSuccess as Record<string, unknown> | undefined;
  const user = success ? asStrings(success.user)[0]?.trim() : undefined;
  if (!user) throw new CasError('failed', 'CAS 服务器的应答中没有用户');
  const attributes: Record<string, string[]> = {};
  const raw = success!.attributes;
  if (raw && typeof raw === 'object') {
    for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
      if (name.startsWith('@')) continue;
      attributes[name] = asStrings(value);
    }
  }
  return { user, attributes };
}

/** Validates a service ticket for exactly this service URL. */
export async function validateTicket(
  settings: CasSettings,
  service: string,
  ticket: string,
): Promise<ExternalIdentity> {
  const path = settings.version === '3' ? '/p3/serviceValidate' : '/serviceValidate';
  const url = `${settings.url}${path}?service=${encodeURIComponent(service)}&ticket=${encodeURIComponent(ticket)}`;
  let body: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(settings.timeoutMs), redirect: 'error' });
    if (!res.ok) throw new CasError('unreachable', `CAS 服务器应答 HTTP ${res.status}`);
    body = await res.text();
  } catch (err) {
    if (err instanceof CasError) throw err;
    throw new CasError('unreachable', `无法连接 CAS 服务器：${(err as Error).name}`);
  }
  const { user, attributes } = parseValidation(body);
  const first = (...names: string[]) => names.map((n) => attributes[n]?.[0]).find((v) => v?.trim()) ?? null;
  return {
    provider: 'cas',
    subject: user,
    // Most CAS servers sign in `JDOE` and `jdoe` as one user and answer as typed.
    caseInsensitive: !settings.caseSensitive,
    displayName: first('displayName', 'name', 'cn', 'realName'),
    email: first('mail', 'email'),
    attributes,
  };
}

/** The service ticket a CAS single-logout request names (its SessionIndex), or null. */
export function parseLogoutRequest(xml: string | undefined): string | null {
  if (!xml) return null;
  try {
    const doc = parser.parse(xml) as { LogoutRequest?: { SessionIndex?: unknown } };
    const index = asStrings(doc.LogoutRequest?.SessionIndex)[0]?.trim();
    return index || null;
  } catch {
    return null;
  }
}
