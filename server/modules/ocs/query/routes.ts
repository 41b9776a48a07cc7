/**
 * HTTP layer of OCS for users: the OCS-script query API, single and batch (always HTTP 200 in the
 * script's shape, CORS open because the script may call with fetch), the portal's own ask form, the
 * overview, the query history and the bills.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import querystring from 'node:querystring';
import { OCS_BATCH_MAX, type OcsBatchResult, type OcsReportResult } from '@contract';
import * as api from '@contract/api/ocs';
import type { AppDeps } from '../../../deps';
import { badRequest, HttpError, isAuthError, tooMany } from '../../../errors';
import { success, paged } from '../../../http/reply';
import { route, type RoutePolicy } from '../../../http/route';
import { tokenFrom } from '../../../plugins/auth';
import { getBalance } from '../wallet/balance';
import { UnreadableChargeResult } from '../wallet/charge';
import { ledgerCsv, listLedger } from '../wallet/ledger';
import { listQueries } from './log';
import { createReport } from '../review/reports';
import type { CountQuery } from './metrics';
import { overview } from './overview';
import { parseQuestion } from './question';
import { TooFast, type OcsResult } from './service';

/** On every answer of the script's API: any page may read it. */
const CORS = {
  'access-control-allow-origin': '*',
  // Helmet's same-origin default would stop pages from reading the answer.
  'cross-origin-resource-policy': 'cross-origin',
};
/**
 * The preflight's answer (OPTIONS) besides: what a cross-origin fetch may send, for a day. Browsers read
 * these only on the preflight, so the answers themselves (one per question) do without them.
 */
const PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Authorization, Content-Type',
  'access-control-max-age': '86400',
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

/** What the script is told when its query failed. */
function scriptFailureMessage(err: Error & { statusCode?: number }): string {
  // Our own refusals (text the database cannot store, say) are in Chinese already and name the field.
  if (err instanceof HttpError && err.statusCode < 500) return err.message;
  if (err.statusCode === 413) return '请求体过大';
  if (err.statusCode && err.statusCode < 500) return '请求格式不正确';
  // The charge statement ran: whether it charged is not known, so "not charged" would be a guess.
  if (err instanceof UnreadableChargeResult) return '服务暂时不可用，请稍后再试（本次可能已扣费，请在账单中核对）';
  return '服务暂时不可用，请稍后再试（未扣费）';
}

export default async function ocsRoutes(
  app: FastifyInstance,
  { db, config, countQuery }: AppDeps & { countQuery: CountQuery },
): Promise<void> {
  const ocs = () => app.ocs;

  // ---------- the OCS-script query API ----------
  /** The token and the rate limit, as the script needs them: a refusal is `{code: 0, msg}`. */
  const admit = async (
    request: FastifyRequest,
    reply: FastifyReply,
    params: Record<string, unknown>,
    points = 1,
  ): Promise<{ userId: number; tokenId: number } | { code: 0; msg: string }> => {
    reply.headers(CORS);
    const token = tokenFrom(request) ?? (typeof params.token === 'string' ? params.token : undefined);
    let auth;
    try {
      auth = await app.identity.verifyToken(token, 'ocs:query', request.ip);
    } catch (err) {
      if (!isAuthError(err)) throw err;
      countQuery('unauthorized', 'none');
      return { code: 0, msg: err.message };
    }
    try {
      await ocs().service.checkRate(`token:${auth.tokenId}`, points);
    } catch (err) {
      if (!(err instanceof TooFast)) throw err;
      countQuery('rate_limited', 'none');
      reply.header('retry-after', String(err.retryAfterSeconds));
      return { code: 0, msg: '请求过快，请稍后再试' };
    }
    return { userId: auth.userId, tokenId: auth.tokenId };
  };

  const query = async (request: FastifyRequest, reply: FastifyReply): Promise<OcsResult> => {
    const params = paramsOf(request);
    const auth = await admit(request, reply, params);
    if ('code' in auth) return auth;
    const q = parseQuestion(params);
    if (typeof q === 'string') {
      countQuery('invalid', 'none');
      return { code: 0, msg: q };
    }
    return ocs().service.answer({ userId: auth.userId, tokenId: auth.tokenId }, q);
  };
  const queryPolicy: RoutePolicy = {
    // Even a malformed body or a failing database is answered in the script's shape.
    errorHandler: (err: Error & { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
      if (!err.statusCode || err.statusCode >= 500) request.log.error({ err }, 'ocs query failed');
      void reply
        .code(200)
        .headers(CORS)
        .send({
          code: 0,
          msg: scriptFailureMessage(err),
        });
    },
  };
  route(app, api.queryGet, query, queryPolicy);
  route(app, api.queryPost, query, queryPolicy);
  route(app, api.queryOptions, async (_request, reply) => reply.code(204).headers(PREFLIGHT).send());

  // A whole page at once: each question as /api/ocs/query would answer it, charged in order.
  route(
    app,
    api.queryBatch,
    async (request, reply): Promise<OcsBatchResult> => {
      const params = paramsOf(request);
      const list = params.questions;
      if (!Array.isArray(list)) {
        reply.headers(CORS);
        return { code: 0, msg: '请求格式不正确：questions 须为题目数组' };
      }
      if (list.length === 0) {
        reply.headers(CORS);
        return { code: 0, msg: '没有要查询的题目' };
      }
      if (list.length > OCS_BATCH_MAX) {
        reply.headers(CORS);
        return {
          code: 0,
          msg: `一次最多查询 ${OCS_BATCH_MAX} 道题（收到 ${list.length} 道），请分批提交；本次未查询、未扣费`,
        };
      }
      // Ten questions count as one request against the per-token limit.
      const auth = await admit(request, reply, params, Math.ceil(list.length / 10));
      if ('code' in auth) return auth;
      const items = list.map((item: unknown) =>
        item && typeof item === 'object' && !Array.isArray(item)
          ? parseQuestion(item as Record<string, unknown>)
          : '题目格式不正确',
      );
      return { code: 1, results: await ocs().service.answerMany(auth, items) };
    },
    queryPolicy,
  );
  route(app, api.queryBatchOptions, async (_request, reply) => reply.code(204).headers(PREFLIGHT).send());

  // A script reports a wrong answer with the user's token: by the answer's queryId, or by asking the
  // question again (the user's latest answer to it).
  route(
    app,
    api.report,
    async (request, reply): Promise<OcsReportResult> => {
      const params = paramsOf(request);
      const auth = await admit(request, reply, params);
      if ('code' in auth) return auth;
      const text = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : undefined);
      let queryId: number | undefined;
      let key: string | undefined;
      if (params.queryId !== undefined && params.queryId !== '') {
        queryId = Number(params.queryId);
        if (!Number.isSafeInteger(queryId) || queryId <= 0) return { code: 0, msg: 'queryId 无效' };
      } else {
        const q = parseQuestion(params);
        if (typeof q === 'string') return { code: 0, msg: `请提供 queryId，或题目、题型与选项：${q}` };
        key = q.key;
      }
      try {
        await createReport(
          db,
          { settings: await ocs().settings.get(), index: ocs().bank.index, tz: config.PORTAL_TZ },
          auth.userId,
          { queryId, key, proposed: text(params.proposed, 4000), reason: text(params.reason, 500) },
        );
      } catch (err) {
        if (err instanceof HttpError && err.statusCode < 500) return { code: 0, msg: err.message };
        throw err;
      }
      return { code: 1, msg: '已收到反馈，管理员审核后会更正题库；答案确实有误时退还本题扣费' };
    },
    queryPolicy,
  );
  route(app, api.reportOptions, async (_request, reply) => reply.code(204).headers(PREFLIGHT).send());

  // ---------- the portal ----------
  route(app, api.ask, async (request) => {
    const userId = request.user!.id;
    try {
      await ocs().service.checkRate(`user:${userId}`);
    } catch (err) {
      if (!(err instanceof TooFast)) throw err;
      countQuery('rate_limited', 'none');
      throw tooMany('请求过快，请稍后再试', err.retryAfterSeconds);
    }
    const q = parseQuestion(request.body);
    if (typeof q === 'string') {
      countQuery('invalid', 'none');
      throw badRequest(q, { title: [q] });
    }
    return success(await ocs().service.answer({ userId, tokenId: null }, q));
  });

  route(app, api.overview, async (request) => {
    const s = await ocs().settings.get();
    return success(await overview(db, request.user!.id, config.PORTAL_TZ, s.bankPrice));
  });

  route(app, api.wallet, async (request) => {
    const s = await ocs().settings.get();
    return success({ balance: await getBalance(db, request.user!.id), price: s.bankPrice });
  });

  route(app, api.listQueries, async (request) =>
    paged(await listQueries(db, request.user!.id, request.query), request.query),
  );

  route(app, api.listLedger, async (request) =>
    paged(await listLedger(db, request.user!.id, request.query, config.PORTAL_TZ), request.query),
  );

  route(app, api.ledgerCsv, async (request, reply) => {
    const csv = await ledgerCsv(db, request.user!.id, request.query, config.PORTAL_TZ);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="ocs-bills.csv"; filename*=UTF-8''${encodeURIComponent('OCS账单.csv')}`,
      )
      .send(csv);
  });
}
