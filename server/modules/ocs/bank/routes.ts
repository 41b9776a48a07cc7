/**
 * HTTP layer of the question bank's administration (the bank part of src/contract/api/ocsAdmin.ts):
 * statistics, search, read, edit, delete, verification, export, the two-step import and the one-step
 * import of the shipped sample bank. Every route is admin-only.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { OCS_BANK_MAX_BYTES } from '@contract';
import * as api from '@contract/api/ocsAdmin';
import type { AppDeps } from '../../../deps';
import { paged, success, SUCCESS } from '../../../http/reply';
import { route } from '../../../http/route';
import { withSavedUpload } from '../../../http/upload';
import { actorOf } from '../../../plugins/auth';
import { recordAudit } from '../../audit';
import { searchBank } from './search';
import { bankStats, deleteQuestion, getQuestion, searchQuestions, setQuestionStatus, updateQuestion } from './admin';
import { exportBank } from './export';
import type { BankImporter } from './importer';
import { importSampleBank } from './sample';

export default async function ocsBankRoutes(
  app: FastifyInstance,
  deps: AppDeps & { importer: BankImporter },
): Promise<void> {
  const { db, importer } = deps;
  const index = () => app.ocs.bank.index;

  route(app, api.bankStats, async () => success(await bankStats(db)));
  route(app, api.listQuestions, async (request) => paged(await searchQuestions(db, request.query), request.query));
  route(app, api.searchBank, async (request) => success(await searchBank(db, request.query.q)));
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
    const preview = await withSavedUpload(request, { maxBytes: OCS_BANK_MAX_BYTES }, ({ fileName, file }) =>
      importer.preview(actorOf(request), fileName, file),
    );
    return success(preview);
  });
  route(app, api.commitImport, async (request) => success(importer.commit(actorOf(request), request.params.id)));
  route(app, api.importJob, async (request) => success(importer.job(request.params.id)));
  route(app, api.importSampleBank, async (request) => success(await importSampleBank(db, index(), actorOf(request))));
}
