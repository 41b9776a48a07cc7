/**
 * HTTP layer of OCS for users: the OCS-script query API, single and batch (always HTTP 200 in the
 * script's shape, CORS open because the script may call with fetch), the portal's own ask form, the
 * overview, the query history and the bills.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OCS_BATCH_MAX, type OcsBatchResult } from '@contract';
import * as api from '@contract/api/ocs';
import type { AppDeps } from '../../../deps';
import { badRequest, tooMany } from '../../../errors';
import { success, paged } from '../../../http/reply';
import { route } from '../../../http/route';
import { getBalance } from '../wallet/balance';
import { ledgerCsv, listLedger } from '../wallet/ledger';
import { listQueries } from './log';
import type { CountQuery } from './metrics';
import { overview } from './overview';
import { homeSummary, type ImportCounts } from './home-summary';
import { parseQuestion } from './question';
import { searchQueries } from './search';
import { CORS, paramsOf, PREFLIGHT, scriptAdmission, scriptPolicy } from './script-http';
import { TooFast, type OcsResult } from './service';

export default async function ocsRoutes(
  app: FastifyInstance,
  { db, config, countQuery, importCounts }: AppDeps & { countQuery: CountQuery; importCounts: () => ImportCounts },
): Promise<void> {
  const ocs = () => app.ocs;

  // ---------- the OCS-script query API ----------
  const admit = scriptAdmission(app, countQuery);

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
  route(app, api.queryGet, query, scriptPolicy);
  route(app, api.queryPost, query, scriptPolicy);
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
    scriptPolicy,
  );
  route(app, api.queryBatchOptions, async (_request, reply) => reply.code(204).headers(PREFLIGHT).send());

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

  route(app, api.homeSummary, async (request) => {
    const user = request.user!;
    if (!user.roles.includes('admin')) return success(await homeSummary(db, user.id, config.PORTAL_TZ, null));
    await ocs().misses.flush(); // what this instance counted so far shows at once, as in the 未收录 list
    return success(await homeSummary(db, user.id, config.PORTAL_TZ, { imports: importCounts() }));
  });
  route(app, api.overview, async (request) => {
    const s = await ocs().settings.get();
    return success(await overview(db, request.user!.id, config.PORTAL_TZ, s.bankPrice));
  });

  route(app, api.wallet, async (request) => {
    const s = await ocs().settings.get();
    return success({ balance: await getBalance(db, request.user!.id), price: s.bankPrice });
  });

  route(app, api.searchQueries, async (request) => success(await searchQueries(db, request.user!.id, request.query.q)));
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
