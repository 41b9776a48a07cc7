/**
 * The user module: accounts and sign-in, sessions, the personal center, personal API tokens and the
 * administrators' user management; institutional sign-in (two-factor, e-mail and password reset, CAS
 * and OIDC) in ./identity/. What other parts of the server may use, on purpose:
 * the plugin, the identity the auth plugin checks callers with, and the first-administrator set-up.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../deps';
import type { Identity } from '../../plugins/auth';
import adminRoutes from './admin-routes';
import identityRoutes from './identity';
import { createMailer, MailQueue } from './identity/mailer';
import profileRoutes from './profile-routes';
import userRoutes from './routes';
import { resolveSession } from './service';
import { tokenCheckRoutes, tokenRoutes } from './token-routes';
import { authCacheOf } from './auth-cache';
import { verifyToken } from './tokens';

export { ensureFirstAdmin } from './service';

/** How the auth plugin resolves session cookies and personal tokens. */
export function userIdentity({ db, config }: Pick<AppDeps, 'db' | 'config'>): Identity {
  // Listening for other instances' token changes from the start, so the cache is live early.
  authCacheOf(db).listen();
  return {
    resolveSession: (cookie) => resolveSession(db, cookie, config.SESSION_DAYS, config.REQUIRE_2FA_ROLES),
    verifyToken: (token, scope, ip) => verifyToken(db, token, scope, ip),
  };
}

export default fp(
  async function userModule(app: FastifyInstance, deps: AppDeps) {
    // Account e-mail: verification, password reset, sign-in links (sent by the login and identity routes).
    const mail = new MailQueue(createMailer(deps.config));
    app.addHook('onClose', () => mail.close());
    await app.register(userRoutes, { ...deps, mail });
    await app.register(profileRoutes, deps);
    await app.register(tokenRoutes, deps);
    await app.register(tokenCheckRoutes, deps);
    await app.register(adminRoutes, deps);
    await app.register(identityRoutes, { ...deps, mail });
  },
  { name: 'user', dependencies: ['auth'] },
);
