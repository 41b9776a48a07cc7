/**
 * Users' reports of wrong answers. A report names one answered query of the reporter's own
 * history (from the portal by its id; from a script by its id or by asking the question again), so
 * nobody can report an answer they were never given. Each report carries the reporter's weight at
 * the time — 1 for a new reporter, falling with every rejected report (reporterWeight) — and when the
 * open reports of independent users on one answer weigh the administrators' threshold, the answer is
 * marked 存疑 until reviewed (answered with lower confidence, or not at all: admin/settings.ts).
 * Reports are limited per user and day. The review itself is review.ts.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { OcsMyReport, OcsReportContext } from '../../../../src/contract';
import type { DB, OcsQuestionType } from '../../../db/schema';
import { lockFor } from '../../../db/locks';
import { badRequest, conflict, notFound, tooMany } from '../../../errors';
import type { OcsSettings } from '../admin/settings';
import type { FuzzyIndex } from '../bank/fuzzy-index';
import { answerCellPieces } from '../bank/import-parse';
import { prepareQuestion } from '../bank/question';
import { toQueryItem } from '../query/log';
import { notifyAdmins } from '../../notifications';

type Db = Kysely<DB> | Transaction<DB>;

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** 1 for a new reporter; each rejected report counts twice against the accepted ones. */
export async function reporterWeight(db: Db, userId: number): Promise<number> {
  const r = await db
    .selectFrom('ocs_reports')
    .select([
      sql<number>`count(*) filter (where status = 'accepted')`.as('accepted'),
      sql<number>`count(*) filter (where status = 'rejected')`.as('rejected'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const accepted = Number(r.accepted);
  const rejected = Number(r.rejected);
  return Math.round(((accepted + 1) / (accepted + 1 + 2 * rejected)) * 1000) / 1000;
}

function toMyReport(r: {
  id: number;
  query_id: number;
  status: 'open' | 'accepted' | 'rejected';
  proposed: string[] | null;
  reason: string;
  refunded: number;
  resolution: string | null;
  created_at: Date;
  resolved_at: Date | null;
}): OcsMyReport {
  return {
    id: Number(r.id),
    queryId: Number(r.query_id),
    status: r.status,
    proposed: r.proposed,
    reason: r.reason,
    refunded: Number(r.refunded),
    resolution: r.resolution,
    createdAt: iso(r.created_at)!,
    resolvedAt: iso(r.resolved_at),
  };
}

const REPORT_COLUMNS = [
  'id',
  'query_id',
  'status',
  'proposed',
  'reason',
  'refunded',
  'resolution',
  'created_at',
  'resolved_at',
] as const;

async function ownQuery(db: Db, userId: number, queryId: number) {
  return db
    .selectFrom('ocs_queries')
    .select([
      'id',
      'title',
      'title_hash',
      'type',
      'outcome',
      'answer',
      'cost',
      'message',
      'question_id',
      'source',
      'confidence',
      'created_at',
    ])
    .where('id', '=', queryId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Why this query's answer cannot be reported, or null. */
function refusalOf(q: { outcome: string; answer: string | null; question_id: number | null }): string | null {
  if (!['bank', 'ai', 'cache'].includes(q.outcome) || q.answer == null) return '这次查询没有给出答案，无需反馈';
  if (q.question_id == null) return '这个答案没有存入题库，无法反馈';
  return null;
}

/** What the report dialog shows. */
export async function reportContext(db: Kysely<DB>, userId: number, queryId: number): Promise<OcsReportContext> {
  const q = await ownQuery(db, userId, queryId);
  if (!q) throw notFound('没有找到这条查询记录');
  const [question, report] = await Promise.all([
    q.question_id == null
      ? undefined
      : db
          .selectFrom('ocs_questions')
          .select(['title', 'type', 'options', 'answer'])
          .where('id', '=', q.question_id)
          .executeTakeFirst(),
    db.selectFrom('ocs_reports').select(REPORT_COLUMNS).where('query_id', '=', queryId).executeTakeFirst(),
  ]);
  const refusal = refusalOf(q) ?? (question ? null : '这道题已不在题库中，无法反馈');
  return {
    query: toQueryItem({
      ...q,
      report: report ? { status: report.status, refunded: Number(report.refunded) } : null,
    }),
    question: question ?? null,
    report: report ? toMyReport(report) : null,
    refusal,
  };
}

export interface ReportInput {
  /** The reported query of the user's history; or `key`: the user's latest answer to that question. */
  queryId?: number;
  key?: string;
  proposed?: string;
  reason?: string;
}

/** A start of "today" in the portal's zone, for the daily limit. */
const todayStart = (tz: string) => sql<Date>`date_trunc('day', now() at time zone ${tz}) at time zone ${tz}`;

/**
 * Takes a report, or refuses it with a Chinese message (400 not reportable, 404 not the user's, 409
 * already reported, 429 past the day's limit). May mark the answer 存疑.
 */
export async function createReport(
  db: Kysely<DB>,
  deps: { settings: OcsSettings; index: FuzzyIndex; tz: string },
  userId: number,
  input: ReportInput,
): Promise<OcsMyReport> {
  let queryId = input.queryId;
  if (queryId === undefined && input.key) {
    const latest = await db
      .selectFrom('ocs_queries')
      .select('id')
      .where('user_id', '=', userId)
      .where('title_hash', '=', input.key)
      .where('outcome', 'in', ['bank', 'ai', 'cache'])
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!latest) throw badRequest('你没有查询过这道题（或没有得到答案），无法反馈');
    queryId = Number(latest.id);
  }
  if (queryId === undefined) throw badRequest('请指明要反馈的答案', { queryId: ['请指明要反馈的答案'] });
  const q = await ownQuery(db, userId, queryId);
  if (!q) throw notFound('没有找到这条查询记录');
  const refusal = refusalOf(q);
  if (refusal) throw badRequest(refusal);
  const questionId = Number(q.question_id);

  const result = await db.transaction().execute(async (trx) => {
    // One user's reports one at a time: the daily count and the duplicate checks hold under double clicks.
    await lockFor(trx, 'ocs-report', userId);
    const question = await trx
      .selectFrom('ocs_questions')
      .select(['id', 'title', 'type', 'options', 'answer', 'norm_title', 'disputed'])
      .where('id', '=', questionId)
      .executeTakeFirst();
    if (!question) throw badRequest('这道题已不在题库中，无法反馈');
    const [today, same] = await Promise.all([
      trx
        .selectFrom('ocs_reports')
        .select(sql<number>`count(*)`.as('n'))
        .where('user_id', '=', userId)
        .where('created_at', '>=', todayStart(deps.tz))
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('ocs_reports')
        .select(['query_id', 'status'])
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('query_id', '=', queryId!), eb('question_id', '=', questionId)]))
        .where((eb) => eb.or([eb('query_id', '=', queryId!), eb('status', '=', 'open')]))
        .execute(),
    ]);
    if (same.some((r) => Number(r.query_id) === queryId)) throw conflict('这条答案已经反馈过了');
    if (same.length > 0) throw conflict('你已反馈过这道题，正在等待审核');
    if (Number(today.n) >= deps.settings.reportDailyLimit) {
      throw tooMany(`今天的反馈次数已达上限（${deps.settings.reportDailyLimit} 次），请明天再来`, 3600);
    }
    let proposed: string[] | null = null;
    if (input.proposed?.trim()) {
      const p = prepareQuestion({
        title: question.title,
        type: question.type as OcsQuestionType,
        options: question.options,
        answer: answerCellPieces(input.proposed.trim(), question.options.length === 0),
      });
      if ('error' in p) throw badRequest(`建议答案无效：${p.error}`, { proposed: [p.error] });
      if (JSON.stringify(p.answer) === JSON.stringify(question.answer)) {
        throw badRequest('建议的答案与题库当前答案相同', { proposed: ['与题库当前答案相同'] });
      }
      proposed = p.answer;
    }
    const row = await trx
      .insertInto('ocs_reports')
      .values({
        user_id: userId,
        query_id: queryId!,
        question_id: questionId,
        answer: q.answer!,
        proposed: proposed ? JSON.stringify(proposed) : null,
        reason: (input.reason ?? '').trim().slice(0, 500),
        weight: await reporterWeight(trx, userId),
      })
      .returning(REPORT_COLUMNS)
      .executeTakeFirstOrThrow();
    const changed = await recomputeDispute(trx, questionId, deps.settings.disputeThreshold, null);
    await notifyAdmins(trx, {
      kind: 'ocs.report.new',
      title: '有新的答案纠错反馈待审核',
      body: `题目：${question.title.slice(0, 100)}`,
      link: '/OCS/OCSAdmin/reviews',
    });
    return { report: toMyReport(row), changed, norm: question.norm_title };
  });
  // The answer's 存疑 mark changed: memory reads the row again.
  if (result.changed) deps.index.add(questionId, result.norm);
  return result.report;
}

/**
 * Marks the answer 存疑 when its open reports, one weight per user (their strongest), reach
 * `threshold`, and clears the mark when they no longer do. Returns whether the mark changed (the
 * caller then has memory read the row again). `actor` null: the mark came from users' reports.
 */
export async function recomputeDispute(
  trx: Transaction<DB>,
  questionId: number,
  threshold: number,
  actor: { id: number; username: string } | null,
): Promise<boolean> {
  const r = await sql<{ weight: number }>`
    select coalesce(sum(w), 0) as weight from (
      select max(weight) as w from ocs_reports where question_id = ${questionId} and status = 'open' group by user_id
    ) s`.execute(trx);
  const disputed = Number(r.rows[0]!.weight) >= threshold - 1e-9;
  const row = await trx
    .updateTable('ocs_questions')
    .set({ disputed, updated_at: sql<Date>`now()` })
    .where('id', '=', questionId)
    .where('disputed', '<>', disputed)
    .returning('id')
    .executeTakeFirst();
  if (row && disputed) {
    await trx
      .insertInto('ocs_question_history')
      .values({
        question_id: questionId,
        actor_id: actor?.id ?? null,
        actor_name: actor?.username ?? '用户反馈',
        action: 'dispute',
        after: JSON.stringify({ disputed: true, reportWeight: Number(r.rows[0]!.weight) }),
        reason: `独立用户反馈的权重达到 ${threshold}`,
      })
      .execute();
  }
  return !!row;
}

/**
 * Gives back what a query cost, once: a second call (or a concurrent one: the unique index
 * ocs_ledger_refund_once) books nothing. Returns the points refunded, 0 when already refunded.
 */
export async function refundQuery(
  db: Db,
  r: { userId: number; queryId: number; amount: number; memo: string; actorId: number | null },
): Promise<number> {
  if (r.amount <= 0) return 0;
  try {
    const out = await sql<{ ledger_id: number | null }>`
      with w as (
        update ocs_wallets set balance = balance + ${r.amount}, updated_at = now()
        where user_id = ${r.userId}
          and not exists (select 1 from ocs_ledger where kind = 'refund' and query_id = ${r.queryId})
        returning balance
      ), l as (
        insert into ocs_ledger (user_id, kind, amount, balance_after, memo, query_id, actor_id)
        select ${r.userId}, 'refund', ${r.amount}, w.balance, ${r.memo.slice(0, 500)}, ${r.queryId}, ${r.actorId} from w
        returning id
      )
      select (select id from l) as ledger_id`.execute(db);
    return out.rows[0]?.ledger_id != null ? r.amount : 0;
  } catch (err) {
    // Refunded meanwhile by a concurrent call (outside a transaction only: inside one, the caller holds the lock).
    if ((err as { code?: string }).code === '23505') return 0;
    throw err;
  }
}
