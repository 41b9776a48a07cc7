/**
 * Finding the answer for a caller's question in the bank: exact by title hash first (from memory when
 * the in-memory exact index vouches for the title, exact-index.ts), then fuzzy through the in-memory
 * candidate index, passed through the near-miss guard (guard.ts) and scored by pg_trgm's similarity():
 * in memory (trigram.ts) when memory vouches for the title and holds the candidates — then nothing is
 * read and the charge checks each row's version — else by the database in one statement.
 * A row is used only when its answer can be expressed in the caller's options; rows marked wrong are
 * never used.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { formatAnswer, optionOverlap } from './answer';
import { provenanceOf } from './question';
import type { ExactIndex, ExactRow } from './exact-index';
import type { FuzzyIndex } from './fuzzy-index';
import { differenceGuard } from './guard';
import { VERSION_SQL } from './index-sync';
import { normalizeTitle, titleHash, type OcsQuestionType } from './normalize';
import { setSimilarity, trigrams } from './trigram';

export interface Lookup {
  title: string;
  type: OcsQuestionType;
  options: string[];
  /** The caller's own option texts: answers are given in them (else in `options`). */
  ownOptions?: string[];
  /** optionKey() of each of `options`, when the caller has them. */
  optionKeys?: readonly string[];
}

export interface BankMatch {
  id: number;
  question: string;
  /** In the caller's own option lines (query/answer.ts). */
  answer: string[];
  via: 'exact' | 'fuzzy';
  similarity: number;
  /** import / verified / ai / corrected / upstream:<name> (query/confidence.ts). */
  provenance: string;
  /** 存疑: several users reported this answer and no administrator has reviewed it yet. */
  disputed: boolean;
  /** Set when the match came from memory: the row's version, which the charge checks. */
  version?: number;
}

type Row = {
  id: number;
  title: string;
  norm_title: string;
  type: OcsQuestionType;
  options: string[];
  answer: string[];
  /** Rows taken from memory: their version, which the charge checks. */
  version?: number;
  provenance?: string;
  disputed?: boolean;
};

type ReadRow = Row & { status: string; source: string; version: number; sim: number; exact: boolean };

/** A row read from the database, with its provenance as memory keeps it. */
const fromDb = (r: ReadRow): ReadRow => ({
  ...r,
  provenance: provenanceOf(r.source, r.status),
  disputed: !!r.disputed,
});

/** Rows of one normalized title read at most (different types and option sets of one title). */
const EXACT_LIMIT = 50;
/** Fuzzy candidates scored by the database at most. */
const FUZZY_LIMIT = 4;

function typeFits(rowType: OcsQuestionType, callerType: OcsQuestionType): boolean {
  return callerType === 'any' || rowType === 'any' || rowType === callerType;
}

/** The best usable row: its answer expressible in the caller's options, most shared options first. */
function pick(
  rows: Array<Row & { sim?: number }>,
  q: Lookup,
  skipDisputed = false,
): { row: Row; answer: string[]; sim: number } | null {
  let best: { row: Row; answer: string[]; sim: number; score: number } | null = null;
  for (const row of rows) {
    if (!typeFits(row.type, q.type) || (skipDisputed && row.disputed)) continue;
    const overlap = optionOverlap(row.options, q.options, q.optionKeys);
    if (row.options.length > 0 && q.options.length > 0 && overlap < 0.5) continue;
    const answer = formatAnswer(row, q.type, q.options, q.ownOptions, q.optionKeys);
    if (answer === null) continue;
    const sim = row.sim ?? 1;
    const score = sim + 0.3 * overlap + (row.type === q.type ? 0.01 : 0);
    if (!best || score > best.score) best = { row, answer, sim, score };
  }
  return best && { row: best.row, answer: best.answer, sim: best.sim };
}

/** A picked row as the caller gets it; `version` (a row read from memory) is what the charge checks. */
function toMatch(
  hit: { row: Row; answer: string[]; sim: number },
  via: 'exact' | 'fuzzy',
  version?: number,
): BankMatch {
  const { row } = hit;
  return {
    id: Number(row.id),
    question: row.title,
    answer: hit.answer,
    via,
    similarity: via === 'exact' ? 1 : hit.sim,
    provenance: row.provenance ?? 'import',
    disputed: !!row.disputed,
    ...(version !== undefined ? { version } : {}),
  };
}

/** The in-memory bank (BankIndexSync): exact matches without a database round trip. */
export interface BankMemory {
  readonly isReady: boolean;
  readonly version: number;
  readonly exact: ExactIndex;
  repairGroup(
    norm: string,
    rows: Array<Row & { status: string; source: string; version: number }>,
    version: number,
  ): void;
}

export interface FindOptions {
  /** Answer exact matches from memory when it can vouch for them (then the match carries `version`). */
  memory?: BankMemory | null;
  /** false: read the database even if memory knows the title, and repair memory from the read. */
  fromMemory?: boolean;
  /** Leave out answers marked 存疑 (the administrators' setting "do not answer disputed answers"). */
  skipDisputed?: boolean;
}

/**
 * The bank's answer for a question: exact (same normalized title) first, then fuzzy. With `memory`,
 * an exact match comes from memory when it knows the title; otherwise exact and fuzzy candidates are
 * read in one statement, and what was read about the title repairs memory.
 */
export async function findInBank(
  db: Kysely<DB>,
  index: FuzzyIndex,
  q: Lookup & { norm?: string },
  threshold: number,
  opts: FindOptions = {},
): Promise<BankMatch | null> {
  const norm = q.norm ?? normalizeTitle(q.title);
  if (!norm) return null;
  const memory = opts.memory?.isReady ? opts.memory : null;
  // Rows are taken from memory (and then carry their version) unless told to read the database.
  const rowsFromMemory = memory !== null && opts.fromMemory !== false;
  const known = memory ? memory.exact.lookup(norm, EXACT_LIMIT - 1) : null;
  if (known && known.length > 0 && rowsFromMemory) {
    const hit = pick(known, q, opts.skipDisputed);
    if (hit) return toMatch(hit, 'exact', hit.row.version);
  }

  // The guard runs on the in-memory titles first: most near misses never reach the database. The
  // shortlist is remembered until the bank changes: the next student of the class skips the search.
  const ids = index.shortlist(norm, differenceGuard, FUZZY_LIMIT);
  // The titles that passed, as memory held them before any await below.
  const passed = new Map(ids.map((id) => [id, index.title(id)]));
  const minSim = Math.fround(threshold);
  if (rowsFromMemory && known !== null && ids.length > 0) {
    // Memory vouches for this title's rows (none, or none the caller can use): the candidates it holds
    // are scored here, as pg_trgm would (trigram.ts), without a round trip. The charge checks that
    // each is still at the version read. Candidates memory lacks, or no usable one, go on below.
    const own = trigrams(norm);
    const scored: Array<ExactRow & { sim: number }> = [];
    for (const id of ids) {
      const m = memory!.exact.get(id);
      if (!m) continue;
      const sim = setSimilarity(own, trigrams(m.norm_title));
      if (sim >= minSim) scored.push({ ...m, sim });
    }
    const fuzzy = pick(scored, q, opts.skipDisputed);
    if (fuzzy) return toMatch(fuzzy, 'fuzzy', fuzzy.row.version);
  }

  // One statement: the rows of this exact title, and the candidates' similarity. With memory, the
  // candidates' rows come from memory when it holds them at the version the database has.
  const epoch = memory?.version ?? 0;
  const exactPart = sql`select id, title, norm_title, type, options, answer, status, source, disputed,
      ${VERSION_SQL} as version,
      1::real as sim, true as exact
    from ocs_questions where title_hash = ${titleHash(norm)} and status <> 'wrong' limit ${EXACT_LIMIT}`;
  const fuzzyPart = (full: boolean, list: readonly number[]) =>
    full
      ? sql`select id, title, norm_title, type, options, answer, status, source, disputed, ${VERSION_SQL} as version,
            similarity(norm_title, ${norm}) as sim, false as exact
          from ocs_questions where id in (${sql.join(list)}) and status <> 'wrong'`
      : sql`select id, null::text, norm_title, null::text, null::jsonb, null::jsonb, null::text, null::text,
            null::boolean, ${VERSION_SQL} as version, similarity(norm_title, ${norm}) as sim, false as exact
          from ocs_questions where id in (${sql.join(list)}) and status <> 'wrong'`;
  const read = await (
    ids.length === 0
      ? sql<ReadRow>`${exactPart}`
      : sql<ReadRow>`(${exactPart}) union all (${fuzzyPart(!rowsFromMemory, ids)})`
  ).execute(db);
  const exact = read.rows.filter((r) => r.exact).map(fromDb);
  if (memory && exact.length < EXACT_LIMIT && (exact.length > 0 || (known !== null && known.length > 0))) {
    memory.repairGroup(norm, exact, epoch);
  }
  const hit = pick(exact, q, opts.skipDisputed);
  // Read from the database just now: no version for the charge to check.
  if (hit) return toMatch(hit, 'exact');

  // Rows read from the database are as fresh as they can be: they carry no version to check.
  let scored: Array<Row & { sim: number; version?: number }> = [];
  const missing: number[] = [];
  for (const r of read.rows) {
    if (r.exact) continue;
    if (!rowsFromMemory) {
      scored.push({ ...fromDb(r), sim: Math.fround(Number(r.sim)), version: undefined });
      continue;
    }
    const m = memory!.exact.get(Number(r.id));
    if (m && m.version === Number(r.version) && m.norm_title === r.norm_title)
      scored.push({ ...m, sim: Math.fround(Number(r.sim)) });
    else missing.push(Number(r.id));
  }
  if (missing.length > 0) {
    // Rows memory does not hold as the database has them: read them whole (rare).
    const more = await sql<ReadRow>`${fuzzyPart(true, missing)}`.execute(db);
    scored = scored.concat(
      more.rows.map((r) => ({ ...fromDb(r), sim: Math.fround(Number(r.sim)), version: undefined })),
    );
  }
  // A row whose title is not the one that passed the guard in memory passes it again.
  let benign: ((title: string) => boolean) | null = null;
  const usable = scored.filter(
    (r) =>
      r.sim >= minSim &&
      (passed.get(Number(r.id)) === r.norm_title || (benign ??= differenceGuard(norm))(r.norm_title)),
  );
  const fuzzy = pick(usable, q, opts.skipDisputed);
  return fuzzy && toMatch(fuzzy, 'fuzzy', fuzzy.row.version);
}
