/** HTTP layer of personal API tokens, and the token self-check every token-accepting client can call. */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/user';
import type { AppDeps } from '../../deps';
import { forbidden } from '../../errors';
import { paged, success } from '../../http/reply';
import { route } from '../../http/route';
import { searchTokens } from './search';
import * as tokens from './tokens';

export async function tokenRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;

  route(app, api.listTokens, async (request) =>
    paged(await tokens.listTokens(db, request.user!.id, request.query), request.query),
  );

  route(app, api.searchTokens, async (request) => success(await searchTokens(db, request.user!.id, request.query.q)));

  route(app, api.createToken, async (request) => success(await tokens.createToken(db, request.user!.id, request.body)));

  route(app, api.revokeToken, async (request) =>
    success(await tokens.revokeToken(db, request.user!.id, request.params.id)),
  );
}

/** GET /api/token/check: verifies a token (Bearer or `token=`) through the shared token path, optionally for a scope. */
export async function tokenCheckRoutes(app: FastifyInstance): Promise<void> {
  route(app, api.checkToken, async (request) => {
    const auth = request.tokenAuth!;
    if (request.query.scope && !auth.scopes.includes(request.query.scope)) {
      throw forbidden(`该令牌没有 ${request.query.scope} 权限`);
    }
    return success({ uid: auth.userId, username: auth.username, tokenId: auth.tokenId, scopes: auth.scopes });
  });
}
