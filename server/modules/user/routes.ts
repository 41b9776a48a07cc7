/** HTTP layer of the accounts core. Business rules live in ./service. */
import type { FastifyInstance } from 'fastify';
import * as identityApi from '@contract/api/identity';
import * as api from '@contract/api/user';
import { pathOf, ShowType } from '@contract/endpoint';
import { clearSessionCookie, SESSION_COOKIE, setDeviceCookie, setSessionCookie } from '../../plugins/auth';
import { unauthorized } from '../../errors';
import { LOGIN_LINK_MINUTES } from '@contract';
import { sendLoginLink, verifiedEmailOf, type MailLinks } from './identity/email';
import { applySignIn, originOf } from './identity/http';
import type { MailQueue } from './identity/mailer';
import { afterFirstFactor, signInContext } from './identity/sign-in';
import type { AppDeps } from '../../deps';
import { success, SUCCESS } from '../../http/reply';
import { route } from '../../http/route';
import * as users from './service';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS, plausibleDevice, rememberDevice } from './throttle';

const NOT_SIGNED_IN = {
  success: false,
  errorCode: 'UNAUTHORIZED',
  errorMessage: '请先登录',
  showType: ShowType.SILENT,
} as const;

export default async function userRoutes(app: FastifyInstance, deps: AppDeps & { mail: MailQueue }): Promise<void> {
  const { db, config } = deps;
  const mail: MailLinks = { mailer: deps.mail.mailer, baseUrl: config.PUBLIC_URL ?? null };
  const meta = (request: { ip: string; headers: Record<string, string | string[] | undefined> }) => ({
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
  });

  route(app, api.settings, async () =>
    success({
      registration: config.REGISTRATION,
      passwordReset: !!config.SMTP_URL && !!config.PUBLIC_URL,
      sso: {
        cas: config.CAS_URL
          ? { label: config.CAS_BUTTON, loginUrl: pathOf(identityApi.ssoLogin, { provider: 'cas' }) }
          : null,
        oidc: config.OIDC_ISSUER
          ? { label: config.OIDC_BUTTON, loginUrl: pathOf(identityApi.ssoLogin, { provider: 'oidc' }) }
          : null,
      },
    }),
  );

  // Who is signed in. For a visitor without a session, "nobody" is the ordinary answer, not a refusal
  // (contract: NotSignedIn). A session cookie that names no live session is a session that ended: 401 like
  // the rest of the API, and the answer drops the cookie, so the browser's next visit is a visitor's.
  route(app, api.me, async (request, reply) => {
    if (request.user) return success(users.toCurrentUser(request.user));
    if (!request.cookies[SESSION_COOKIE]) return NOT_SIGNED_IN;
    clearSessionCookie(request, reply);
    throw unauthorized();
  });

  route(
    app,
    api.register,
    async (request, reply) => {
      const user = await users.register(db, request.body, config.REGISTRATION);
      const session = await users.createSession(db, user.id, false, config.SESSION_DAYS, meta(request));
      setSessionCookie(request, reply, session);
      const device = await rememberDevice(db, user.id, plausibleDevice(request.cookies[DEVICE_COOKIE]));
      setDeviceCookie(request, reply, DEVICE_COOKIE, device, DEVICE_COOKIE_DAYS * 86_400);
      return success(users.toCurrentUser(user));
    },
    config.REGISTER_RATE_LIMIT > 0 ? { rateLimit: { max: config.REGISTER_RATE_LIMIT, timeWindow: '1 minute' } } : {},
  );

  // The password is the first factor; with two-factor sign-in on, the answer is a challenge, not a session.
  // While the account makes unknown browsers wait, one with a verified address gets a sign-in link
  // (sent after the answer, so its timing does not tell a right password from a wrong one).
  route(app, api.login, async (request, reply) => {
    const origin = originOf(request);
    const first = await users.checkFirstFactor(db, request.body, origin, (userId) => verifiedEmailOf(db, mail, userId));
    if (first.kind === 'link') {
      const to = first.to;
      if (to) {
        deps.mail.later(
          () => sendLoginLink(db, mail, to),
          (err) => request.log.error({ err: err.message }, 'sign-in link mail failed'),
        );
      }
      return success({ loginLink: true as const, minutes: LOGIN_LINK_MINUTES });
    }
    const user = first.user;
    const outcome = await afterFirstFactor(signInContext(deps), user, {
      remember: request.body.remember,
      origin,
      meta: meta(request),
    });
    return applySignIn(request, reply, outcome);
  });

  route(
    app,
    api.logout,
    async (request, reply) => {
      await users.deleteSession(db, request.user!.sessionIdHash);
      clearSessionCookie(request, reply);
      return SUCCESS;
    },
    { duringEnrolment: true },
  );
}
