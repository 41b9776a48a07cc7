/** HTTP layer of administrator user management and the audit log. Every route here is admin-only. */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/user';
import type { AppDeps } from '../../deps';
import { paged, success, SUCCESS } from '../../http/reply';
import { route } from '../../http/route';
import { actorOf } from '../../plugins/auth';
import { listAudit } from '../audit';
import * as admin from './admin';
import { searchUsers } from './search';

export default async function adminRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;

  route(app, api.adminListUsers, async (request) => paged(await admin.listUsers(db, request.query), request.query));

  route(app, api.adminSearchUsers, async (request) => success(await searchUsers(db, request.query.q)));

  route(app, api.adminGetUser, async (request) => success(await admin.getUser(db, request.params.id)));

  route(app, api.adminCreateUser, async (request) =>
    success(await admin.adminCreateUser(db, actorOf(request), request.body)),
  );

  route(app, api.adminUpdateUser, async (request) =>
    success(await admin.adminUpdateUser(db, actorOf(request), request.params.id, request.body)),
  );

  route(app, api.adminResetPassword, async (request) =>
    success(await admin.adminResetPassword(db, actorOf(request), request.params.id, request.body)),
  );

  route(app, api.adminRevokeTokens, async (request) =>
    success({ revokedTokens: await admin.adminRevokeTokens(db, actorOf(request), request.params.id) }),
  );

  route(app, api.adminGrantSelfNjit, async (request) => success(await admin.adminGrantSelfNjit(db, actorOf(request))));

  route(app, api.adminUnlockLogin, async (request) =>
    success({ clearedFailures: await admin.adminUnlockLogin(db, actorOf(request), request.params.id) }),
  );

  route(app, api.adminDeleteUser, async (request) => {
    await admin.adminDeleteUser(db, actorOf(request), request.params.id, request.body.confirm);
    return SUCCESS;
  });

  route(app, api.adminAudit, async (request) =>
    paged(
      await listAudit(db, { ...request.query, targetType: request.query.targetId ? 'user' : undefined }),
      request.query,
    ),
  );
}
