/**
 * Who may call what. Every /api route must declare `config.auth`; the server refuses to start
 * otherwise. Browser callers are identified by the session cookie; mutating browser requests must be
 * JSON and same-origin (CSRF defence).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasNjitRole, type TokenScope } from '@contract';
import type { Access } from '@contract/endpoint';
import { forbidden, HttpError, unauthorized } from '../errors';

export type { Access };

/** A browser session's user, as the identity provider resolves it. */
export interface SessionUser {
  id: number;
  username: string;
  nickname: string | null;
  avatar: string | null;
  roles: string[];
  sessionIdHash: string;
  /**
   * A role requires two-factor sign-in (REQUIRE_2FA_ROLES) and the user has not set it up: the session
   * may call only the routes that allow it (`duringEnrolment`): who am I, set it up, sign out.
   */
  mustEnrollTwoFactor?: boolean;
}

/** A verified personal API token. */
export interface TokenAuth {
  tokenId: number;
  userId: number;
  username: string;
  roles: string[];
  scopes: TokenScope[];
}

/** A new session's cookie value and lifetime (null: the cookie ends with the browser). */
export interface NewSession {
  token: string;
  maxAgeSeconds: number | null;
}

/**
 * Who a request comes from. The user module provides it (server/app.ts passes it in), so this plugin
 * knows nothing of how sessions and tokens are stored.
 */
export interface Identity {
  /** The user behind a session cookie, or null when it is unknown, expired or the user is disabled. */
  resolveSession(cookie: string): Promise<SessionUser | null>;
  /** 401 for a missing, unknown, revoked or expired token, 403 for a missing scope. */
  verifyToken(token: string | undefined, scope: TokenScope | undefined, ip: string): Promise<TokenAuth>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: Access;
    /** For auth 'token': the scope the token must carry. */
    scope?: TokenScope;
    /** For auth 'token': a logged-in browser session is accepted instead of a token. */
    allowSession?: boolean;
    /** For auth 'token': the path parameter that carries the token (ServerChan's `/<sendkey>.send`). */
    tokenParam?: string;
    /** The route was made from a contract descriptor (server/http/route.ts). */
    descriptor?: boolean;
    /** A session that must set up two-factor sign-in first may call this route (see SessionUser). */
    duringEnrolment?: boolean;
    /**
     * Called server to server (a CAS single-logout request): form bodies are accepted and the browser
     * rules (same origin, JSON) do not apply; such a route acts on no session of the caller.
     */
    backChannel?: boolean;
  }
  interface FastifyRequest {
    user: SessionUser | null;
    /** Set on auth 'token' routes once the personal API token is verified. */
    tokenAuth: TokenAuth | null;
  }
  interface FastifyInstance {
    /** Every /api route and who may call it; the access tests walk this list. */
    routeAccess: { method: string; url: string; auth: Access }[];
    /** For routes that check a token themselves (the OCS query API answers refusals as HTTP 200). */
    identity: Identity;
  }
}

export const SESSION_COOKIE = 'portal_sid';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, session: NewSession): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    ...(session.maxAgeSeconds ? { maxAge: session.maxAgeSeconds } : {}),
  });
}

/** A long-lived id of this browser (login throttling's known devices): HttpOnly, never a credential. */
export function setDeviceCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(name, value, {
    path: '/api/user',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

function checkSameOrigin(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site') throw forbidden('拒绝跨站请求');
  const origin = request.headers.origin;
  if (!origin) return; // non-browser clients send none; browsers always do on cross-origin POSTs
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    throw forbidden('拒绝跨站请求');
  }
  if (host !== request.host) throw forbidden('拒绝跨站请求');
}

function checkJson(request: FastifyRequest): void {
  const type = request.headers['content-type']?.toLowerCase();
  if (!type) {
    const length = request.headers['content-length'];
    if ((length === undefined || length === '0') && !request.headers['transfer-encoding']) return; // no body
  } else if (type.startsWith('application/json') || type.startsWith('multipart/form-data')) {
    return;
  }
  throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', '不支持的请求格式，请使用 JSON');
}

/** The token from `Authorization: Bearer`, or a `token` query or body parameter. */
export function tokenFrom(request: FastifyRequest): string | undefined {
  const param = request.routeOptions.config.tokenParam;
  const fromPath = param ? (request.params as Record<string, unknown> | undefined)?.[param] : undefined;
  if (typeof fromPath === 'string' && fromPath) return fromPath;
  const header = request.headers.authorization;
  if (header && /^bearer\s+/i.test(header)) return header.replace(/^bearer\s+/i, '').trim();
  const fromQuery = (request.query as { token?: unknown } | undefined)?.token;
  if (typeof fromQuery === 'string' && fromQuery) return fromQuery;
  const fromBody = (request.body as { token?: unknown } | undefined)?.token;
  if (typeof fromBody === 'string' && fromBody) return fromBody;
  return undefined;
}

export function actorOf(request: FastifyRequest): { id: number; username: string; ip: string } {
  return { id: request.user!.id, username: request.user!.username, ip: request.ip };
}

export default fp(
  async function auth(app: FastifyInstance, { identity }: { identity: Identity }) {
    app.decorate('identity', identity);
    app.decorateRequest('user', null);
    app.decorateRequest('tokenAuth', null);
    app.decorate('routeAccess', [] as FastifyInstance['routeAccess']);

    app.addHook('onRoute', (route) => {
      // Outside /api, routes made from a contract descriptor (the drop-in compatible ServerChan and
      // PushPlus endpoints) are listed too; /metrics and the UI are not.
      if (!route.url.startsWith('/api') && !(route.config as { descriptor?: boolean } | undefined)?.descriptor) return;
      if (route.url.startsWith('/api/docs')) {
        route.config = { ...(route.config as object), auth: 'public' } as typeof route.config;
        return;
      }
      const auth = (route.config as { auth?: Access } | undefined)?.auth;
      if (!auth) throw new Error(`Route ${route.method} ${route.url} does not declare config.auth`);
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') app.routeAccess.push({ method, url: route.url, auth });
      }
    });

    app.addHook('onRequest', async (request) => {
      const auth = request.routeOptions.config.auth;
      if (!auth) return; // not an /api route (UI, 404)
      const { backChannel, duringEnrolment } = request.routeOptions.config;
      if (auth !== 'token' && auth !== 'ocs-token' && !backChannel && MUTATING.has(request.method)) {
        checkSameOrigin(request);
        checkJson(request);
      }
      const token = request.cookies[SESSION_COOKIE];
      if (token && token.length <= 128) {
        request.user = await identity.resolveSession(token);
      }
      if (auth === 'public' || auth === 'token' || auth === 'ocs-token') return;
      if (!request.user) throw unauthorized();
      if (request.user.mustEnrollTwoFactor && !duringEnrolment) {
        throw new HttpError(403, 'TWO_FACTOR_ENROLLMENT_REQUIRED', '你的账号需要先开启两步验证，才能使用其他功能');
      }
      if (auth === 'admin' && !request.user.roles.includes('admin')) throw forbidden();
      // Any NJIT role opens the lookup; what each sees is the module's field policy and row scope.
      if (auth === 'njit' && !hasNjitRole(request.user.roles)) throw forbidden();
    });

    // Answers about a caller (sessions, tokens, balances, student records) must not sit in a browser or
    // proxy cache: every /api answer is no-store unless its route chose otherwise (avatars, the script).
    app.addHook('onSend', async (request, reply) => {
      if (request.routeOptions.config.auth && !reply.hasHeader('cache-control'))
        reply.header('cache-control', 'no-store');
    });

    // Token routes: after body parsing, because scripts may send `token` in a JSON or form body.
    app.addHook('preHandler', async (request) => {
      if (request.routeOptions.config.auth !== 'token') return;
      if (request.routeOptions.config.allowSession && request.user && !request.user.mustEnrollTwoFactor) return;
      request.tokenAuth = await identity.verifyToken(tokenFrom(request), request.routeOptions.config.scope, request.ip);
    });
  },
  { name: 'auth' },
);
