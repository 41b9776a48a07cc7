/**
 * HTTP layer of the OCS free points: the daily claim and redeeming a code for users, redeem-code
 * batches for administrators.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  FreeClaimResponse,
  FreeStatusResponse,
  RedeemBatchBody,
  RedeemBatchIdParams,
  RedeemBatchListQuery,
  RedeemBatchListResponse,
  RedeemBatchResponse,
  RedeemBody,
  RedeemResponse,
} from '../../../src/contract';
import type { AppDeps } from '../../app';
import { forbidden } from '../../errors';
import { actorOf } from '../../plugins/auth';
import { claimFree, freeStatus } from './free';
import { redeemCode } from './redeem';
import { createBatch, disableBatch, downloadCodes, listBatches } from './redeem-batches';

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config, secrets }) => {
  const tags = ['ocs'];
  const user = { auth: 'user' as const };
  const admin = { auth: 'admin' as const };
  const tz = config.PORTAL_TZ;
  const freeDaily = async () => (await app.ocs.settings.get()).freeDaily;

  app.get(
    '/free',
    {
      config: user,
      schema: {
        tags,
        summary: '每日免费领取：今天是否已领、数额、下次开放时间',
        response: { 200: FreeStatusResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await freeStatus(db, request.user!.id, await freeDaily(), tz),
    }),
  );

  app.post(
    '/free/claim',
    {
      config: user,
      schema: { tags, summary: '领取今天的免费积分（每人每天一次）', response: { 200: FreeClaimResponse } },
    },
    async (request) => ({ success: true as const, data: await claimFree(db, request.user!.id, await freeDaily(), tz) }),
  );

  app.post(
    '/redeem',
    {
      config: user,
      schema: {
        tags,
        summary: '兑换兑换码（不区分大小写与分隔符；输错每分钟最多 5 次）',
        body: RedeemBody,
        response: { 200: RedeemResponse },
      },
    },
    async (request) => ({ success: true as const, data: await redeemCode(db, request.user!.id, request.body.code) }),
  );

  app.get(
    '/admin/redeem-batches',
    {
      config: admin,
      schema: {
        tags,
        summary: '兑换码批次列表',
        querystring: RedeemBatchListQuery,
        response: { 200: RedeemBatchListResponse },
      },
    },
    async (request) => {
      const { rows, total } = await listBatches(db, request.query);
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
    '/admin/redeem-batches',
    {
      config: admin,
      schema: {
        tags,
        summary: '生成一批兑换码（之后下载一次 CSV）',
        body: RedeemBatchBody,
        response: { 200: RedeemBatchResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await createBatch(db, secrets, actorOf(request), request.body),
    }),
  );

  app.get(
    '/admin/redeem-batches/:id/codes.csv',
    { config: admin, schema: { tags, summary: '下载该批次的兑换码 CSV（只能下载一次）', params: RedeemBatchIdParams } },
    async (request, reply) => {
      // A GET that destroys data: a link on another site must not be able to spend the one download.
      if (request.headers['sec-fetch-site'] === 'cross-site') throw forbidden('拒绝跨站请求');
      const { csv, filename } = await downloadCodes(db, secrets, actorOf(request), request.params.id, tz);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(csv);
    },
  );

  app.post(
    '/admin/redeem-batches/:id/disable',
    {
      config: admin,
      schema: {
        tags,
        summary: '停用批次（其中的兑换码都不能再兑换）',
        params: RedeemBatchIdParams,
        response: { 200: RedeemBatchResponse },
      },
    },
    async (request) => ({ success: true as const, data: await disableBatch(db, actorOf(request), request.params.id) }),
  );
};

export default routes;
