/**
 * Institutional sign-in, part of the user module: two-factor sign-in, e-mail and password
 * reset, CAS and OIDC single sign-on, and the administrators' side of them. Registers the routes, the
 * mailer and the OIDC client (both from the configuration), and the job that prunes expired sign-in state.
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps';
import identityAdminRoutes from './admin-routes';
import emailRoutes from './email-routes';
import type { MailQueue } from './mailer';
import { OidcClient } from './oidc';
import { pruneSignInState } from './sso-state';
import ssoRoutes from './sso-routes';
import twoFactorRoutes from './two-factor-routes';

export default async function identityRoutes(app: FastifyInstance, deps: AppDeps & { mail: MailQueue }): Promise<void> {
  const { config } = deps;
  const oidc =
    config.OIDC_ISSUER && config.OIDC_CLIENT_ID && config.OIDC_CLIENT_SECRET
      ? new OidcClient({
          issuer: config.OIDC_ISSUER,
          clientId: config.OIDC_CLIENT_ID,
          clientSecret: config.OIDC_CLIENT_SECRET,
          scopes: config.OIDC_SCOPES,
          timeoutMs: config.SSO_TIMEOUT_MS,
        })
      : null;
  await app.register(twoFactorRoutes, deps);
  await app.register(emailRoutes, deps);
  await app.register(ssoRoutes, { ...deps, oidc });
  await app.register(identityAdminRoutes, deps);
  app.scheduler.every('user.sign-in-prune', 10 * 60_000, () => pruneSignInState(deps.db));
}
