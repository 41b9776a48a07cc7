/**
 * HTTP layer of CAS and OIDC single sign-on: the redirects to the identity servers and back, CAS single
 * logout, an identity waiting to be linked, and the identities of the signed-in user. The browser
 * arrives at the callbacks by top-level navigation, so they answer redirects (to the page to show, with
 * `sso_error=<code>` when something failed), never JSON.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as api from '@contract/api/identity';
import type { SsoProvider } from '../../../../src/contract';
import { HOME_PATH, safeRedirect } from '../../../../src/contract/redirect';
import type { SsoErrorCode } from '../../../../src/contract/ssoErrors';
import type { AppDeps } from '../../../deps';
import { forbidden, HttpError } from '../../../errors';
import { publicBaseUrl } from '../../../http/public-url';
import { success, SUCCESS } from '../../../http/reply';
import { route } from '../../../http/route';
import { randomSecret, sha256 } from '../../../lib/tokens';
import { authCacheOf } from '../auth-cache';
import * as users from '../service';
import { createAccountFor, linkIdentity, listIdentities, mappedRoles, unlinkIdentity } from './accounts';
import { casLoginUrl, CasError, parseLogoutRequest, validateTicket } from './cas';
import { applySignIn, clearStepCookie, metaOf, originOf, setStepCookie } from './http';
import type { OidcClient } from './oidc';
import { OidcError } from './oidc';
import { signInContext } from './sign-in';
import { finishSso, SECURITY_PAGE, signInLinked, type SsoContext, type SsoFinish } from './sso';
import {
  dropPending,
  PENDING_COOKIE,
  readPending,
  STATE_COOKIE,
  STATE_MINUTES,
  startState,
  takeState,
  type StartedSignIn,
} from './sso-state';

const LOGIN_PAGE = '/user/login';
const PENDING_PAGE = '/user/ssoBind';

const withQuery = (path: string, query: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) search.set(k, v);
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
};

/** The login page with the error, keeping where the user wanted to go. */
function loginError(code: SsoErrorCode, redirect: string): string {
  return withQuery(LOGIN_PAGE, { sso_error: code, redirect: redirect === HOME_PATH ? undefined : redirect });
}

export default async function ssoRoutes(
  app: FastifyInstance,
  deps: AppDeps & { oidc: OidcClient | null },
): Promise<void> {
  const { db, secrets, config, oidc } = deps;
  const ctx: SsoContext = {
    ...signInContext(deps),
    autoCreate: config.SSO_AUTO_CREATE,
    roleMap: config.SSO_ROLE_MAP,
  };
  const configured = (provider: SsoProvider) => (provider === 'cas' ? !!config.CAS_URL : !!oidc);
  const casService = (request: FastifyRequest, state: string) =>
    `${publicBaseUrl(config, request)}${api.casCallback.path}?state=${encodeURIComponent(state)}`;
  const oidcRedirectUri = (request: FastifyRequest) => `${publicBaseUrl(config, request)}${api.oidcCallback.path}`;

  /** Starts a sign-in or a link: a state bound to this browser, then off to the identity server. */
  async function start(request: FastifyRequest, reply: FastifyReply, s: Omit<StartedSignIn, 'codeVerifier' | 'nonce'>) {
    const fail = (code: SsoErrorCode) =>
      reply.redirect(
        s.purpose === 'link' ? withQuery(SECURITY_PAGE, { sso_error: code }) : loginError(code, s.redirect),
      );
    if (!configured(s.provider)) return fail('not_configured');
    if (s.provider === 'cas') {
      const state = await startState(db, secrets, { ...s, codeVerifier: null, nonce: null });
      setStepCookie(request, reply, STATE_COOKIE, state, STATE_MINUTES * 60);
      return reply.redirect(casLoginUrl(config.CAS_URL!, casService(request, state)));
    }
    // OIDC: the state goes into the authorization URL, so it is drawn first and stored with what it needs.
    const state = randomSecret(32);
    let started: { url: string; codeVerifier: string; nonce: string };
    try {
      started = await oidc!.start(oidcRedirectUri(request), state);
    } catch (err) {
      request.log.warn({ err: (err as Error).message }, 'oidc sign-in could not start');
      return fail(err instanceof OidcError ? (err.kind === 'unreachable' ? 'unreachable' : 'failed') : 'failed');
    }
    await startState(db, secrets, { ...s, codeVerifier: started.codeVerifier, nonce: started.nonce }, state);
    setStepCookie(request, reply, STATE_COOKIE, state, STATE_MINUTES * 60);
    return reply.redirect(started.url);
  }

  /** Cookies and the redirect for what the sign-in came to. */
  function land(request: FastifyRequest, reply: FastifyReply, finish: SsoFinish) {
    clearStepCookie(request, reply, STATE_COOKIE);
    switch (finish.kind) {
      case 'error':
        return reply.redirect(
          finish.link ? withQuery(SECURITY_PAGE, { sso_error: finish.code }) : loginError(finish.code, finish.redirect),
        );
      case 'linked':
        return reply.redirect(withQuery(SECURITY_PAGE, { linked: '1' }));
      case 'pending':
        setStepCookie(request, reply, PENDING_COOKIE, finish.pending, STATE_MINUTES * 60);
        return reply.redirect(
          withQuery(PENDING_PAGE, { redirect: finish.redirect === HOME_PATH ? undefined : finish.redirect }),
        );
      case 'signed-in':
        applySignIn(request, reply, finish.outcome);
        if (finish.outcome.kind === 'challenge') {
          return reply.redirect(withQuery(LOGIN_PAGE, { step: '2fa', redirect: finish.redirect }));
        }
        return reply.redirect(safeRedirect(finish.redirect));
    }
  }

  /** An identity-server failure: logged (without secrets), and the user told in Chinese. */
  function failed(request: FastifyRequest, reply: FastifyReply, started: StartedSignIn, err: CasError | OidcError) {
    request.log.warn({ provider: started.provider, kind: err.kind, err: err.message }, 'sso sign-in failed');
    const code: SsoErrorCode =
      err.kind === 'unreachable'
        ? 'unreachable'
        : err.kind === 'ticket'
          ? 'ticket'
          : err.kind === 'denied'
            ? 'denied'
            : 'failed';
    return land(request, reply, { kind: 'error', code, redirect: started.redirect, link: started.purpose === 'link' });
  }

  // Anyone may start one (each costs a row for 10 minutes, and an OIDC discovery): limited per IP.
  route(
    app,
    api.ssoLogin,
    async (request, reply) =>
      start(request, reply, {
        provider: request.params.provider,
        purpose: 'login',
        userId: null,
        redirect: safeRedirect(request.query.redirect),
      }),
    { rateLimit: { max: 60, timeWindow: '1 minute' } },
  );

  route(app, api.ssoLink, async (request, reply) =>
    start(request, reply, {
      provider: request.params.provider,
      purpose: 'link',
      userId: request.user!.id,
      redirect: SECURITY_PAGE,
    }),
  );

  route(app, api.casCallback, async (request, reply) => {
    const { state, ticket } = request.query;
    const started = await takeState(db, secrets, 'cas', state, request.cookies[STATE_COOKIE]);
    if (!started || !config.CAS_URL) return land(request, reply, { kind: 'error', code: 'state', redirect: HOME_PATH });
    if (!ticket) {
      return land(request, reply, {
        kind: 'error',
        code: 'ticket',
        redirect: started.redirect,
        link: started.purpose === 'link',
      });
    }
    let identity;
    try {
      identity = await validateTicket(
        {
          url: config.CAS_URL,
          version: config.CAS_VERSION,
          timeoutMs: config.SSO_TIMEOUT_MS,
          caseSensitive: config.CAS_CASE_SENSITIVE,
        },
        casService(request, state!),
        ticket,
      );
    } catch (err) {
      if (err instanceof CasError) return failed(request, reply, started, err);
      throw err;
    }
    const finish = await finishSso(ctx, started, identity, {
      origin: originOf(request),
      meta: metaOf(request),
      currentUserId: request.user?.id ?? null,
      ssoSessionHash: sha256(ticket),
    });
    return land(request, reply, finish);
  });

  // CAS single logout: the CAS server posts a SAML LogoutRequest naming the service ticket.
  route(
    app,
    api.casLogout,
    async (request) => {
      const ticket = parseLogoutRequest(request.body?.logoutRequest);
      if (ticket) {
        const hash = sha256(ticket);
        const auth = authCacheOf(db);
        const ended = await db.transaction().execute(async (trx) => {
          const rows = await trx
            .deleteFrom('sessions')
            .where('sso_provider', '=', 'cas')
            .where('sso_session_hash', '=', hash)
            .returning('id_hash')
            .execute();
          for (const r of rows) await auth.announce(trx, { sessionHash: r.id_hash });
          await trx.deleteFrom('login_challenges').where('sso_session_hash', '=', hash).execute();
          return rows;
        });
        for (const r of ended) auth.forget({ sessionHash: r.id_hash });
        request.log.info({ ended: ended.length }, 'cas single logout');
      }
      return SUCCESS;
    },
    { backChannel: true },
  );

  route(app, api.oidcCallback, async (request, reply) => {
    const { state } = request.query;
    const started = await takeState(db, secrets, 'oidc', state, request.cookies[STATE_COOKIE]);
    if (!started || !oidc) return land(request, reply, { kind: 'error', code: 'state', redirect: HOME_PATH });
    let identity;
    try {
      const params = Object.fromEntries(Object.entries(request.query).filter(([, v]) => v !== undefined));
      identity = await oidc.finish(oidcRedirectUri(request), params, {
        state: state!,
        nonce: started.nonce ?? '',
        codeVerifier: started.codeVerifier ?? '',
      });
    } catch (err) {
      if (err instanceof OidcError) return failed(request, reply, started, err);
      throw err;
    }
    const finish = await finishSso(ctx, started, identity, {
      origin: originOf(request),
      meta: metaOf(request),
      currentUserId: request.user?.id ?? null,
      ssoSessionHash: null,
    });
    return land(request, reply, finish);
  });

  const expiredPending = () =>
    new HttpError(401, 'SSO_PENDING_EXPIRED', '统一身份认证已过期，请重新点击统一身份认证登录');

  route(app, api.ssoPending, async (request) => {
    const pending = await readPending(db, request.cookies[PENDING_COOKIE]);
    if (!pending) return success(null);
    const { identity } = pending;
    return success({
      provider: identity.provider,
      providerName: identity.provider === 'cas' ? config.CAS_BUTTON : config.OIDC_BUTTON,
      subject: identity.subject,
      displayName: identity.displayName,
      email: identity.email,
      canCreate: config.SSO_AUTO_CREATE,
    });
  });

  route(app, api.ssoPendingLink, async (request, reply) => {
    const id = request.cookies[PENDING_COOKIE];
    const pending = await readPending(db, id);
    if (!pending) throw expiredPending();
    const origin = originOf(request);
    const user = await users.verifyLogin(db, request.body, origin);
    await linkIdentity(db, user.id, pending.identity);
    await dropPending(db, id!);
    clearStepCookie(request, reply, PENDING_COOKIE);
    const outcome = await signInLinked(ctx, user, pending.identity, {
      origin,
      meta: metaOf(request),
      ssoSessionHash: pending.ssoSessionHash,
    });
    return applySignIn(request, reply, outcome);
  });

  route(app, api.ssoPendingCreate, async (request, reply) => {
    if (!config.SSO_AUTO_CREATE) throw forbidden('管理员未开放为统一身份创建新账号，请关联已有账号或联系管理员');
    const id = request.cookies[PENDING_COOKIE];
    const pending = await readPending(db, id);
    if (!pending) throw expiredPending();
    const created = await createAccountFor(db, pending.identity, mappedRoles(pending.identity, ctx.roleMap), {
      suffix: true,
    });
    await dropPending(db, id!);
    clearStepCookie(request, reply, PENDING_COOKIE);
    const outcome = await signInLinked(ctx, created, pending.identity, {
      origin: originOf(request),
      meta: metaOf(request),
      ssoSessionHash: pending.ssoSessionHash,
    });
    return applySignIn(request, reply, outcome);
  });

  route(app, api.listIdentities, async (request) => success(await listIdentities(db, request.user!.id)));

  route(app, api.unlinkIdentity, async (request) => {
    await unlinkIdentity(db, request.user!.id, request.params.id);
    return success(await listIdentities(db, request.user!.id));
  });
}
