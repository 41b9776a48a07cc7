/**
 * The 未收录 queue: every question that found no answer (a miss, an AI failure, a timeout,
 * an answer below the user's minimum confidence) is kept once per identity — normalized title, type
 * and option set, as the bank keys questions — with how often it was asked. MissRecorder counts them
 * in memory and writes them every few seconds in one transaction (misses stay as cheap as they were).
 * Administrators answer the most-asked first, in bulk or by accepting an AI draft: each answer becomes
 * a verified bank entry. When a write takes the open queue from below OCS_MISSES_NOTIFY_AT to at least
 * that many, the administrators are told (once until they read it; again only after the queue went
 * below the mark and crossed it anew, so a queue that stays long is not announced at every write).
 */
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { MissItem, MissListQuery } from '../../../../src/contract';
import type { DB, OcsQuestionType } from '../../../db/schema';
import { badRequest, conflict, notFound } from '../../../errors';
import type { SecretBox } from '../../../lib/secretbox';
import { containsOperator, escapeLike } from '../../../lib/sql';
import { lockFor } from '../../../db/locks';
import { recordAudit, type Actor } from '../../audit';
import { notifyAdmins } from '../../notifications';
import { callModel } from '../ai/client';
import { parseAiReply } from '../ai/parse';
import { callableModel } from '../ai/providers';
import type { FuzzyIndex } from '../bank/fuzzy-index';
import { cleanTitle, titleHash } from '../bank/normalize';
import { optionsHash, prepareQuestion } from '../bank/question';
import { upsertQuestions } from '../bank/store';
import type { MissSink } from '../query/service';
import type { Question } from '../query/question';
import { DEFAULT_PROMPT_TEMPLATES, renderPrompt } from '@contract';

interface Pending {
  title_hash: string;
  type: OcsQuestionType;
  options_hash: string;
  norm_title: string;
  title: string;
  options: string[];
  count: number;
}

const MAX_PENDING = 50_000;

/** Misses counted in memory, written every few seconds (and at shutdown) in one transaction. */
export class MissRecorder implements MissSink {
  private pending = new Map<string, Pending>();
  /** The write under way: a flush waits for it, so what was counted before a flush is written when it ends. */
  private writing: Promise<void> = Promise.resolve();

  /** `notifyAt`: the open queue's size administrators are told of when a write reaches it; 0: never. */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly notifyAt = 0,
  ) {}

  add(q: Question): void {
    const options = q.type === 'judgement' || q.type === 'completion' ? [] : q.options;
    const row: Omit<Pending, 'count'> = {
      title_hash: titleHash(q.norm),
      type: q.type,
      options_hash: optionsHash(options),
      norm_title: q.norm,
      title: (cleanTitle(q.title) || q.title).slice(0, 2000),
      options,
    };
    const key = `${row.title_hash}|${row.type}|${row.options_hash}`;
    const seen = this.pending.get(key);
    if (seen) seen.count++;
    else if (this.pending.size < MAX_PENDING) this.pending.set(key, { ...row, count: 1 });
  }

  flush(): Promise<void> {
    const done = this.writing.then(() => this.write());
    this.writing = done.catch(() => undefined);
    return done;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    const mark = this.notifyAt;
    await this.db.transaction().execute(async (trx) => {
      // One instance's write at a time, so the crossing is seen by exactly one of them. Counting stops
      // at the mark: two bounded index scans per write of a few seconds' misses, never per question.
      if (mark > 0) await lockFor(trx, 'ocs-misses');
      const before = mark > 0 ? await openUpTo(trx, mark) : 0;
      for (let i = 0; i < rows.length; i += 1000) {
        const chunk = rows.slice(i, i + 1000);
        await trx
          .insertInto('ocs_misses')
          .values(chunk.map((r) => ({ ...r, options: JSON.stringify(r.options) })))
          .onConflict((oc) =>
            oc.columns(['title_hash', 'type', 'options_hash']).doUpdateSet({
              count: sql<number>`ocs_misses.count + excluded.count`,
              last_at: sql<Date>`now()`,
              // Answered, yet asked again and not found (the answer was removed or marked wrong): back in the queue.
              status: sql<'open'>`case when ocs_misses.status = 'answered' then 'open' else ocs_misses.status end`,
            }),
          )
          .execute();
      }
      if (mark > 0 && before < mark && (await openUpTo(trx, mark)) >= mark) await tellGrowing(trx, mark);
    });
  }
}

/** Open 未收录 questions, counted up to `limit` (the queue index answers it without reading the rest). */
async function openUpTo(db: Kysely<DB>, limit: number): Promise<number> {
  const r = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from ocs_misses where status = 'open' limit ${limit}) x`.execute(db);
  return Number(r.rows[0]!.n);
}

async function tellGrowing(db: Kysely<DB>, mark: number): Promise<void> {
  const open = await db
    .selectFrom('ocs_misses')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  await notifyAdmins(db, {
    kind: 'ocs.misses.growing',
    title: `未收录题目已达 ${mark} 道`,
    body: `目前有 ${Number(open.n)} 道题目没有任何来源能回答，正在等待补录。补录后的答案会进入题库，下次直接命中。`,
    link: '/OCS/OCSAdmin/misses',
  });
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function toMissItem(r: {
  id: number;
  title: string;
  type: OcsQuestionType;
  options: string[];
  count: number;
  first_at: Date;
  last_at: Date;
  status: 'open' | 'answered' | 'dismissed';
  draft: string[] | null;
  draft_model: string | null;
  question_id: number | null;
}): MissItem {
  return {
    id: Number(r.id),
    title: r.title,
    type: r.type,
    options: r.options,
    count: Number(r.count),
    firstAt: iso(r.first_at)!,
    lastAt: iso(r.last_at)!,
    status: r.status,
    draft: r.draft,
    draftModel: r.draft_model,
    questionId: r.question_id == null ? null : Number(r.question_id),
  };
}

/** Most asked first. */
export async function listMisses(
  db: Kysely<DB>,
  q: z.output<typeof MissListQuery>,
): Promise<{ rows: MissItem[]; total: number }> {
  let base = db.selectFrom('ocs_misses').where('status', '=', q.status);
  if (q.keyword) base = base.where('title', containsOperator(q.keyword), `%${escapeLike(q.keyword)}%`);
  const [count, rows] = await Promise.all([
    base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('count', 'desc')
      .orderBy('id')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
  ]);
  return { total: Number(count.n), rows: rows.map(toMissItem) };
}

/**
 * Each answer becomes a verified bank entry (validated as an import is; nothing is written when one
 * is invalid). An answer that is the AI's draft unchanged keeps the AI as its source, verified.
 */
export async function answerMisses(
  db: Kysely<DB>,
  index: FuzzyIndex,
  actor: Actor,
  items: Array<{ id: number; answer: string[] }>,
): Promise<{ answered: number }> {
  const ids = [...new Set(items.map((i) => i.id))];
  if (ids.length !== items.length) throw badRequest('同一道题出现了两次');
  const rows = await db.selectFrom('ocs_misses').selectAll().where('id', 'in', ids).execute();
  const prepared = items.map((item) => {
    const row = rows.find((r) => Number(r.id) === item.id);
    if (!row) throw notFound(`未收录题目 #${item.id} 不存在`);
    if (row.status === 'answered') throw conflict(`未收录题目 #${item.id} 已补录`);
    const p = prepareQuestion({ title: row.title, type: row.type, options: row.options, answer: item.answer });
    if ('error' in p) throw badRequest(`「${row.title.slice(0, 30)}」：${p.error}`, { answer: [p.error] });
    const fromDraft = row.draft !== null && JSON.stringify(row.draft) === JSON.stringify(p.answer);
    return { row, p, fromDraft };
  });
  const written = await db.transaction().execute(async (trx) => {
    const out: Array<{ id: number; norm_title: string }> = [];
    for (const { row, p, fromDraft } of prepared) {
      const [stored] = (await upsertQuestions(trx, [p], fromDraft ? 'ai' : 'manual', 'verified')).rows;
      await trx
        .updateTable('ocs_misses')
        .set({
          status: 'answered',
          question_id: stored!.id,
          resolved_by: actor.id,
          resolved_at: sql<Date>`now()`,
        })
        .where('id', '=', row.id)
        .execute();
      await trx
        .insertInto('ocs_question_history')
        .values({
          question_id: stored!.id,
          actor_id: actor.id,
          actor_name: actor.username,
          action: 'answer_miss',
          after: JSON.stringify({ answer: p.answer, fromDraft, asked: Number(row.count) }),
          reason: '未收录题目补录',
        })
        .execute();
      out.push(stored!);
    }
    await recordAudit(trx, actor, {
      action: 'ocs.misses.answer',
      targetType: 'ocs_misses',
      after: { ids: prepared.map((x) => Number(x.row.id)), questions: out.map((o) => o.id) },
    });
    return out;
  });
  for (const r of written) index.add(r.id, r.norm_title);
  return { answered: written.length };
}

export async function dismissMisses(db: Kysely<DB>, actor: Actor, ids: number[]): Promise<{ dismissed: number }> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('ocs_misses')
      .set({ status: 'dismissed', resolved_by: actor.id, resolved_at: sql<Date>`now()` })
      .where('id', 'in', ids)
      .where('status', '=', 'open')
      .returning('id')
      .execute();
    if (rows.length === 0) throw conflict('所选题目都不在待补录状态');
    await recordAudit(trx, actor, {
      action: 'ocs.misses.dismiss',
      targetType: 'ocs_misses',
      after: { ids: rows.map((r) => Number(r.id)) },
    });
    return { dismissed: rows.length };
  });
}

/** Asks the cheapest enabled AI model and keeps its answer as the row's draft (nothing enters the bank). */
export async function draftMiss(
  db: Kysely<DB>,
  secrets: SecretBox,
  id: number,
  allowlist: readonly string[],
): Promise<MissItem> {
  const row = await db.selectFrom('ocs_misses').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('未收录题目不存在');
  const model = await callableModel(db, secrets, 'cheapest', allowlist);
  if (!model) throw conflict('没有启用的 AI 模型，无法起草答案');
  const prompt = renderPrompt(DEFAULT_PROMPT_TEMPLATES[row.type], {
    title: row.title,
    type: row.type,
    options: row.options,
  });
  const reply = await callModel(model.config, prompt);
  if (!reply.ok) throw conflict(`AI 起草失败：${reply.message}`);
  const parsed = parseAiReply(reply.text, { type: row.type, options: row.options });
  if ('error' in parsed) throw conflict(`AI 起草失败：${parsed.error}`);
  const p = prepareQuestion({ title: row.title, type: row.type, options: row.options, answer: parsed.answer });
  if ('error' in p) throw conflict(`AI 起草的答案无法使用：${p.error}`);
  const updated = await db
    .updateTable('ocs_misses')
    .set({ draft: JSON.stringify(p.answer), draft_model: model.config.model })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toMissItem(updated);
}
