/** HTTP layer of personal API tokens, and the token self-check every token-accepting client can call. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateTokenBody,
  CreateTokenResponse,
  IdParams,
  RevokeTokenResponse,
  TokenCheckQuery,
  TokenCheckResponse,
  TokenListQuery,
  TokenListResponse,
} from '../../../src/contract';
import type { AppDeps } from '../../app';
import { forbidden } from '../../errors';
import * as tokens from './tokens';

export const tokenRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const tags = ['token'];

  app.get(
    '/',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '我的访问令牌', querystring: TokenListQuery, response: { 200: TokenListResponse } },
    },
    async (request) => {
      const { rows, total } = await tokens.listTokens(db, request.user!.id, request.query);
      return {
        success: true as const,
        data: rows,
        total,
        current: request.query.current,
        pageSize: request.query.pageSize,
      };
    },
  );

  app.post(
    '/',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: '生成访问令牌（完整令牌只返回这一次）',
        body: CreateTokenBody,
        response: { 200: CreateTokenResponse },
      },
    },
    async (request) => ({ success: true as const, data: await tokens.createToken(db, request.user!.id, request.body) }),
  );

  app.post(
    '/:id/revoke',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '撤销访问令牌', params: IdParams, response: { 200: RevokeTokenResponse } },
    },
    async (request) => ({
      success: true as const,
      data: await tokens.revokeToken(db, request.user!.id, request.params.id),
    }),
  );
};

/** GET /api/token/check: verifies a token (Bearer or `token=`) through the shared token path, optionally for a scope. */
export const tokenCheckRoutes: FastifyPluginAsyncZod<AppDeps> = async (app) => {
  app.get(
    '/check',
    {
      config: { auth: 'token' },
      schema: {
        tags: ['token'],
        summary: '检查访问令牌是否有效（可指定 scope）',
        querystring: TokenCheckQuery,
        response: { 200: TokenCheckResponse },
      },
    },
    async (request) => {
      const auth = request.tokenAuth!;
      if (request.query.scope && !auth.scopes.includes(request.query.scope)) {
        throw forbidden(`该令牌没有 ${request.query.scope} 权限`);
      }
      return {
        success: true as const,
        data: { uid: auth.userId, username: auth.username, tokenId: auth.tokenId, scopes: auth.scopes },
      };
    },
  );
};
