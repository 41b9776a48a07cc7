/**
 * HTTP layer of OCS review (src/contract/api/ocsReview.ts): users report wrong answers from the portal;
 * administrators review the reports and answer the 未收录 queue. The scripts' report endpoint
 * (/api/ocs/report, always HTTP 200) is in query/routes.ts with the other script endpoints.
 */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/ocsReview';
import type { AppDeps } from '../../../deps';
import { paged, success } from '../../../http/reply';
import { route } from '../../../http/route';
import { actorOf } from '../../../plugins/auth';
import { answerMisses, dismissMisses, draftMiss, listMisses } from './misses';
import { createReport, reportContext } from './reports';
import { acceptCorrections, mergeQuestions, rejectReports, reviewDetail, reviewQueue } from './review';

export default async function ocsReviewRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db, config, secrets } = deps;
  const index = () => app.ocs.bank.index;
  const settings = () => app.ocs.settings.get();

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
