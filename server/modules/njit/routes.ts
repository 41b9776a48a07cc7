/**
 * HTTP layer of the NJIT student lookup. Every route needs role njit; importing, revealing and the
 * audit log need admin as well.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NJIT_IMPORT_MAX_BYTES } from '@contract';
import * as api from '@contract/api/njit';
import {
  rosterTemplateCsv,
  rosterTemplateDisposition,
  rosterTemplateXlsx,
  ROSTER_TEMPLATE_TYPES,
} from '@contract/njitTemplate';
import type { AppDeps } from '../../deps';
import { badRequest, forbidden } from '../../errors';
import { paged, success } from '../../http/reply';
import { route } from '../../http/route';
import { withSavedUpload } from '../../http/upload';
import { actorOf } from '../../plugins/auth';
import { exportNjitAuditCsv, listNjitAudit, recordNjitAudit } from './audit';
import { editStudent, importDiff, manualEdits } from './edits';
import { commitImport, listImports, previewImport, type RosterPreparer } from './imports';
import { previewPurge, purgeNow } from './retention';
import { decideReveal, listRevealRequests, requestReveal, revealApproved } from './reveal-requests';
import { njitMetrics } from './metrics';
import { assertRevealable, policyFor, redactCriteria } from './policy';
import * as students from './service';

export function requireAdmin(request: FastifyRequest, what: string): void {
  if (!request.user?.roles.includes('admin')) throw forbidden(`${what}需要同时具有 njit 和管理员角色`);
}

export default async function njitRoutes(
  app: FastifyInstance,
  { db, config, prepareRoster }: AppDeps & { prepareRoster: RosterPreparer },
): Promise<void> {
  const limit = config.NJIT_QUERY_RATE_LIMIT;
  const metrics = njitMetrics(app.metrics);
  const totals = new students.SearchTotals();
  /** The caller's field levels and row scope, read once per request. */
  const policyOf = (request: FastifyRequest) => policyFor(db, request.user!);

  // ---------- students ----------
  route(app, api.searchStudents, async (request) => {
    const { rows, total, capped } = await students.searchStudents(
      db,
      actorOf(request),
      request.query,
      limit,
      totals,
      true,
      await policyOf(request),
    );
    metrics.search();
    return { ...paged({ rows, total }, request.query), capped };
  });

  route(app, api.quickSearch, async (request) => {
    const rows = await students.quickSearch(db, actorOf(request), request.query.q, limit, await policyOf(request));
    metrics.search();
    return success(rows);
  });

  route(app, api.getStudent, async (request) => {
    const student = await students.getStudent(db, actorOf(request), request.params.id, limit, await policyOf(request));
    metrics.view();
    return success({ ...student, manualEdits: await manualEdits(db, student.id) });
  });

  route(app, api.editStudent, async (request) => {
    requireAdmin(request, '修改学生信息');
    return success(await editStudent(db, actorOf(request), request.params.id, request.body));
  });

  const approval = { fields: config.NJIT_REVEAL_APPROVAL, minutes: config.NJIT_REVEAL_APPROVAL_MINUTES };

  route(app, api.revealField, async (request) => {
    requireAdmin(request, '查看敏感字段');
    const { field, reason } = request.body;
    if (approval.fields.includes(field)) {
      throw forbidden('查看该字段需另一位管理员批准：请提交查看申请，批准后在「查看审批」中查看');
    }
    const policy = await policyOf(request);
    const revealed = await students.revealField(db, actorOf(request), request.params.id, field, reason, policy);
    metrics.reveal(field);
    return success(revealed);
  });

  route(app, api.options, async (request) =>
    success({ ...(await students.filterOptions(db, await policyOf(request))), approval }),
  );

  // ---------- four-eyes reveals ----------
  route(app, api.requestReveal, async (request) => {
    requireAdmin(request, '申请查看敏感字段');
    const { field, reason } = request.body;
    if (!approval.fields.includes(field)) throw badRequest('该字段无需审批：填写原因即可直接查看');
    const { levels } = await policyOf(request);
    assertRevealable(field, levels);
    return success(await requestReveal(db, actorOf(request), request.params.id, field, reason, levels));
  });

  route(app, api.listRevealRequests, async (request) => {
    requireAdmin(request, '查看申请');
    const { levels } = await policyOf(request);
    return paged(await listRevealRequests(db, actorOf(request), request.query, levels), request.query);
  });

  route(app, api.decideRevealRequest, async (request) => {
    requireAdmin(request, '审批查看申请');
    const { levels } = await policyOf(request);
    return success(
      await decideReveal(db, actorOf(request), request.params.id, request.body.decision, approval.minutes, levels),
    );
  });

  route(app, api.revealApproved, async (request) => {
    requireAdmin(request, '查看敏感字段');
    // The policy may have hidden the field since the approval.
    const { levels } = await policyOf(request);
    const revealed = await revealApproved(db, actorOf(request), request.params.id, (field) =>
      assertRevealable(field, levels),
    );
    metrics.reveal(revealed.field);
    return success(revealed);
  });

  route(app, api.overview, async (request) =>
    success(await students.overview(db, request.user!.id, config.PORTAL_TZ, limit, await policyOf(request))),
  );

  // ---------- roster imports ----------
  route(app, api.uploadImport, async (request) => {
    requireAdmin(request, '导入名单');
    const preview = await withSavedUpload(request, { maxBytes: NJIT_IMPORT_MAX_BYTES }, ({ fileName, file }) =>
      previewImport(db, prepareRoster, actorOf(request), fileName, file),
    );
    return success(preview);
  });

  route(app, api.importDiff, async (request) => {
    requireAdmin(request, '查看导入差异');
    const diff = await importDiff(db, actorOf(request), request.params.id, request.query);
    return { ...paged(diff, request.query), counts: diff.counts };
  });

  route(app, api.commitImport, async (request) => {
    requireAdmin(request, '导入名单');
    return success(await commitImport(db, actorOf(request), request.params.id, request.body));
  });

  // The templates are made from the columns the importer reads (src/contract/njitTemplate.ts).
  route(app, api.importTemplate, async (request, reply) => {
    const { format } = request.query;
    const body = format === 'csv' ? rosterTemplateCsv() : await rosterTemplateXlsx();
    return reply
      .type(ROSTER_TEMPLATE_TYPES[format])
      .header('content-disposition', rosterTemplateDisposition(format))
      .send(body);
  });

  route(app, api.listImports, async (request) => {
    requireAdmin(request, '查看导入历史');
    return paged(await listImports(db, request.query), request.query);
  });

  // ---------- retention ----------
  const retentionDays = config.NJIT_STUDENT_RETENTION_DAYS;

  route(app, api.retentionPreview, async (request) => {
    requireAdmin(request, '查看到期清除名单');
    const { levels } = await policyOf(request);
    const preview = await previewPurge(db, actorOf(request), retentionDays, request.query, levels);
    return { ...paged(preview, request.query), retentionDays, cutoff: preview.cutoff, dueCount: preview.dueCount };
  });

  route(app, api.purgeStudents, async (request) => {
    requireAdmin(request, '清除到期学生记录');
    return success(await purgeNow(db, actorOf(request), retentionDays, request.body.cutoff));
  });

  // ---------- audit log ----------
  route(app, api.listAudit, async (request) => {
    requireAdmin(request, '查看审计日志');
    const { levels } = await policyOf(request);
    const { rows, total } = await listNjitAudit(db, request.query);
    const shown = rows.map((r) => ({ ...r, criteria: redactCriteria(r.criteria, levels) }));
    return paged({ rows: shown, total }, request.query);
  });

  route(app, api.exportAudit, async (request, reply) => {
    requireAdmin(request, '导出审计日志');
    const { studentId } = request.query;
    const { levels } = await policyOf(request);
    const { csv, count } = await exportNjitAuditCsv(db, request.query, (c) => redactCriteria(c, levels));
    // A student's access report concerns that student: it shows in their next report too.
    await recordNjitAudit(db, actorOf(request), {
      action: 'audit_export',
      criteria: { ...request.query },
      resultCount: count,
      recordIds: studentId ? [studentId] : [],
    });
    const stamp = new Date().toISOString().slice(0, 10);
    const name = studentId ? `njit-audit-student-${studentId}-${stamp}.csv` : `njit-audit-${stamp}.csv`;
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
