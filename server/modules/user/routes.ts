/** HTTP layer of the accounts core. Business rules live in ./service. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AuthSettings,
  LoginBody,
  LoginResponse,
  LogoutResponse,
  MeResponse,
  RegisterBody,
  RegisterResponse,
} from '../../../src/contract';
import { clearSessionCookie, setSessionCookie } from '../../plugins/auth';
import type { AppDeps } from '../../app';
import * as users from './service';

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  const meta = (request: { ip: string; headers: Record<string, string | string[] | undefined> }) => ({
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
  });

  app.get(
    '/settings',
    {
      config: { auth: 'public' },
      schema: { tags: ['user'], summary: '公开的账号设置', response: { 200: AuthSettings } },
    },
    async () => ({ success: true as const, data: { registration: config.REGISTRATION } }),
  );

  app.get(
    '/me',
    { config: { auth: 'user' }, schema: { tags: ['user'], summary: '当前用户', response: { 200: MeResponse } } },
    async (request) => ({ success: true as const, data: users.toCurrentUser(request.user!) }),
  );

  app.post(
    '/register',
    {
      config: {
        auth: 'public',
        ...(config.REGISTER_RATE_LIMIT > 0
          ? { rateLimit: { max: config.REGISTER_RATE_LIMIT, timeWindow: '1 minute' } }
          : {}),
      },
      schema: { tags: ['user'], summary: '注册', body: RegisterBody, response: { 200: RegisterResponse } },
    },
    async (request, reply) => {
      const user = await users.register(db, request.body, config.REGISTRATION);
      const session = await users.createSession(db, user.id, false, config.SESSION_DAYS, meta(request));
      setSessionCookie(request, reply, session);
      return { success: true as const, data: users.toCurrentUser(user) };
    },
  );

  app.post(
    '/login',
    {
      config: { auth: 'public' },
      schema: { tags: ['user'], summary: '登录', body: LoginBody, response: { 200: LoginResponse } },
    },
    async (request, reply) => {
      const user = await users.login(db, request.body, request.ip);
      const session = await users.createSession(db, user.id, request.body.remember, config.SESSION_DAYS, meta(request));
      setSessionCookie(request, reply, session);
      return { success: true as const, data: users.toCurrentUser(user) };
    },
  );

  app.post(
    '/logout',
    { config: { auth: 'user' }, schema: { tags: ['user'], summary: '退出登录', response: { 200: LogoutResponse } } },
    async (request, reply) => {
      await users.deleteSession(db, request.user!.sessionIdHash);
      clearSessionCookie(request, reply);
      return { success: true as const };
    },
  );
};

export default routes;
