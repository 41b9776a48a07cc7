/**
 * Administering the question bank: search, read, edit (re-validated like an import), delete, mark
 * answers verified or wrong (wrong rows are skipped by the matcher) and statistics. Changes are
 * audited. Export is in export.ts, import in importer.ts.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type {
  BankQuestion,
  BankQuestionListQuery,
  BankQuestionUpdateBody,
  BankSource,
  BankStats,
  BankStatus,
} from '../../../../src/contract';
import { paginate } from '../../../db/paging';
import type { DB, OcsQuestionsTable } from '../../../db/schema';
import { badRequest, conflict, notFound } from '../../../errors';
import { containsOperator, escapeLike } from '../../../lib/sql';
import { diff, recordAudit, type Actor } from '../../audit';
import type { FuzzyIndex } from './fuzzy-index';
import { prepareQuestion } from './question';
import type { z } from 'zod';

/** A question's row with its hit count (selected with HIT_COUNT). */
type Row = Selectable<OcsQuestionsTable> & { hit_count: number };

/** A question's hit count, beside any selection from ocs_questions (ocs_question_hits; no row: 0). */
export const HIT_COUNT = sql<number>`coalesce((select h.hits from ocs_question_hits h where h.question_id = ocs_questions.id), 0)`;

export function toBankQuestion(r: Row): BankQuestion {
  return {
    id: Number(r.id),
    title: r.title,
    type: r.type,
    options: r.options,
    answer: r.answer,
    source: r.source,
    disputed: !!r.disputed,
    status: r.status,
    hitCount: Number(r.hit_count),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export async function searchQuestions(
  db: Kysely<DB>,
  q: z.output<typeof BankQuestionListQuery>,
): Promise<{ rows: BankQuestion[]; total: number }> {
  let base = db.selectFrom('ocs_questions');
  if (q.keyword) base = base.where('title', containsOperator(q.keyword), `%${escapeLike(q.keyword)}%`);
  if (q.type) base = base.where('type', '=', q.type);
  if (q.source === 'upstream') base = base.where('source', 'like', 'upstream:%');
  else if (q.source) base = base.where('source', '=', q.source);
  if (q.status) base = base.where('status', '=', q.status);
  const dir = q.order === 'ascend' ? 'asc' : 'desc';
  const { rows, total } = await paginate(base, q, (b) =>
    b
      .selectAll()
      .select(HIT_COUNT.as('hit_count'))
      .orderBy(q.sortBy === 'hits' ? HIT_COUNT : sql`updated_at`, dir)
      .orderBy('id', dir),
  );
  return { rows: rows.map(toBankQuestion), total };
}

/** A question's row with its hit count; 404 when there is none. */
export async function getRow(db: Kysely<DB>, id: number): Promise<Row> {
  const row = await db
    .selectFrom('ocs_questions')
    .selectAll()
    .select(HIT_COUNT.as('hit_count'))
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('题目不存在');
  return row;
}

export async function getQuestion(db: Kysely<DB>, id: number): Promise<BankQuestion> {
  return toBankQuestion(await getRow(db, id));
}

const editable = (q: Pick<BankQuestion, 'title' | 'type' | 'options' | 'answer'>) => ({
  title: q.title,
  type: q.type,
  options: q.options,
  answer: q.answer,
});

/** Replaces a question after the same validation an import applies; its identity must stay unique. */
export async function updateQuestion(
  db: Kysely<DB>,
  index: FuzzyIndex,
  actor: Actor,
  id: number,
  body: z.output<typeof BankQuestionUpdateBody>,
): Promise<BankQuestion> {
  const p = prepareQuestion({ title: body.title, type: body.type, options: body.options, answer: body.answer });
  if ('error' in p) throw badRequest(p.error, { _: [p.error] });
  const updated = await db
    .transaction()
    .execute(async (trx) => {
      const before = await trx
        .selectFrom('ocs_questions')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw notFound('题目不存在');
      const clash = await trx
        .selectFrom('ocs_questions')
        .select('id')
        .where('title_hash', '=', p.title_hash)
        .where('type', '=', p.type)
        .where('options_hash', '=', p.options_hash)
        .where('id', '<>', id)
        .executeTakeFirst();
      if (clash)
        throw conflict(`修改后与已有题目 #${clash.id} 相同（题目、题型、选项一致），请直接编辑那一题或删除其一`);
      const row = await trx
        .updateTable('ocs_questions')
        .set({
          title: p.title,
          norm_title: p.norm_title,
          title_hash: p.title_hash,
          options_hash: p.options_hash,
          type: p.type,
          options: JSON.stringify(p.options),
          answer: JSON.stringify(p.answer),
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', id)
        .returningAll()
        .returning(HIT_COUNT.as('hit_count'))
        .executeTakeFirstOrThrow();
      const d = diff(editable(before), editable(row));
      await recordAudit(trx, actor, {
        action: 'ocs.bank.edit',
        targetType: 'ocs_question',
        targetId: id,
        targetName: row.title.slice(0, 100),
        ...d,
      });
      return row;
    })
    .catch((err: { code?: string }) => {
      // A concurrent edit or import took the identity between the check and the update.
      if (err.code === '23505') throw conflict('修改后与已有题目相同（题目、题型、选项一致）');
      throw err;
    });
  index.add(Number(updated.id), updated.norm_title);
  return toBankQuestion(updated);
}

export async function deleteQuestion(db: Kysely<DB>, actor: Actor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('ocs_questions')
      .where('id', '=', id)
      .returningAll()
      .returning(HIT_COUNT.as('hit_count'))
      .executeTakeFirst();
    if (!row) throw notFound('题目不存在');
    const q = toBankQuestion(row);
    await recordAudit(trx, actor, {
      action: 'ocs.bank.delete',
      targetType: 'ocs_question',
      targetId: id,
      targetName: row.title.slice(0, 100),
      before: { ...editable(q), source: q.source, status: q.status, hitCount: q.hitCount },
    });
  });
  // The fuzzy index keeps the id; its candidates are re-read from the table, where it no longer is.
}

/** verified / unverified / wrong; wrong takes the row out of matching without losing it. */
export async function setQuestionStatus(
  db: Kysely<DB>,
  actor: Actor,
  id: number,
  status: BankStatus,
): Promise<BankQuestion> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('ocs_questions')
      .select(['status'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound('题目不存在');
    const row = await trx
      .updateTable('ocs_questions')
      .set({ status, updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returningAll()
      .returning(HIT_COUNT.as('hit_count'))
      .executeTakeFirstOrThrow();
    if (before.status !== status) {
      await recordAudit(trx, actor, {
        action: 'ocs.bank.status',
        targetType: 'ocs_question',
        targetId: id,
        targetName: row.title.slice(0, 100),
        before: { status: before.status },
        after: { status },
      });
    }
    return toBankQuestion(row);
  });
}

export async function bankStats(db: Kysely<DB>): Promise<BankStats> {
  const [groups, top] = await Promise.all([
    db
      .selectFrom('ocs_questions')
      .select(['source', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['source', 'status'])
      .execute(),
    db
      .selectFrom('ocs_question_hits as h')
      .innerJoin('ocs_questions', 'ocs_questions.id', 'h.question_id')
      .selectAll('ocs_questions')
      .select('h.hits as hit_count')
      .orderBy('h.hits', 'desc')
      .orderBy('ocs_questions.id')
      .limit(20)
      .execute(),
  ]);
  const bySource: Record<BankSource, number> = { import: 0, manual: 0, ai: 0, corrected: 0, upstream: 0 };
  const byStatus: Record<BankStatus, number> = { verified: 0, unverified: 0, wrong: 0 };
  let total = 0;
  for (const g of groups) {
    const n = Number(g.n);
    bySource[g.source.startsWith('upstream:') ? 'upstream' : (g.source as BankSource)] += n;
    byStatus[g.status] += n;
    total += n;
  }
  const topHits = top
    .map(toBankQuestion)
    .map(({ id, title, type, source, status, hitCount }) => ({ id, title, type, source, status, hitCount }));
  return { total, bySource, byStatus, topHits };
}
