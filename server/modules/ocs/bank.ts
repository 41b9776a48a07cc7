/**
 * The question bank: storing questions (idempotently, keyed by normalized title, type and option set),
 * and finding the answer for a caller's question — exact by hash first, then fuzzy through the
 * in-memory candidate index, scored by pg_trgm's similarity() and guarded so that a near miss (another
 * number, a negation, another entity) is never answered.
 */
import diff from 'fast-diff';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { formatAnswer, optionOverlap } from './answer';
import { FuzzyIndex } from './fuzzy-index';
import { cleanTitle, judgementOf, normalizeTitle, optionKey, titleHash, type OcsQuestionType } from './normalize';
import { createHash } from 'node:crypto';

export interface QuestionInput {
  title: string;
  type: OcsQuestionType;
  options: string[];
  answer: string[];
}

export interface PreparedQuestion {
  title: string;
  norm_title: string;
  title_hash: string;
  options_hash: string;
  type: OcsQuestionType;
  options: string[];
  answer: string[];
}

export function optionsHash(options: string[]): string {
  if (options.length === 0) return '';
  const keys = options.map(optionKey).sort();
  return createHash('sha256').update(keys.join('\u0001')).digest('hex').slice(0, 16);
}

/**
 * Validates and normalizes one question for storage. Choice answers may be given as letters (`A`,
 * `AC`) or as option texts; they are stored as option texts. Returns a Chinese error instead when the
 * question cannot be stored as given.
 */
export function prepareQuestion(q: QuestionInput): PreparedQuestion | { error: string } {
  const title = cleanTitle(q.title);
  const norm = normalizeTitle(q.title);
  if (!norm) return { error: '题目为空' };
  if (q.title.length > 2000) return { error: '题目超过 2000 个字符' };
  if (q.options.length > 26) return { error: '选项超过 26 个' };
  const options = q.options.map((o) => o.trim()).filter(Boolean);
  let answer = q.answer.map((a) => a.trim()).filter(Boolean);
  if (answer.length === 0) return { error: '答案为空' };
  let type = q.type;
  if (
    type === 'judgement' ||
    (type === 'any' && options.length === 0 && answer.length === 1 && judgementOf(answer[0]!))
  ) {
    const j = answer.length === 1 ? judgementOf(answer[0]!) : null;
    if (!j) return { error: '判断题答案须为 正确/错误（或 对/错、√/×）' };
    if (type === 'any') type = 'judgement';
    answer = [j];
  } else if (type === 'single' || type === 'multiple' || (type === 'any' && options.length > 0)) {
    if (options.length < 2) return { error: '选择题至少需要 2 个选项' };
    const keys = options.map(optionKey);
    if (new Set(keys).size !== keys.length) return { error: '选项有重复' };
    // Letters only when the whole answer is letters that all name an option: "ABD", "A,C".
    const letters = answer
      .join('')
      .replace(/[\s,，、#;；]/g, '')
      .toUpperCase();
    const lettersOk = /^[A-Z]+$/.test(letters) && [...letters].every((l) => l.charCodeAt(0) - 65 < options.length);
    const byText = answer
      .flatMap((a) => a.split('#'))
      .map((a) => a.trim())
      .filter(Boolean);
    if (byText.every((a) => keys.includes(optionKey(a)))) {
      answer = options.filter((_, i) => byText.some((a) => optionKey(a) === keys[i]));
    } else if (lettersOk) {
      answer = [...new Set(letters)].map((l) => options[l.charCodeAt(0) - 65]!);
    } else {
      return { error: '答案不在选项中（可写选项字母或选项原文）' };
    }
    if (type === 'single' && answer.length !== 1) return { error: '单选题只能有一个答案' };
  } else {
    answer = answer
      .flatMap((a) => a.split('#'))
      .map((a) => a.trim())
      .filter(Boolean);
  }
  if (answer.join('#').length > 4000) return { error: '答案超过 4000 个字符' };
  return {
    title: title.slice(0, 2000),
    norm_title: norm,
    title_hash: titleHash(norm),
    options_hash: optionsHash(type === 'judgement' || type === 'completion' ? [] : options),
    type,
    options: type === 'judgement' || type === 'completion' ? [] : options,
    answer,
  };
}

export interface UpsertResult {
  inserted: number;
  updated: number;
  rows: Array<{ id: number; norm_title: string }>;
}

/** Inserts or updates (same normalized title, type and options) in one statement per chunk. */
export async function upsertQuestions(
  db: Kysely<DB>,
  questions: PreparedQuestion[],
  source: 'import' | 'manual' | 'ai',
  status: 'verified' | 'unverified' = 'verified',
): Promise<UpsertResult> {
  const out: UpsertResult = { inserted: 0, updated: 0, rows: [] };
  // Within one statement a key may appear once: the last occurrence wins, as a later row would.
  const unique = new Map<string, PreparedQuestion>();
  for (const q of questions) unique.set(`${q.title_hash}|${q.type}|${q.options_hash}`, q);
  const list = [...unique.values()];
  for (let i = 0; i < list.length; i += 2000) {
    const chunk = list.slice(i, i + 2000);
    const rows = await db
      .insertInto('ocs_questions')
      .values(
        chunk.map((q) => ({
          title_hash: q.title_hash,
          options_hash: q.options_hash,
          norm_title: q.norm_title,
          title: q.title,
          type: q.type,
          options: JSON.stringify(q.options),
          answer: JSON.stringify(q.answer),
          source,
          status,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['title_hash', 'type', 'options_hash']).doUpdateSet((eb) => ({
          title: eb.ref('excluded.title'),
          norm_title: eb.ref('excluded.norm_title'),
          options: eb.ref('excluded.options'),
          answer: eb.ref('excluded.answer'),
          source: eb.ref('excluded.source'),
          status: eb.ref('excluded.status'),
          updated_at: sql<Date>`now()`,
        })),
      )
      .returning(['id', 'norm_title', sql<boolean>`(xmax = 0)`.as('inserted')])
      .execute();
    for (const r of rows) {
      if (r.inserted) out.inserted++;
      else out.updated++;
      out.rows.push({ id: Number(r.id), norm_title: r.norm_title });
    }
  }
  return out;
}

export interface Lookup {
  title: string;
  type: OcsQuestionType;
  options: string[];
}

export interface BankMatch {
  id: number;
  question: string;
  answer: string;
  via: 'exact' | 'fuzzy';
  similarity: number;
}

const DIGITS = /[0-9]/;
const NEGATION = /[不非没无未否错误反]/;
/** Characters of function words whose change does not change a question. */
const BENIGN = new Set(
  Array.from(
    '的了是在下列以哪一个些项关于说法中对于和与及或其之为面如选出请问括号内应填入空白处横线上述按照根据那么呢吗吧啊',
  ),
);

/**
 * Wordings quiz sites use interchangeably. Both sides are rewritten to the first form before the
 * difference is judged, so 「以下哪个」 against 「下列哪一个」 is no difference at all.
 */
const PARAPHRASES: Array<[string, string[]]> = [
  ['下列', ['以下', '下面', '如下']],
  ['哪一个', ['哪个']],
  ['哪一项', ['哪项']],
  ['哪些', ['哪几项', '哪几个']],
  ['哪一年', ['哪年']],
  ['大约是', ['约是', '大概是']],
  ['主要', ['最主要']],
  ['说法', ['表述', '叙述', '描述']],
  ['关于', ['有关']],
  ['认为', ['指出']],
  ['提出', ['提到']],
  ['说明', ['表明']],
  ['教材', ['课本']],
  ['广泛', ['普遍']],
  ['系统', ['全面']],
  ['重要', ['关键']],
];
const PARAPHRASE_RE = new RegExp(
  PARAPHRASES.flatMap(([, alts]) => alts)
    .sort((a, b) => b.length - a.length)
    .join('|'),
  'g',
);
const PARAPHRASE_TO = new Map(PARAPHRASES.flatMap(([to, alts]) => alts.map((a) => [a, to] as const)));
const canonicalWording = (s: string) => s.replace(PARAPHRASE_RE, (m) => PARAPHRASE_TO.get(m) ?? m);

/**
 * True when the query differs from the stored title only in a way that keeps the question: a cut-off
 * end, or function words. Any changed digit, negation or content character rejects the candidate,
 * whatever the similarity: a wrong answer is worse than none.
 */
export function benignDifference(query: string, stored: string): boolean {
  const parts = diff(canonicalWording(stored), canonicalWording(query));
  let changed = '';
  let truncatedTail = '';
  parts.forEach(([op, text], i) => {
    if (op === diff.EQUAL) return;
    if (op === diff.DELETE && i === parts.length - 1) truncatedTail = text;
    else changed += text;
  });
  if (DIGITS.test(changed + truncatedTail) || NEGATION.test(changed + truncatedTail)) return false;
  if (truncatedTail.length > Math.max(3, Math.floor(stored.length * 0.2))) return false;
  return Array.from(changed).every((c) => BENIGN.has(c));
}

type Row = {
  id: number;
  title: string;
  norm_title: string;
  type: OcsQuestionType;
  options: string[];
  answer: string[];
};

function typeFits(rowType: OcsQuestionType, callerType: OcsQuestionType): boolean {
  return callerType === 'any' || rowType === 'any' || rowType === callerType;
}

/** The best usable row: its answer expressible in the caller's options, most shared options first. */
function pick(rows: Array<Row & { sim?: number }>, q: Lookup): { row: Row; answer: string; sim: number } | null {
  let best: { row: Row; answer: string; sim: number; score: number } | null = null;
  for (const row of rows) {
    if (!typeFits(row.type, q.type)) continue;
    const overlap = optionOverlap(row.options, q.options);
    if (row.options.length > 0 && q.options.length > 0 && overlap < 0.5) continue;
    const answer = formatAnswer(row, q.type, q.options);
    if (answer === null) continue;
    const sim = row.sim ?? 1;
    const score = sim + 0.3 * overlap + (row.type === q.type ? 0.01 : 0);
    if (!best || score > best.score) best = { row, answer, sim, score };
  }
  return best && { row: best.row, answer: best.answer, sim: best.sim };
}

export async function findInBank(
  db: Kysely<DB>,
  index: FuzzyIndex,
  q: Lookup,
  threshold: number,
): Promise<BankMatch | null> {
  const norm = normalizeTitle(q.title);
  if (!norm) return null;
  const exact = await db
    .selectFrom('ocs_questions')
    .select(['id', 'title', 'norm_title', 'type', 'options', 'answer'])
    .where('title_hash', '=', titleHash(norm))
    .where('status', '<>', 'wrong')
    .limit(50)
    .execute();
  const hit = pick(exact as Row[], q);
  if (hit) return { id: Number(hit.row.id), question: hit.row.title, answer: hit.answer, via: 'exact', similarity: 1 };

  // The guard runs on the in-memory titles first: most near misses never reach the database.
  const ids = index
    .candidates(norm)
    .filter((id) => {
      const t = index.title(id);
      return t !== undefined && benignDifference(norm, t);
    })
    .slice(0, 4);
  if (ids.length === 0) return null;
  const scored = await db
    .selectFrom('ocs_questions')
    .select([
      'id',
      'title',
      'norm_title',
      'type',
      'options',
      'answer',
      sql<number>`similarity(norm_title, ${norm})`.as('sim'),
    ])
    .where('id', 'in', ids)
    .where('status', '<>', 'wrong')
    .execute();
  const usable = (scored as Array<Row & { sim: number }>).filter(
    (r) => Number(r.sim) >= threshold && benignDifference(norm, r.norm_title),
  );
  const fuzzy = pick(
    usable.map((r) => ({ ...r, sim: Number(r.sim) })),
    q,
  );
  if (!fuzzy) return null;
  return {
    id: Number(fuzzy.row.id),
    question: fuzzy.row.title,
    answer: fuzzy.answer,
    via: 'fuzzy',
    similarity: fuzzy.sim,
  };
}

/** A transaction's now() is its start, older than its commit: re-read that far back. */
const OVERLAP_MS = 60_000;

/**
 * Keeps one instance's FuzzyIndex in step with the table: a full load at start, then (only when
 * other instances may write, i.e. on a shared PostgreSQL) rows changed since the last look. Writes
 * made by this instance are added to the index directly.
 */
export class BankIndexSync {
  readonly index = new FuzzyIndex();
  private since: Date | null = null;

  constructor(private readonly db: Kysely<DB>) {}

  private markLoaded: () => void = () => undefined;
  /** Resolves once the start-up load finished (fuzzy matching finds nothing until then). */
  readonly loaded = new Promise<void>((resolve) => (this.markLoaded = resolve));

  async load(): Promise<{ rows: number; ms: number }> {
    const started = Date.now();
    const startedAt = await this.dbNow();
    let last = 0;
    let rows = 0;
    for (;;) {
      const page = await this.db
        .selectFrom('ocs_questions')
        .select(['id', 'norm_title'])
        .where('id', '>', last)
        .orderBy('id')
        .limit(20_000)
        .execute();
      for (const r of page) this.index.add(Number(r.id), r.norm_title);
      rows += page.length;
      if (page.length < 20_000) break;
      last = Number(page[page.length - 1]!.id);
    }
    this.index.compact();
    this.since = new Date(startedAt.getTime() - OVERLAP_MS);
    this.markLoaded();
    return { rows, ms: Date.now() - started };
  }

  async refresh(): Promise<number> {
    if (!this.since) return 0;
    const startedAt = await this.dbNow();
    let n = 0;
    let cursor = this.since;
    for (;;) {
      const page = await this.db
        .selectFrom('ocs_questions')
        .select(['id', 'norm_title', 'updated_at'])
        .where('updated_at', '>=', cursor)
        .orderBy('updated_at')
        .orderBy('id')
        .limit(20_000)
        .execute();
      for (const r of page) this.index.add(Number(r.id), r.norm_title);
      n += page.length;
      if (page.length < 20_000) break;
      const next = page[page.length - 1]!.updated_at;
      if (next.getTime() === cursor.getTime()) break;
      cursor = next;
    }
    this.since = new Date(startedAt.getTime() - OVERLAP_MS);
    return n;
  }

  private async dbNow(): Promise<Date> {
    const r = await sql<{ now: Date }>`select now() as now`.execute(this.db);
    return new Date(r.rows[0]!.now);
  }
}

/**
 * Hit counts, added up in memory and written every few seconds in one statement: counting a hit in
 * the charging statement doubled its cost. A crash loses at most one interval of counts (statistics,
 * not money).
 */
export class HitCounter {
  private pending = new Map<number, number>();

  constructor(private readonly db: Kysely<DB>) {}

  add(questionId: number): void {
    this.pending.set(questionId, (this.pending.get(questionId) ?? 0) + 1);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    this.pending = new Map();
    const ids = batch.map(([id]) => id);
    const counts = batch.map(([, n]) => n);
    await sql`
      update ocs_questions q set hit_count = q.hit_count + v.n
      from (select unnest(${ids}::bigint[]) as id, unnest(${counts}::int[]) as n) v
      where q.id = v.id`.execute(this.db);
  }
}
