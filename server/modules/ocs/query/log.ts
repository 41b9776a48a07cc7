/**
 * The query log (ocs_queries) outside charging: writing a query that ended without an answer, finding
 * the same question answered in the last 10 minutes, and a user's own query history. Answered queries
 * are written by the charge (wallet/charge.ts).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { OcsOutcome, QueryLogItem } from '../../../../src/contract';
import { paginate } from '../../../db/paging';
import type { DB } from '../../../db/schema';

type Db = Kysely<DB> | Transaction<DB>;

/** The query log keeps an answer's pieces as a JSON array text (a piece may contain any character). */
export const logAnswer = (pieces: readonly string[]): string => JSON.stringify(pieces);

/** The pieces of a logged answer. */
export function answerFromLog(text: string): string[] {
  const v: unknown = JSON.parse(text);
  return Array.isArray(v) ? v.map(String) : [String(v)];
}

/** A query that ended without an answer (miss, error): logged, never charged. */
export async function logUnanswered(
  db: Db,
  q: {
    userId: number;
    tokenId: number | null;
    key: string;
    title: string;
    type: string;
    outcome: 'miss' | 'error' | 'no_balance';
    message: string;
    modelId?: number | null;
  },
): Promise<void> {
  await db
    .insertInto('ocs_queries')
    .values({
      user_id: q.userId,
      token_id: q.tokenId,
      title: q.title.slice(0, 2000),
      title_hash: q.key,
      type: q.type,
      outcome: q.outcome,
      message: q.message.slice(0, 500),
      model_id: q.modelId ?? null,
      cost: 0,
    })
    .execute();
}

/**
 * The cached answer of the same question within 10 minutes, if any (checked before paying an upstream or
 * an AI), with what its bank question is now: marked wrong, or 存疑 (disputed) since it was given.
 */
export async function recentAnswer(
  db: Db,
  userId: number,
  key: string,
): Promise<{
  answer: string;
  question_id: number | null;
  outcome: string;
  source: string | null;
  confidence: number | null;
  wrong: boolean;
  disputed: boolean;
} | null> {
  const row = await db
    .selectFrom('ocs_queries as q')
    .leftJoin('ocs_questions as b', 'b.id', 'q.question_id')
    .select(['q.answer', 'q.question_id', 'q.outcome', 'q.source', 'q.confidence', 'b.status', 'b.disputed'])
    .where('q.user_id', '=', userId)
    .where('q.title_hash', '=', key)
    .where('q.outcome', 'in', ['bank', 'ai', 'cache'])
    .where('q.created_at', '>', sql<Date>`now() - interval '10 minutes'`)
    .orderBy('q.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && row.answer != null
    ? {
        answer: row.answer,
        question_id: row.question_id == null ? null : Number(row.question_id),
        outcome: row.outcome,
        source: row.source,
        confidence: row.confidence == null ? null : Number(row.confidence),
        wrong: row.status === 'wrong',
        disputed: !!row.disputed,
      }
    : null;
}

const iso = (d: Date) => new Date(d).toISOString();

export function toQueryItem(r: {
  id: number;
  title: string;
  type: string;
  outcome: string;
  answer: string | null;
  cost: number;
  message: string | null;
  source?: string | null;
  confidence?: number | null;
  report?: { status: 'open' | 'accepted' | 'rejected'; refunded: number } | null;
  created_at: Date;
}): QueryLogItem {
  return {
    id: Number(r.id),
    title: r.title,
    type: r.type,
    outcome: r.outcome as OcsOutcome,
    answer: r.answer == null ? null : answerFromLog(r.answer),
    cost: Number(r.cost),
    message: r.message,
    source: r.source ?? null,
    confidence: r.confidence == null ? null : Number(r.confidence),
    report: r.report ?? null,
    createdAt: iso(r.created_at),
  };
}

export async function listQueries(
  db: Kysely<DB>,
  userId: number,
  q: { current: number; pageSize: number; outcome?: OcsOutcome },
): Promise<{ rows: QueryLogItem[]; total: number }> {
  let base = db.selectFrom('ocs_queries').where('user_id', '=', userId);
  if (q.outcome) base = base.where('outcome', '=', q.outcome);
  const { rows, total } = await paginate(base, q, (b) =>
    b
      .select([
        'id',
        'title',
        'type',
        'outcome',
        'answer',
        'cost',
        'message',
        'source',
        'confidence',
        'created_at',
        // The user's report of this answer, if any (one per query).
        (eb) =>
          eb
            .selectFrom('ocs_reports')
            .select(sql<string>`json_build_object('status', status, 'refunded', refunded)::text`.as('r'))
            .whereRef('ocs_reports.query_id', '=', 'ocs_queries.id')
            .as('report_json'),
      ])
      .orderBy('id', 'desc'),
  );
  return {
    rows: rows.map((r) =>
      toQueryItem({ ...r, report: r.report_json ? (JSON.parse(r.report_json) as QueryLogItem['report']) : null }),
    ),
    total,
  };
}
