/**
 * HTTP layer of the e-mail address and password reset by e-mail. A forgotten-password request is
 * answered at once and the same way whatever the account: the lookup and the mail happen after the
 * answer (a slow SMTP server cannot tell existing accounts from missing ones), and the limits count
 * per IP and per address asked for, whether it exists or not.
 */
import type { FastifyInstance } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import * as api from '@contract/api/identity';
import type { AppDeps } from '../../../deps';
import { HttpError, tooMany } from '../../../errors';
import { success, SUCCESS } from '../../../http/reply';
import { route } from '../../../http/route';
import { sha256 } from '../../../lib/tokens';
import * as email from './email';
import { applySignIn, metaOf, originOf } from './http';
import { afterFirstFactor, signInContext } from './sign-in';
import type { MailQueue } from './mailer';

/** Forgotten-password requests per IP per 15 minutes, and per username or address per hour. */
export const FORGOT_PER_IP = 10;
export const FORGOT_PER_ACCOUNT = 3;
/** Verification mails a user may ask for per hour. */
export const VERIFY_MAILS_PER_HOUR = 5;

async function consume(limiter: RateLimiterAbstract, key: string, message: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw tooMany(message, err.msBeforeNext / 1000);
    throw err;
  }
}

export default async function emailRoutes(app: FastifyInstance, deps: AppDeps & { mail: MailQueue }): Promise<void> {
  const { db, config } = deps;
  const mail: email.MailLinks = { mailer: deps.mail.mailer, baseUrl: config.PUBLIC_URL ?? null };
  if (mail.mailer.enabled && !config.PUBLIC_URL) {
    app.log.warn(
      'SMTP_URL is set but PUBLIC_URL is not: e-mail verification and password reset stay off (links need a base URL a request cannot forge)',
    );
  }
  const forgotPerIp = app.limits.create({ keyPrefix: 'forgot-ip', points: FORGOT_PER_IP, duration: 15 * 60 });
  const forgotPerAccount = app.limits.create({
    keyPrefix: 'forgot-account',
    points: FORGOT_PER_ACCOUNT,
    duration: 3600,
  });
  const verifyMails = app.limits.create({ keyPrefix: 'verify-mail', points: VERIFY_MAILS_PER_HOUR, duration: 3600 });

  route(app, api.emailStatus, async (request) => success(await email.getEmailStatus(db, request.user!.id, mail)));

  route(app, api.setEmail, async (request) => {
    await consume(verifyMails, String(request.user!.id), '验证邮件发送过于频繁，请稍后再试');
    return success(await email.requestEmailChange(db, mail, request.user!, request.body.email));
  });

  route(app, api.removeEmail, async (request) => success(await email.removeEmail(db, request.user!.id, mail)));

  route(app, api.verifyEmail, async (request) => success(await email.verifyEmail(db, request.body.token)), {
    rateLimit: { max: 60, timeWindow: '1 minute' },
  });

  route(app, api.forgotPassword, async (request) => {
    if (!email.mailReady(mail)) {
      throw new HttpError(409, 'MAIL_NOT_CONFIGURED', '门户未配置邮件服务，无法通过邮件重置密码，请联系管理员');
    }
    const account = request.body.account.trim().toLowerCase();
    await consume(forgotPerIp, request.ip, '找回密码的请求过于频繁，请稍后再试');
    await consume(forgotPerAccount, sha256(account), '找回密码的请求过于频繁，请稍后再试');
    deps.mail.later(
      () => email.sendPasswordReset(db, mail, account),
      (err) => request.log.error({ err: err.message }, 'password reset mail failed'),
    );
    return SUCCESS;
  });

  route(app, api.checkPasswordReset, async (request) => success(await email.checkReset(db, request.body.token)), {
    rateLimit: { max: 60, timeWindow: '1 minute' },
  });

  route(app, api.resetPassword, async (request) => success(await email.resetPassword(db, request.body)), {
    rateLimit: { max: 60, timeWindow: '1 minute' },
  });

  // The link a login under attack mailed: this browser signs in (the second factor still follows).
  route(
    app,
    api.loginWithLink,
    async (request, reply) => {
      const user = await email.consumeLoginLink(db, request.body.token);
      const outcome = await afterFirstFactor(signInContext(deps), user, {
        remember: false,
        origin: originOf(request),
        meta: metaOf(request),
      });
      return applySignIn(request, reply, outcome);
    },
    { rateLimit: { max: 60, timeWindow: '1 minute' } },
  );
}
