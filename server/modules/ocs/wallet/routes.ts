/**
 * HTTP layer of the OCS free points: the daily claim and redeeming a code for users, redeem-code
 * batches for administrators.
 */
import type { FastifyInstance } from 'fastify';
import * as api from '@contract/api/ocsFree';
import type { AppDeps } from '../../../deps';
import { forbidden } from '../../../errors';
import { success, paged } from '../../../http/reply';
import { route } from '../../../http/route';
import { actorOf } from '../../../plugins/auth';
import { claimFree, freeStatus } from './free';
import { redeemCode } from './redeem';
import { createBatch, disableBatch, downloadCodes, listBatches } from './redeem-batches';

export default async function ocsFreeRoutes(app: FastifyInstance, { db, config, secrets }: AppDeps): Promise<void> {
  const tz = config.PORTAL_TZ;
  const freeDaily = async () => (await app.ocs.settings.get()).freeDaily;

  // ---------- users ----------
  route(app, api.freeStatus, async (request) => success(await freeStatus(db, request.user!.id, await freeDaily(), tz)));
  route(app, api.claimFree, async (request) => success(await claimFree(db, request.user!.id, await freeDaily(), tz)));
  route(app, api.redeem, async (request) => success(await redeemCode(db, request.user!.id, request.body.code)));

  // ---------- administrators: redeem-code batches ----------
  route(app, api.listRedeemBatches, async (request) => paged(await listBatches(db, request.query), request.query));
  route(app, api.createRedeemBatch, async (request) =>
    success(await createBatch(db, secrets, actorOf(request), request.body)),
  );
  route(app, api.redeemCodesCsv, async (request, reply) => {
    // A GET that destroys data: a link on another site must not be able to spend the one download.
    if (request.headers['sec-fetch-site'] === 'cross-site') throw forbidden('拒绝跨站请求');
    const { csv, filename } = await downloadCodes(db, secrets, actorOf(request), request.params.id, tz);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(csv);
  });
  route(app, api.disableRedeemBatch, async (request) =>
    success(await disableBatch(db, actorOf(request), request.params.id)),
  );
}
