/**
 * HTTP layer of OCS review (src/contract/api/ocsReview.ts): users report wrong answers from the portal
 * and from the scripts (/api/ocs/report, in the scripts' shape: query/script-http.ts); administrators
 * review the reports and answer the 未收录 queue.
 */
import type { FastifyInstance } from 'fastify';
import type { OcsReportResult } from '@contract';
import * as scriptApi from '@contract/api/ocs';
import * as api from '@contract/api/ocsReview';
import type { AppDeps } from '../../../deps';
import { paged, success } from '../../../http/reply';
import { route } from '../../../http/route';
import { HttpError } from '../../../errors';
import { actorOf } from '../../../plugins/auth';
import type { CountQuery } from '../query/metrics';
import { parseQuestion } from '../query/question';
import { paramsOf, PREFLIGHT, scriptAdmission, scriptPolicy } from '../query/script-http';
import { answerMisses, dismissMisses, draftMiss, listMisses } from './misses';
import { createReport, reportContext } from './reports';
import { acceptCorrections, mergeQuestions, rejectReports, reviewDetail, reviewQueue } from './review';

export default async function ocsReviewRoutes(
  app: FastifyInstance,
  deps: AppDeps & { countQuery: CountQuery },
): Promise<void> {
  const { db, config, secrets } = deps;
  const index = () => app.ocs.bank.index;
  const settings = () => app.ocs.settings.get();
  const admit = scriptAdmission(app, deps.countQuery);

  // A script reports a wrong answer with the user's token: by the answer's queryId, or by asking the
  // question again (the user's latest answer to it).
  route(
    app,
    scriptApi.report,
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
        await createReport(db, { settings: await settings(), index: index(), tz: config.PORTAL_TZ }, auth.userId, {
          queryId,
          key,
          proposed: text(params.proposed, 4000),
          reason: text(params.reason, 500),
        });
      } catch (err) {
        if (err instanceof HttpError && err.statusCode < 500) return { code: 0, msg: err.message };
        throw err;
      }
      return { code: 1, msg: '已收到反馈，管理员审核后会更正题库；答案确实有误时退还本题扣费' };
    },
    scriptPolicy,
  );
  route(app, scriptApi.reportOptions, async (_request, reply) => reply.code(204).headers(PREFLIGHT).send());

  // ---------- users ----------
  route(app, api.reportContext, async (request) =>
    success(await reportContext(db, request.user!.id, request.params.id)),
  );
  route(app, api.createReport, async (request) =>
    success(
      await createReport(
        db,
        { settings: await settings(), index: index(), tz: config.PORTAL_TZ },
        request.user!.id,
        request.body,
      ),
    ),
  );

  // ---------- administrators: reports ----------
  route(app, api.reviewQueue, async (request) => paged(await reviewQueue(db, request.query), request.query));
  route(app, api.reviewDetail, async (request) => success(await reviewDetail(db, request.params.id)));
  route(app, api.acceptReviews, async (request) =>
    success(await acceptCorrections(db, index(), actorOf(request), request.body)),
  );
  route(app, api.rejectReviews, async (request) =>
    success(
      await rejectReports(
        db,
        index(),
        actorOf(request),
        request.body.questionIds,
        request.body.reason,
        (await settings()).disputeThreshold,
      ),
    ),
  );
  route(app, api.mergeReviews, async (request) =>
    success(
      await mergeQuestions(
        db,
        index(),
        actorOf(request),
        request.body.targetId,
        request.body.sourceIds,
        request.body.reason,
        (await settings()).disputeThreshold,
      ),
    ),
  );

  // ---------- administrators: the 未收录 queue ----------
  route(app, api.listMisses, async (request) => {
    await app.ocs.misses.flush(); // what this instance counted so far shows at once
    return paged(await listMisses(db, request.query), request.query);
  });
  route(app, api.answerMisses, async (request) =>
    success(await answerMisses(db, index(), actorOf(request), request.body.items)),
  );
  route(app, api.draftMiss, async (request) =>
    success(await draftMiss(db, secrets, request.params.id, config.ADMIN_URL_ALLOWLIST)),
  );
  route(app, api.dismissMisses, async (request) =>
    success(await dismissMisses(db, actorOf(request), request.body.ids)),
  );
}
