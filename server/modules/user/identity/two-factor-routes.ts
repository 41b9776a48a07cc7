/** HTTP layer of two-factor sign-in: the login's second step and the set-up in the personal center. */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/identity';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { AppDeps } from '../../../deps';
import { tooMany } from '../../../errors';
import { success, SUCCESS } from '../../../http/reply';
import { route } from '../../../http/route';
import { applySignIn, metaOf, originOf } from './http';
import { CHALLENGE_COOKIE, signInContext, verifyChallenge } from './sign-in';
import * as twoFactor from './two-factor';

/** Set-ups and codes typed in the personal center, per user per 15 minutes. */
export const CODE_ATTEMPTS = 30;

export default async function twoFactorRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, secrets, config } = deps;
  const required = (roles: readonly string[]) => config.REQUIRE_2FA_ROLES.some((r) => roles.includes(r));
  // What a session that must set up two-factor sign-in may still do: see it, set it up.
  const enrolment = { duringEnrolment: true };
  // Codes typed in the personal center, per user (a stolen session cannot guess its way to disabling it).
  const codeAttempts = app.limits.create({ keyPrefix: '2fa-code', points: CODE_ATTEMPTS, duration: 15 * 60 });
  const attempt = async (userId: number) => {
    try {
      await codeAttempts.consume(String(userId));
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany('验证码尝试次数过多，请稍后再试', err.msBeforeNext / 1000);
      throw err;
    }
  };

  route(app, api.loginVerify, async (request, reply) => {
    const outcome = await verifyChallenge(
      signInContext(deps),
      request.cookies[CHALLENGE_COOKIE],
      request.body,
      originOf(request),
      metaOf(request),
    );
    applySignIn(request, reply, outcome);
    return success(outcome.user);
  });

  route(
    app,
    api.twoFactorStatus,
    async (request) => {
      const user = request.user!;
      return success(await twoFactor.getStatus(db, user.id, required(user.roles)));
    },
    enrolment,
  );

  route(
    app,
    api.twoFactorSetup,
    async (request) => {
      await attempt(request.user!.id);
      return success(await twoFactor.startSetup(db, secrets, request.user!));
    },
    enrolment,
  );

  route(
    app,
    api.twoFactorEnable,
    async (request) => {
      await attempt(request.user!.id);
      const recoveryCodes = await twoFactor.enable(db, secrets, request.user!.id, request.body.code);
      return success({ recoveryCodes });
    },
    enrolment,
  );

  route(app, api.twoFactorDisable, async (request) => {
    const user = request.user!;
    await attempt(user.id);
    await twoFactor.disable(db, secrets, user.id, request.body.code, required(user.roles));
    return SUCCESS;
  });

  route(app, api.twoFactorRecoveryCodes, async (request) => {
    await attempt(request.user!.id);
    const recoveryCodes = await twoFactor.regenerateRecoveryCodes(db, secrets, request.user!.id, request.body.code);
    return success({ recoveryCodes });
  });

  route(app, api.twoFactorForgetBrowsers, async (request) =>
    success({ forgotten: await twoFactor.forgetTrustedBrowsers(db, request.user!.id) }),
  );
}
