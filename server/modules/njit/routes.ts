/**
 * HTTP layer of the NJIT student lookup. Every route needs role njit; importing, revealing and the
 * audit log need admin as well. Also schedules the retention pruning for the app's lifetime.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdParams,
  ImportCommitResponse,
  ImportIdParams,
  ImportListQuery,
  ImportListResponse,
  ImportPreviewResponse,
  NJIT_IMPORT_MAX_BYTES,
  NjitAuditExportQuery,
  NjitAuditListResponse,
  NjitAuditQuery,
  NjitOptionsResponse,
  NjitOverviewResponse,
  RevealBody,
  RevealResponse,
  StudentResponse,
  StudentSearchQuery,
  StudentSearchResponse,
} from '../../../src/contract';
import type { AppDeps } from '../../app';
import { badRequest, forbidden, HttpError } from '../../errors';
import { actorOf } from '../../plugins/auth';
import { exportNjitAuditCsv, listNjitAudit, pruneNjit, recordNjitAudit } from './audit';
import { commitImport, listImports, previewImport } from './imports';
import * as students from './service';

const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;

function requireAdmin(request: FastifyRequest, what: string): void {
  if (!request.user?.roles.includes('admin')) throw forbidden(`${what}需要同时具有 njit 和管理员角色`);
}

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, config }) => {
  const tags = ['njit'];
  const njit = { auth: 'njit' as const };
  const limit = config.NJIT_QUERY_RATE_LIMIT;

  let timer: NodeJS.Timeout | undefined;
  const prune = () =>
    pruneNjit(db, config.NJIT_AUDIT_RETENTION_DAYS).catch((err) => app.log.warn({ err }, 'njit audit pruning failed'));
  app.addHook('onReady', async () => {
    await prune();
    timer = setInterval(() => void prune(), PRUNE_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));

  app.get(
    '/students',
    {
      config: njit,
      schema: {
        tags,
        summary: '查询学生（至少一个条件，每页最多 50 条，限频）',
        querystring: StudentSearchQuery,
        response: { 200: StudentSearchResponse },
      },
    },
    async (request) => {
      const { rows, total, capped } = await students.searchStudents(db, actorOf(request), request.query, limit);
      return {
        success: true as const,
        data: rows,
        total,
        capped,
        current: request.query.current,
        pageSize: request.query.pageSize,
      };
    },
  );

  app.get(
    '/students/:id',
    {
      config: njit,
      schema: { tags, summary: '学生详情（敏感字段已脱敏）', params: IdParams, response: { 200: StudentResponse } },
    },
    async (request) => ({
      success: true as const,
      data: await students.getStudent(db, actorOf(request), request.params.id, limit),
    }),
  );

  app.post(
    '/students/:id/reveal',
    {
      config: njit,
      schema: {
        tags,
        summary: '查看完整手机号或身份证号（管理员，需填写原因）',
        params: IdParams,
        body: RevealBody,
        response: { 200: RevealResponse },
      },
    },
    async (request) => {
      requireAdmin(request, '查看敏感字段');
      const { field, reason } = request.body;
      return {
        success: true as const,
        data: await students.revealField(db, actorOf(request), request.params.id, field, reason),
      };
    },
  );

  app.get(
    '/options',
    { config: njit, schema: { tags, summary: '筛选项：学院、专业、年级', response: { 200: NjitOptionsResponse } } },
    async () => ({ success: true as const, data: await students.filterOptions(db) }),
  );

  app.get(
    '/overview',
    {
      config: njit,
      schema: { tags, summary: '概览：人数分布、最近导入、我的查询次数', response: { 200: NjitOverviewResponse } },
    },
    async (request) => ({
      success: true as const,
      data: await students.overview(db, request.user!.id, config.PORTAL_TZ, limit),
    }),
  );

  app.post(
    '/imports',
    {
      config: njit,
      schema: {
        tags,
        summary: '上传名单（multipart，字段 file；CSV 或 XLSX）并预览校验结果',
        response: { 200: ImportPreviewResponse },
      },
    },
    async (request) => {
      requireAdmin(request, '导入名单');
      if (!request.isMultipart()) throw badRequest('请以 multipart/form-data 上传文件（字段 file）');
      const file = await request.file({ limits: { fileSize: NJIT_IMPORT_MAX_BYTES, files: 1 } });
      if (!file) throw badRequest('请选择要上传的文件', { file: ['请选择要上传的文件'] });
      let buffer: Buffer;
      try {
        buffer = await file.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(
            413,
            'FILE_TOO_LARGE',
            `文件不能超过 ${NJIT_IMPORT_MAX_BYTES / 1024 / 1024} MB，请拆分后分批导入`,
          );
        }
        throw err;
      }
      const fileName = (file.filename || 'upload').slice(0, 200);
      return { success: true as const, data: await previewImport(db, actorOf(request), fileName, buffer) };
    },
  );

  app.post(
    '/imports/:id/commit',
    {
      config: njit,
      schema: {
        tags,
        summary: '确认导入（一个事务，按学号更新或新增）',
        params: ImportIdParams,
        response: { 200: ImportCommitResponse },
      },
    },
    async (request) => {
      requireAdmin(request, '导入名单');
      return { success: true as const, data: await commitImport(db, actorOf(request), request.params.id) };
    },
  );

  app.get(
    '/imports',
    {
      config: njit,
      schema: { tags, summary: '导入历史', querystring: ImportListQuery, response: { 200: ImportListResponse } },
    },
    async (request) => {
      requireAdmin(request, '查看导入历史');
      const { rows, total } = await listImports(db, request.query);
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
    '/audit',
    {
      config: njit,
      schema: {
        tags,
        summary: '审计日志（管理员）',
        querystring: NjitAuditQuery,
        response: { 200: NjitAuditListResponse },
      },
    },
    async (request) => {
      requireAdmin(request, '查看审计日志');
      const { rows, total } = await listNjitAudit(db, request.query);
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
    '/audit/export',
    { config: njit, schema: { tags, summary: '导出审计日志 CSV（管理员）', querystring: NjitAuditExportQuery } },
    async (request, reply) => {
      requireAdmin(request, '导出审计日志');
      const { csv, count } = await exportNjitAuditCsv(db, request.query);
      await recordNjitAudit(db, actorOf(request), {
        action: 'audit_export',
        criteria: { ...request.query },
        resultCount: count,
      });
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="njit-audit-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
};

export default routes;
