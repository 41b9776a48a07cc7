/**
 * HTTP layer of OCS for users: the OCS-script query API (always HTTP 200 in the script's shape, CORS
 * open because the script may call with fetch), the portal's own ask form, the overview, the query
 * history and the bills.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import querystring from 'node:querystring';
import {
  AskBody,
  AskResponse,
  LedgerListResponse,
  LedgerQuery,
  OcsOverviewResponse,
  OcsQueryResult,
  QueryListQuery,
  QueryListResponse,
  WalletResponse,
} from '../../../src/contract';
import type { AppDeps } from '../../app';
import { badRequest, tooMany } from '../../errors';
import { tokenFrom } from '../../plugins/auth';
import { isAuthError, verifyToken } from '../user/tokens';
import { ledgerCsv, listLedger, listQueries, overview } from './history';
import { parseQuestion, TooFast, type OcsResult } from './query';
import { getBalance } from './wallet';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-max-age': '86400',
  // Helmet's same-origin default would stop pages from reading the answer.
  'cross-origin-resource-policy': 'cross-origin',
};

/** The script's parameters from the query string and a JSON, form or plain-text body. */
function paramsOf(request: FastifyRequest): Record<string, unknown> {
  let body: unknown = request.body;
  if (typeof body === 'string') {
    const text = body.trim();
    try {
      body = text.startsWith('{') ? JSON.parse(text) : querystring.parse(text);
    } catch {
      body = {};
    }
  }
  const fromBody = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  return { ...(request.query as Record<string, unknown>), ...fromBody };
}

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  const tags = ['ocs'];
  const user = { auth: 'user' as const };
  const ocs = () => app.ocs;

  const query = async (request: FastifyRequest, reply: FastifyReply): Promise<OcsResult> => {
    reply.headers(CORS);
    const params = paramsOf(request);
    const token = tokenFrom(request) ?? (typeof params.token === 'string' ? params.token : undefined);
    let auth;
    try {
      auth = await verifyToken(db, token, 'ocs:query', request.ip);
    } catch (err) {
      if (isAuthError(err)) return { code: 0, msg: err.message };
      throw err;
    }
    try {
      await ocs().service.checkRate(`token:${auth.tokenId}`);
    } catch (err) {
      if (!(err instanceof TooFast)) throw err;
      reply.header('retry-after', String(err.retryAfterSeconds));
      return { code: 0, msg: '请求过快，请稍后再试' };
    }
    const q = parseQuestion(params);
    if (typeof q === 'string') return { code: 0, msg: q };
    return ocs().service.answer({ userId: auth.userId, tokenId: auth.tokenId }, q);
  };
  const queryOptions = {
    config: { auth: 'ocs-token' as const },
    schema: {
      tags,
      summary: 'OCS 题库查询（令牌 ocs:query；query、表单或 JSON 均可；始终返回 HTTP 200）',
      description:
        'curl "http://HOST/api/ocs/query?token=pt_xxx&title=题目&type=single&options=A.选项1%0AB.选项2"\n\n' +
        '找到：{"code":1,"question","answer","source","cost","balance"}；否则 {"code":0,"msg"}',
      response: { 200: OcsQueryResult },
    },
    // Even a malformed body or a failing database is answered in the script's shape.
    errorHandler: (err: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
      if (!err.statusCode || err.statusCode >= 500) request.log.error({ err }, 'ocs query failed');
      void reply
        .code(200)
        .headers(CORS)
        .send({
          code: 0,
          msg: err.statusCode && err.statusCode < 500 ? '请求格式不正确' : '服务暂时不可用，请稍后再试（未扣费）',
        });
    },
  };
  app.get('/query', queryOptions, query);
  app.post('/query', queryOptions, query);
  app.options('/query', { config: { auth: 'ocs-token' } }, async (_request, reply) =>
    reply.code(204).headers(CORS).send(),
  );

  app.post(
    '/ask',
    {
      config: user,
      schema: {
        tags,
        summary: '在门户中提问（与 OCS 接口同一服务，按题扣费）',
        body: AskBody,
        response: { 200: AskResponse },
      },
    },
    async (request) => {
      const userId = request.user!.id;
      try {
        await ocs().service.checkRate(`user:${userId}`);
      } catch (err) {
        if (err instanceof TooFast) throw tooMany('请求过快，请稍后再试', err.retryAfterSeconds);
        throw err;
      }
      const q = parseQuestion(request.body);
      if (typeof q === 'string') throw badRequest(q, { title: [q] });
      return { success: true as const, data: await ocs().service.answer({ userId, tokenId: null }, q) };
    },
  );

  app.get(
    '/overview',
    {
      config: user,
      schema: {
        tags,
        summary: 'OCS 概览：余额、今日统计、30 天趋势、最近查询',
        response: { 200: OcsOverviewResponse },
      },
    },
    async (request) => {
      const s = await ocs().settings.get();
      return { success: true as const, data: await overview(db, request.user!.id, config.PORTAL_TZ, s.bankPrice) };
    },
  );

  app.get(
    '/wallet',
    { config: user, schema: { tags, summary: '我的积分余额与题库单价', response: { 200: WalletResponse } } },
    async (request) => {
      const s = await ocs().settings.get();
      return { success: true as const, data: { balance: await getBalance(db, request.user!.id), price: s.bankPrice } };
    },
  );

  app.get(
    '/queries',
    {
      config: user,
      schema: { tags, summary: '我的查询记录', querystring: QueryListQuery, response: { 200: QueryListResponse } },
    },
    async (request) => {
      const { rows, total } = await listQueries(db, request.user!.id, request.query);
      return {
        success: true as const,
        data: rows,
        total,
        current: request.query.current,
        pageSize: request.query.pageSize,
      };
    },
  );

  app.get(
    '/ledger',
    {
      config: user,
      schema: {
        tags,
        summary: '我的账单（按类型、日期筛选）',
        querystring: LedgerQuery,
        response: { 200: LedgerListResponse },
      },
    },
    async (request) => {
      const { rows, total } = await listLedger(db, request.user!.id, request.query, config.PORTAL_TZ);
      return {
        success: true as const,
        data: rows,
        total,
        current: request.query.current,
        pageSize: request.query.pageSize,
      };
    },
  );

  app.get(
    '/ledger.csv',
    {
      config: user,
      schema: {
        tags,
        summary: '导出账单 CSV（与列表相同的筛选）',
        querystring: LedgerQuery.omit({ current: true, pageSize: true }),
      },
    },
    async (request, reply) => {
      const csv = await ledgerCsv(db, request.user!.id, request.query, config.PORTAL_TZ);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="ocs-bills.csv"; filename*=UTF-8''${encodeURIComponent('OCS账单.csv')}`,
        )
        .send(csv);
    },
  );
};

export default routes;
