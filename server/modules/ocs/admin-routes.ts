/**
 * HTTP layer of OCS administration (prefix /api/ocs/admin). Every route is admin-only: users and
 * balances, service settings, and the question bank (import, search, edit, verification, stats, export).
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdjustBalanceBody,
  AdjustBalanceResponse,
  BankExportQuery,
  BankImportIdParams,
  BankImportJobResponse,
  BankImportPreviewResponse,
  BankQuestionDeleteResponse,
  BankQuestionListQuery,
  BankQuestionListResponse,
  BankQuestionResponse,
  BankQuestionStatusBody,
  BankQuestionUpdateBody,
  BankStatsResponse,
  IdParams,
  OCS_BANK_MAX_BYTES,
  OcsAdminLedgerResponse,
  OcsAdminUserListQuery,
  OcsAdminUserListResponse,
  OcsSettingsBody,
  OcsSettingsResponse,
  PageQuery,
} from '../../../src/contract';
import type { AppDeps } from '../../app';
import { badRequest, HttpError } from '../../errors';
import { actorOf } from '../../plugins/auth';
import { recordAudit } from '../audit/service';
import { adjustBalance, getOcsSettings, listOcsUsers, updateOcsSettings } from './admin-users';
import {
  bankStats,
  deleteQuestion,
  exportBank,
  getQuestion,
  searchQuestions,
  setQuestionStatus,
  updateQuestion,
} from './bank-admin';
import { BankImporter } from './bank-import';
import { listLedger } from './history';

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config: appConfig }) => {
  const tags = ['ocs-admin'];
  const config = { auth: 'admin' as const };
  const index = () => app.ocs.bank.index;
  const importer = new BankImporter({ db, index: app.ocs.bank.index, log: app.log });
  app.addHook('onClose', async () => importer.close());

  // --- users and balances ---

  app.get(
    '/users',
    {
      config,
      schema: {
        tags,
        summary: 'OCS 用户：余额、今日/累计查询、AI 花费、最近查询',
        querystring: OcsAdminUserListQuery,
        response: { 200: OcsAdminUserListResponse },
      },
    },
    async (request) => {
      const { rows, total } = await listOcsUsers(db, request.query, appConfig.PORTAL_TZ);
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
    '/users/:id/adjust',
    {
      config,
      schema: {
        tags,
        summary: '调整用户余额（正数增加、负数扣减，须填写原因；记入账单与审计）',
        params: IdParams,
        body: AdjustBalanceBody,
        response: { 200: AdjustBalanceResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await adjustBalance(db, actorOf(request), request.params.id, request.body.amount, request.body.reason),
    }),
  );

  app.get(
    '/users/:id/ledger',
    {
      config,
      schema: {
        tags,
        summary: '用户的积分明细（最新在前）',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: OcsAdminLedgerResponse },
      },
    },
    async (request) => {
      const { rows, total } = await listLedger(db, request.params.id, request.query, appConfig.PORTAL_TZ);
      return {
        success: true as const,
        data: rows,
        total,
        current: request.query.current,
        pageSize: request.query.pageSize,
      };
    },
  );

  // --- service settings ---

  app.get(
    '/settings',
    { config, schema: { tags, summary: 'OCS 服务设置', response: { 200: OcsSettingsResponse } } },
    async () => ({ success: true as const, data: await getOcsSettings(db) }),
  );

  app.put(
    '/settings',
    {
      config,
      schema: {
        tags,
        summary: '保存 OCS 服务设置（每次修改记入审计）',
        body: OcsSettingsBody,
        response: { 200: OcsSettingsResponse },
      },
    },
    async (request) => {
      await updateOcsSettings(db, actorOf(request), request.body);
      app.ocs.settings.invalidate();
      return { success: true as const, data: await getOcsSettings(db) };
    },
  );

  // --- question bank ---

  app.get(
    '/bank/stats',
    {
      config,
      schema: {
        tags,
        summary: '题库统计：总数、按来源、按状态、命中最多的 20 题',
        response: { 200: BankStatsResponse },
      },
    },
    async () => ({ success: true as const, data: await bankStats(db) }),
  );

  app.get(
    '/bank/questions',
    {
      config,
      schema: {
        tags,
        summary: '搜索题目（题目关键字、题型、来源、状态）',
        querystring: BankQuestionListQuery,
        response: { 200: BankQuestionListResponse },
      },
    },
    async (request) => {
      const { rows, total } = await searchQuestions(db, request.query);
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
    '/bank/questions/:id',
    { config, schema: { tags, summary: '题目详情', params: IdParams, response: { 200: BankQuestionResponse } } },
    async (request) => ({ success: true as const, data: await getQuestion(db, request.params.id) }),
  );

  app.put(
    '/bank/questions/:id',
    {
      config,
      schema: {
        tags,
        summary: '修改题目（与导入相同的校验；与其他题目重复时 409）',
        params: IdParams,
        body: BankQuestionUpdateBody,
        response: { 200: BankQuestionResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await updateQuestion(db, index(), actorOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/bank/questions/:id',
    { config, schema: { tags, summary: '删除题目', params: IdParams, response: { 200: BankQuestionDeleteResponse } } },
    async (request) => {
      await deleteQuestion(db, actorOf(request), request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    '/bank/questions/:id/status',
    {
      config,
      schema: {
        tags,
        summary: '标记题目：已核实 / 未核实 / 错误（错误的题目不再参与匹配）',
        params: IdParams,
        body: BankQuestionStatusBody,
        response: { 200: BankQuestionResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await setQuestionStatus(db, actorOf(request), request.params.id, request.body.status),
    }),
  );

  app.get(
    '/bank/export',
    { config, schema: { tags, summary: '导出整个题库（JSON 或 CSV，可直接再导入）', querystring: BankExportQuery } },
    async (request, reply) => {
      const { format } = request.query;
      await recordAudit(db, actorOf(request), { action: 'ocs.bank.export', targetType: 'ocs_bank', after: { format } });
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="ocs-bank-${stamp}.${format}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(exportBank(db, format)));
    },
  );

  app.post(
    '/bank/imports',
    {
      config,
      schema: {
        tags,
        summary: '上传题库文件（multipart，字段 file；JSON 或 CSV）并预览校验结果',
        response: { 200: BankImportPreviewResponse },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw badRequest('请以 multipart/form-data 上传文件（字段 file）');
      const file = await request.file({ limits: { fileSize: OCS_BANK_MAX_BYTES, files: 1 } });
      if (!file) throw badRequest('请选择要上传的文件', { file: ['请选择要上传的文件'] });
      let buffer: Buffer;
      try {
        buffer = await file.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(
            413,
            'FILE_TOO_LARGE',
            `文件不能超过 ${OCS_BANK_MAX_BYTES / 1024 / 1024} MB，请拆分后分批导入`,
          );
        }
        throw err;
      }
      const fileName = (file.filename || 'upload').slice(0, 200);
      return { success: true as const, data: await importer.preview(actorOf(request), fileName, buffer) };
    },
  );

  app.post(
    '/bank/imports/:id/commit',
    {
      config,
      schema: {
        tags,
        summary: '确认导入：后台分批写入，返回任务（可轮询进度）',
        params: BankImportIdParams,
        response: { 200: BankImportJobResponse },
      },
    },
    async (request) => ({ success: true as const, data: importer.commit(actorOf(request), request.params.id) }),
  );

  app.get(
    '/bank/imports/:id',
    {
      config,
      schema: { tags, summary: '导入任务进度', params: BankImportIdParams, response: { 200: BankImportJobResponse } },
    },
    async (request) => ({ success: true as const, data: importer.job(request.params.id) }),
  );
};

export default routes;
