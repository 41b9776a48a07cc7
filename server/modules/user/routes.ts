/** HTTP layer of the accounts core. Business rules live in ./service. */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/user';
import { clearSessionCookie, setSessionCookie } from '../../plugins/auth';
import type { AppDeps } from '../../deps';
import { success, SUCCESS } from '../../http/reply';
import { route } from '../../http/route';
import * as users from './service';

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
      return success(users.toCurrentUser(user));
    },
    config.REGISTER_RATE_LIMIT > 0 ? { rateLimit: { max: config.REGISTER_RATE_LIMIT, timeWindow: '1 minute' } } : {},
  );

  route(app, api.login, async (request, reply) => {
    const user = await users.login(db, request.body, request.ip);
    const session = await users.createSession(db, user.id, request.body.remember, config.SESSION_DAYS, meta(request));
    setSessionCookie(request, reply, session);
    return success(users.toCurrentUser(user));
  });

  route(app, api.logout, async (request, reply) => {
    await users.deleteSession(db, request.user!.sessionIdHash);
    clearSessionCookie(request, reply);
    return SUCCESS;
  });
}
