/** HTTP layer of administrators' view of a user's sign-in (second factor, password, identities). Admin only. */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/identity';
import type { AppDeps } from '../../../deps';
import { success } from '../../../http/reply';
import { route } from '../../../http/route';
import { actorOf } from '../../../plugins/auth';
import * as admin from './admin';

export default async function identityAdminRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config } = deps;
  const security = async (id: number) => success(await admin.adminSecurity(db, id, config.REQUIRE_2FA_ROLES));

  route(app, api.adminUserSecurity, async (request) => security(request.params.id));

  route(app, api.adminResetTwoFactor, async (request) => {
    await admin.adminResetTwoFactor(db, actorOf(request), request.params.id);
    return security(request.params.id);
  });

  route(app, api.adminSetPasswordLogin, async (request) => {
    await admin.adminSetPasswordLogin(db, actorOf(request), request.params.id, request.body.enabled);
    return security(request.params.id);
  });

  route(app, api.adminLinkIdentity, async (request) => {
    await admin.adminLinkIdentity(db, actorOf(request), request.params.id, request.body, config.CAS_CASE_SENSITIVE);
    return security(request.params.id);
  });

  route(app, api.adminUnlinkIdentity, async (request) => {
    await admin.adminUnlinkIdentity(db, actorOf(request), request.params.id, request.params.identityId);
    return security(request.params.id);
  });
}
