/** HTTP layer of the accounts core. Business rules live in ./service. */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/user';
import { clearSessionCookie, setDeviceCookie, setSessionCookie } from '../../plugins/auth';
import type { AppDeps } from '../../deps';
import { success, SUCCESS } from '../../http/reply';
import { route } from '../../http/route';
import * as users from './service';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS, plausibleDevice, rememberDevice } from './throttle';

export default async function userRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;
  const meta = (request: { ip: string; headers: Record<string, string | string[] | undefined> }) => ({
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
  });

  route(app, api.settings, async () => success({ registration: config.REGISTRATION }));

  route(app, api.me, async (request) => success(users.toCurrentUser(request.user!)));

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

  route(app, api.login, async (request, reply) => {
    const device = plausibleDevice(request.cookies[DEVICE_COOKIE]);
    const user = await users.login(db, request.body, {
      ip: request.ip,
      device,
      sessionUserId: request.user?.id ?? null,
    });
    const session = await users.createSession(db, user.id, request.body.remember, config.SESSION_DAYS, meta(request));
    setSessionCookie(request, reply, session);
    // Kept (or given) on every successful login, so a browser in use stays known for a year.
    setDeviceCookie(request, reply, DEVICE_COOKIE, user.device, DEVICE_COOKIE_DAYS * 86_400);
    return success(users.toCurrentUser(user));
  });

  route(app, api.logout, async (request, reply) => {
    await users.deleteSession(db, request.user!.sessionIdHash);
    clearSessionCookie(request, reply);
    return SUCCESS;
  });
}
