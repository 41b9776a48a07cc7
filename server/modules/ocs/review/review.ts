/**
 * The administrators' review of reported answers: the queue (questions with reports, 存疑
 * first), one question's reports and history, and the three decisions, each in bulk too:
 * - accept: the question gets the right answer (validated as an import is; source `corrected`,
 *   verified), the previous one is kept in ocs_question_history (who, what, when, why), the open
 *   reports are accepted and every reporter who was charged for the wrong answer gets the charge back,
 *   once (reports.ts refundQuery);
 * - reject: the answer stays; the reporters' weight falls (reports.ts reporterWeight);
 * - merge: duplicate questions' reports move to one question and the duplicates leave the bank.
 * Every decision is audited. Memory reads changed rows again (FuzzyIndex.add).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { z } from 'zod';
import type {
  QuestionHistoryEntry,
  ReviewAcceptBody,
  ReviewDetail,
  ReviewItem,
  ReviewQueueQuery,
  ReviewReport,
} from '../../../../src/contract';
import type { DB, OcsQuestionType } from '../../../db/schema';
import { badRequest, conflict, notFound } from '../../../errors';
import { containsOperator, escapeLike } from '../../../lib/sql';
import { recordAudit, type Actor } from '../../audit';
import { notify } from '../../notifications';
import { getRow, toBankQuestion } from '../bank/admin';
import type { FuzzyIndex } from '../bank/fuzzy-index';
import { prepareQuestion, provenanceOf } from '../bank/question';
import { recomputeDispute, refundQuery } from './reports';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export async function reviewQueue(
  db: Kysely<DB>,
  q: z.output<typeof ReviewQueueQuery>,
): Promise<{ rows: ReviewItem[]; total: number }> {
  const having =
    q.status === 'open'
      ? sql`count(*) filter (where r.status = 'open') > 0`
      : q.status === 'resolved'
        ? sql`count(*) filter (where r.status = 'open') = 0`
        : sql`true`;
  const where = [sql`true`];
  if (q.keyword) where.push(sql`q.title ${sql.raw(containsOperator(q.keyword))} ${`%${escapeLike(q.keyword)}%`}`);
  if (q.disputed) where.push(sql`q.disputed = ${q.disputed === 'true'}`);
  const base = sql`
    from ocs_reports r join ocs_questions q on q.id = r.question_id
    where ${sql.join(where, sql` and `)}
    group by q.id having ${having}`;
  const [count, page] = await Promise.all([
    sql<{ n: number }>`select count(*) as n from (select q.id ${base}) s`.execute(db),
    sql<{
      id: number;
      title: string;
      type: OcsQuestionType;
      options: string[];
      answer: string[];
      source: string;
      status: string;
      disputed: boolean;
      open_reports: number;
      total_reports: number;
      open_weight: number;
      last_report_at: Date;
    }>`
      select q.id, q.title, q.type, q.options, q.answer, q.source, q.status, q.disputed,
        count(*) filter (where r.status = 'open') as open_reports, count(*) as total_reports,
        coalesce(sum(r.weight) filter (where r.status = 'open'), 0) as open_weight,
        max(r.created_at) as last_report_at
      ${base}
      order by q.disputed desc, open_weight desc, last_report_at desc, q.id desc
      limit ${q.pageSize} offset ${(q.current - 1) * q.pageSize}`.execute(db),
  ]);
  const ids = page.rows.map((r) => Number(r.id));
  const proposals = ids.length
    ? (
        await sql<{ question_id: number; proposed: string[]; n: number; w: number }>`
          select question_id, proposed, count(*) as n, sum(weight) as w from ocs_reports
          where question_id in (${sql.join(ids)}) and status = 'open' and proposed is not null
          group by question_id, proposed order by w desc`.execute(db)
      ).rows
    : [];
  return {
    total: Number(count.rows[0]?.n ?? 0),
    rows: page.rows.map((r) => ({
      questionId: Number(r.id),
      title: r.title,
      type: r.type,
      options: r.options,
      answer: r.answer,
      source: r.source,
      provenance: provenanceOf(r.source, r.status),
      disputed: r.disputed,
      openReports: Number(r.open_reports),
      totalReports: Number(r.total_reports),
      openWeight: Math.round(Number(r.open_weight) * 1000) / 1000,
      lastReportAt: iso(r.last_report_at)!,
      proposals: proposals
        .filter((p) => Number(p.question_id) === Number(r.id))
        .map((p) => ({ answer: p.proposed, count: Number(p.n), weight: Math.round(Number(p.w) * 1000) / 1000 })),
    })),
  };
}

async function historyOf(db: Kysely<DB>, questionId: number): Promise<QuestionHistoryEntry[]> {
  const rows = await db
    .selectFrom('ocs_question_history')
    .selectAll()
    .where('question_id', '=', questionId)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((h) => ({
    id: Number(h.id),
    action: h.action,
    actorName: h.actor_name,
    before: h.before,
    after: h.after,
    reason: h.reason,
    createdAt: iso(h.created_at)!,
  }));
}

export async function reviewDetail(db: Kysely<DB>, questionId: number): Promise<ReviewDetail> {
  const row = await getRow(db, questionId);
  const [reports, history] = await Promise.all([
    db
      .selectFrom('ocs_reports as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .innerJoin('ocs_queries as q', 'q.id', 'r.query_id')
      .select([
        'r.id',
        'r.user_id',
        'u.username',
        'r.answer',
        'r.proposed',
        'r.reason',
        'r.weight',
        'r.status',
        'r.refunded',
        'q.cost',
        'r.merged_from',
        'r.resolution',
        'r.created_at',
        'r.resolved_at',
      ])
      .where('r.question_id', '=', questionId)
      .orderBy('r.id', 'desc')
      .limit(500)
      .execute(),
    historyOf(db, questionId),
  ]);
  return {
    question: { ...toBankQuestion(row), provenance: provenanceOf(row.source, row.status) },
    reports: reports.map((r): ReviewReport => ({
      id: Number(r.id),
      userId: Number(r.user_id),
      username: r.username,
      answer: r.answer,
      proposed: r.proposed,
      reason: r.reason,
      weight: Number(r.weight),
      status: r.status,
      refunded: Number(r.refunded),
      cost: Number(r.cost),
      mergedFrom: r.merged_from == null ? null : Number(r.merged_from),
      resolution: r.resolution,
      createdAt: iso(r.created_at)!,
      resolvedAt: iso(r.resolved_at),
    })),
    history,
  };
}

async function history(
  trx: Transaction<DB>,
  actor: Actor,
  e: { questionId: number; action: string; before?: object | null; after?: object | null; reason: string },
): Promise<void> {
  await trx
    .insertInto('ocs_question_history')
    .values({
      question_id: e.questionId,
      actor_id: actor.id,
      actor_name: actor.username,
      action: e.action,
      before: e.before ? JSON.stringify(e.before) : null,
      after: e.after ? JSON.stringify(e.after) : null,
      reason: e.reason,
    })
    .execute();
}

/**
 * Accepts corrections: every item is validated first (nothing changes if one is invalid), then each
 * question in its own transaction: the new answer, the history row, the open reports accepted, the
 * charged reporters refunded once each. Accepting means the answer was wrong, so the new answer must
 * differ from the current one: a report of a right answer is rejected, not accepted (no refund).
 */
const sameAnswer = (a: readonly string[], b: readonly string[]) => JSON.stringify(a) === JSON.stringify(b);
const unchanged = (id: number) =>
  badRequest(`题目 #${id}：采纳须给出与当前不同的答案；如果当前答案正确，请选择「驳回」`, {
    answer: ['与题库当前答案相同'],
  });

export async function acceptCorrections(
  db: Kysely<DB>,
  index: FuzzyIndex,
  actor: Actor,
  body: z.output<typeof ReviewAcceptBody>,
): Promise<{ questions: number; reports: number; refunds: number; refunded: number }> {
  const ids = [...new Set(body.items.map((i) => i.questionId))];
  if (ids.length !== body.items.length) throw badRequest('同一道题出现了两次');
  const rows = await db.selectFrom('ocs_questions').selectAll().where('id', 'in', ids).execute();
  const prepared = body.items.map((item) => {
    const row = rows.find((r) => Number(r.id) === item.questionId);
    if (!row) throw notFound(`题目 #${item.questionId} 不存在`);
    const p = prepareQuestion({ title: row.title, type: row.type, options: row.options, answer: item.answer });
    if ('error' in p) throw badRequest(`题目 #${item.questionId}：${p.error}`, { answer: [p.error] });
    if (sameAnswer(p.answer, row.answer)) throw unchanged(item.questionId);
    return { id: item.questionId, answer: p.answer };
  });
  const out = { questions: 0, reports: 0, refunds: 0, refunded: 0 };
  const touched: Array<{ id: number; norm: string }> = [];
  for (const item of prepared) {
    await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('ocs_questions')
        .selectAll()
        .where('id', '=', item.id)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw notFound(`题目 #${item.id} 不存在`);
      const open = await trx
        .selectFrom('ocs_reports as r')
        .innerJoin('ocs_queries as q', 'q.id', 'r.query_id')
        .select(['r.id', 'r.user_id', 'r.query_id', 'q.cost'])
        .where('r.question_id', '=', item.id)
        .where('r.status', '=', 'open')
        .forUpdate()
        .execute();
      if (open.length === 0) throw conflict(`题目 #${item.id} 没有待审核的反馈（可能已被处理）`);
      // Changed to this very answer since the validation above (another administrator's correction).
      if (sameAnswer(item.answer, before.answer)) throw unchanged(item.id);
      await trx
        .updateTable('ocs_questions')
        .set({
          answer: JSON.stringify(item.answer),
          source: 'corrected',
          status: 'verified',
          disputed: false,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', item.id)
        .execute();
      await history(trx, actor, {
        questionId: item.id,
        action: 'correct',
        before: { answer: before.answer, source: before.source, status: before.status, disputed: before.disputed },
        after: { answer: item.answer, source: 'corrected', status: 'verified', disputed: false },
        reason: body.reason,
      });
      for (const r of open) {
        const refunded = await refundQuery(trx, {
          userId: r.user_id,
          queryId: Number(r.query_id),
          amount: Number(r.cost),
          memo: `答案纠错退款：${before.title.slice(0, 150)}`,
          actorId: actor.id,
        });
        await trx
          .updateTable('ocs_reports')
          .set({
            status: 'accepted',
            resolved_by: actor.id,
            resolved_at: sql<Date>`now()`,
            resolution: body.reason,
            refunded,
          })
          .where('id', '=', r.id)
          .execute();
        await notify(trx, r.user_id, {
          kind: 'ocs.report.accepted',
          title: '你的纠错反馈已被采纳',
          body: `题目「${before.title.slice(0, 100)}」的答案已更正${refunded > 0 ? `，已退还 ${refunded} 积分` : ''}。`,
          link: '/OCS/bill',
        });
        out.reports++;
        if (refunded > 0) {
          out.refunds++;
          out.refunded += refunded;
        }
      }
      await recordAudit(trx, actor, {
        action: 'ocs.review.accept',
        targetType: 'ocs_question',
        targetId: item.id,
        targetName: before.title.slice(0, 100),
        before: { answer: before.answer, source: before.source },
        after: { answer: item.answer, source: 'corrected', reports: open.length, reason: body.reason },
      });
      touched.push({ id: item.id, norm: before.norm_title });
    });
    out.questions++;
  }
  for (const t of touched) index.add(t.id, t.norm);
  return out;
}

export async function rejectReports(
  db: Kysely<DB>,
  index: FuzzyIndex,
  actor: Actor,
  questionIds: number[],
  reason: string,
  threshold: number,
): Promise<{ questions: number; reports: number }> {
  const out = { questions: 0, reports: 0 };
  const touched: Array<{ id: number; norm: string }> = [];
  await db.transaction().execute(async (trx) => {
    for (const id of [...new Set(questionIds)]) {
      const q = await trx
        .selectFrom('ocs_questions')
        .select(['id', 'title', 'norm_title', 'answer'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!q) throw notFound(`题目 #${id} 不存在`);
      const rejected = await trx
        .updateTable('ocs_reports')
        .set({ status: 'rejected', resolved_by: actor.id, resolved_at: sql<Date>`now()`, resolution: reason })
        .where('question_id', '=', id)
        .where('status', '=', 'open')
        .returning(['id', 'user_id'])
        .execute();
      if (rejected.length === 0) throw conflict(`题目 #${id} 没有待审核的反馈（可能已被处理）`);
      for (const r of rejected) {
        await notify(trx, r.user_id, {
          kind: 'ocs.report.rejected',
          title: '你的纠错反馈未被采纳',
          body: `题目「${q.title.slice(0, 100)}」：${reason}`,
          link: '/OCS/overview',
        });
      }
      await history(trx, actor, {
        questionId: id,
        action: 'reject',
        after: { answer: q.answer, reports: rejected.length },
        reason,
      });
      if (await recomputeDispute(trx, id, threshold, actor)) touched.push({ id, norm: q.norm_title });
      await recordAudit(trx, actor, {
        action: 'ocs.review.reject',
        targetType: 'ocs_question',
        targetId: id,
        targetName: q.title.slice(0, 100),
        after: { reports: rejected.length, reason },
      });
      out.questions++;
      out.reports += rejected.length;
    }
  });
  for (const t of touched) index.add(t.id, t.norm);
  return out;
}

/** The duplicates' reports join the target; the duplicates are deleted (their history is kept). */
export async function mergeQuestions(
  db: Kysely<DB>,
  index: FuzzyIndex,
  actor: Actor,
  targetId: number,
  sourceIds: number[],
  reason: string,
  threshold: number,
): Promise<{ merged: number; reports: number }> {
  const sources = [...new Set(sourceIds)];
  if (sources.includes(targetId)) throw badRequest('目标题目不能同时是被合并的题目');
  const result = await db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('ocs_questions')
      .selectAll()
      .where('id', 'in', [targetId, ...sources])
      .orderBy('id')
      .forUpdate()
      .execute();
    const target = rows.find((r) => Number(r.id) === targetId);
    if (!target) throw notFound(`目标题目 #${targetId} 不存在`);
    const missing = sources.filter((id) => !rows.some((r) => Number(r.id) === id));
    if (missing.length) throw notFound(`题目 #${missing.join('、#')} 不存在`);
    let moved = 0;
    for (const id of sources) {
      const src = rows.find((r) => Number(r.id) === id)!;
      const m = await trx
        .updateTable('ocs_reports')
        .set({ question_id: targetId, merged_from: id })
        .where('question_id', '=', id)
        .returning('id')
        .execute();
      moved += m.length;
      const snapshot = {
        title: src.title,
        type: src.type,
        options: src.options,
        answer: src.answer,
        source: src.source,
      };
      await history(trx, actor, {
        questionId: id,
        action: 'merged_into',
        before: snapshot,
        after: { targetId },
        reason,
      });
      await history(trx, actor, {
        questionId: targetId,
        action: 'merge',
        before: { mergedId: id, ...snapshot },
        after: { reports: m.length },
        reason,
      });
      await trx.deleteFrom('ocs_questions').where('id', '=', id).execute();
    }
    await recomputeDispute(trx, targetId, threshold, actor);
    await recordAudit(trx, actor, {
      action: 'ocs.review.merge',
      targetType: 'ocs_question',
      targetId,
      targetName: target.title.slice(0, 100),
      after: { merged: sources, reports: moved, reason },
    });
    return { merged: sources.length, reports: moved, norm: target.norm_title };
  });
  index.add(targetId, result.norm);
  return { merged: result.merged, reports: result.reports };
}
