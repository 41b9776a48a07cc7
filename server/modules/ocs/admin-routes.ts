/**
 * HTTP layer of OCS administration (src/contract/api/ocsAdmin.ts). Every route is admin-only: users and
 * balances, service settings, and the question bank (import, search, edit, verification, stats, export).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { OCS_BANK_MAX_BYTES } from '@contract';
import * as api from '@contract/api/ocsAdmin';
import type { AppDeps } from '../../deps';
import { badRequest, HttpError } from '../../errors';
import { paged, success, SUCCESS } from '../../http/reply';
import { route } from '../../http/route';
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
import type { BankImporter } from './bank-import';
import { listLedger } from './history';

export default async function ocsAdminRoutes(
  app: FastifyInstance,
  deps: AppDeps & { importer: BankImporter },
): Promise<void> {
  const { db, config, importer } = deps;
  const index = () => app.ocs.bank.index;

  // ---------- users and balances ----------
  route(app, api.listUsers, async (request) =>
    paged(await listOcsUsers(db, request.query, config.PORTAL_TZ), request.query),
  );
  route(app, api.adjustBalance, async (request) =>
    success(await adjustBalance(db, actorOf(request), request.params.id, request.body.amount, request.body.reason)),
  );
  route(app, api.userLedger, async (request) =>
    paged(await listLedger(db, request.params.id, request.query, config.PORTAL_TZ), request.query),
  );

  // ---------- service settings ----------
  route(app, api.getSettings, async () => success(await getOcsSettings(db)));
  route(app, api.saveSettings, async (request) => {
    await updateOcsSettings(db, actorOf(request), request.body);
    app.ocs.settings.invalidate();
    return success(await getOcsSettings(db));
  });

  // ---------- question bank ----------
  route(app, api.bankStats, async () => success(await bankStats(db)));
  route(app, api.listQuestions, async (request) => paged(await searchQuestions(db, request.query), request.query));
  route(app, api.getQuestion, async (request) => success(await getQuestion(db, request.params.id)));
  route(app, api.updateQuestion, async (request) =>
    success(await updateQuestion(db, index(), actorOf(request), request.params.id, request.body)),
  );
  route(app, api.deleteQuestion, async (request) => {
    await deleteQuestion(db, actorOf(request), request.params.id);
    return SUCCESS;
  });
  route(app, api.setQuestionStatus, async (request) =>
    success(await setQuestionStatus(db, actorOf(request), request.params.id, request.body.status)),
  );

  route(app, api.bankExport, async (request, reply) => {
    const { format } = request.query;
    await recordAudit(db, actorOf(request), { action: 'ocs.bank.export', targetType: 'ocs_bank', after: { format } });
    const stamp = new Date().toISOString().slice(0, 10);
    return reply
      .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="ocs-bank-${stamp}.${format}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(exportBank(db, format)));
  });

  route(app, api.uploadImport, async (request) => {
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
    return success(await importer.preview(actorOf(request), fileName, buffer));
  });
  route(app, api.commitImport, async (request) => success(importer.commit(actorOf(request), request.params.id)));
  route(app, api.importJob, async (request) => success(importer.job(request.params.id)));
}
