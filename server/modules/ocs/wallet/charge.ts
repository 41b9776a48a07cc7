/**
 * Charging for an answer: chargeForAnswer records the answered query and debits the wallet in one call.
 * The charge rule itself (10-minute free cache, debit only if the balance holds the price, query row and
 * ledger row together) is the PL/pgSQL function ocs_charge(), whose latest definition is in
 * server/db/migrations/0012_ocs_provenance.ts; ocs_charge_many() (latest: 0015_ocs_charge_set.ts, its
 * free-repeat look-up from 0016) applies the same rule to several charges in one statement, set-wise,
 * with a batch's stop rule; 0018 rewrites the free repeat's time bound in both; 0021 lets an
 * answer read from memory at the bank's generation of now skip ocs_charge_many's question check.
 * ChargeBatcher groups concurrent charges into that one statement, and so one commit.
 */
import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../../db/schema';

type Db = Kysely<DB> | Transaction<DB>;

export interface ChargeInput {
  userId: number;
  tokenId: number | null;
  price: number;
  /** The query key (normalized title, type and options): the 10-minute cache looks for it. */
  key: string;
  title: string;
  type: string;
  outcome: 'bank' | 'ai';
  questionId: number | null;
  modelId: number | null;
  answer: string;
  /**
   * The question's version (updated_at in microseconds) when the answer was read from memory: the
   * charge then happens only if the question is still as read (ChargeResult 'stale' otherwise).
   */
  version?: number;
  /**
   * The bank's generation (migration 0021) at which the question was known to be at `version`: when it
   * is the generation now, the charge skips looking at the question's row.
   */
  generation?: number;
  /** The answer's provenance and confidence, kept on the query row (the user's history, reports). */
  source?: string | null;
  confidence?: number | null;
  /**
   * A batch's id (POST /api/ocs/query/batch): once one charge of the batch found the balance short,
   * its later charges that would cost anything are refused too (余额不足), in this statement.
   */
  group?: number;
  /** Refuse this charge as 余额不足 unless it is free (a batch that already ran out). */
  refuse?: boolean;
}

export type ChargeResult =
  | { status: 'charged'; cost: number; balance: number; queryId: number }
  | { status: 'cached'; cost: 0; balance: number; queryId: number }
  | { status: 'no_balance'; balance: number; queryId: number }
  /** Only with `version`: the question changed since it was read into memory; nothing was written. */
  | { status: 'stale' };

type Outcome = {
  r_outcome: string;
  r_balance: number;
  /** None for a stale charge (nothing written). */
  r_query_id: number | null;
  r_cost: number;
  /** ocs_charge_many (0021): the bank's generation the statement saw. */
  r_generation?: number | string;
};

function toResult(row: Outcome): ChargeResult {
  if (row.r_outcome === 'stale') return { status: 'stale' };
  const balance = Number(row.r_balance);
  const queryId = Number(row.r_query_id);
  if (row.r_outcome === 'cache') return { status: 'cached', cost: 0, balance, queryId };
  if (row.r_outcome === 'no_balance') return { status: 'no_balance', balance, queryId };
  return { status: 'charged', cost: Number(row.r_cost), balance, queryId };
}

/**
 * Records an answered query and charges for it in one call of the `ocs_charge` database function
 * (migration 0006): atomic on both databases, one round trip, and a plan the session keeps. With a
 * question version (an answer read from memory), through ocs_charge_many, which first checks that the
 * question is still as read.
 */
export async function chargeForAnswer(db: Db, c: ChargeInput): Promise<ChargeResult> {
  if (c.version !== undefined) return (await chargeMany(db, [c]))[0]!;
  // The charge rule is ocs_charge(), a PL/pgSQL function (latest: server/db/migrations/0012_ocs_provenance.ts).
  const r = await sql<Outcome>`
    select * from ocs_charge(${c.userId}::int, ${c.tokenId}::int, ${c.price}::int, ${c.key}::text, ${c.title}::text,
      ${c.type}::text, ${c.outcome}::text, ${c.questionId}::bigint, ${c.modelId}::int, ${c.answer}::text,
      ${c.source ?? null}::text, ${c.confidence ?? null}::real, ${c.refuse ?? false}::boolean)`.execute(db);
  return toResult(r.rows[0]!);
}

/** ocs_charge_many's parameters, in order (migration 0015; p_generation from 0021). */
export const CHARGE_MANY_TYPES = [
  'int[]', // p_user
  'int[]', // p_token
  'int[]', // p_price
  'text[]', // p_key
  'text[]', // p_title
  'text[]', // p_type
  'text[]', // p_outcome
  'bigint[]', // p_question
  'int[]', // p_model
  'text[]', // p_answer
  'bigint[]', // p_version
  'text[]', // p_source
  'real[]', // p_confidence
  'int[]', // p_group
  'boolean[]', // p_refuse
  'bigint[]', // p_generation
] as const;

/**
 * ocs_charge_many's arguments for these charges, in this order: one array per parameter, built in one
 * pass. A column whose every value is the function's own default (no model, no version, no source, no
 * confidence, group 0, not refused) is passed as NULL, which the function reads as that default for
 * each charge (an element of a NULL array is NULL, and unnest pads it with NULLs): each array parameter
 * costs the embedded database ~20-40 µs to read, and an exact hit's batch has three such columns.
 * `generationOf` labels a charge with the bank's generation at which its question was known to be at its
 * version (migration 0021); p_generation is left out when no charge has one, as the bench's
 * fifteen-parameter functions need.
 */
export function chargeManyArgs(
  list: readonly ChargeInput[],
  generationOf: (c: ChargeInput) => number | undefined = (c) => c.generation,
): unknown[] {
  const n = list.length;
  const user = new Array<number>(n);
  const token = new Array<number | null>(n);
  const price = new Array<number>(n);
  const key = new Array<string>(n);
  const title = new Array<string>(n);
  const type = new Array<string>(n);
  const outcome = new Array<string>(n);
  const question = new Array<number | null>(n);
  const model = new Array<number | null>(n);
  const answer = new Array<string>(n);
  const version = new Array<number | null>(n);
  const source = new Array<string | null>(n);
  const confidence = new Array<number | null>(n);
  const group = new Array<number>(n);
  const refuse = new Array<boolean>(n);
  const generation = new Array<number | null>(n);
  let models = false;
  let versions = false;
  let sources = false;
  let confidences = false;
  let groups = false;
  let refusals = false;
  let generations = false;
  for (let i = 0; i < n; i++) {
    const c = list[i]!;
    user[i] = c.userId;
    token[i] = c.tokenId;
    price[i] = c.price;
    key[i] = c.key;
    title[i] = c.title;
    type[i] = c.type;
    outcome[i] = c.outcome;
    question[i] = c.questionId;
    answer[i] = c.answer;
    model[i] = c.modelId;
    version[i] = c.version ?? null;
    source[i] = c.source ?? null;
    confidence[i] = c.confidence ?? null;
    group[i] = c.group ?? 0;
    refuse[i] = c.refuse ?? false;
    generation[i] = generationOf(c) ?? null;
    if (c.modelId !== null) models = true;
    if (c.version !== undefined) versions = true;
    if (source[i] !== null) sources = true;
    if (confidence[i] !== null) confidences = true;
    if (group[i] !== 0) groups = true;
    if (refuse[i]) refusals = true;
    if (generation[i] !== null) generations = true;
  }
  const args: unknown[] = [
    user,
    token,
    price,
    key,
    title,
    type,
    outcome,
    question,
    models ? model : null,
    answer,
    versions ? version : null,
    sources ? source : null,
    confidences ? confidence : null,
    groups ? group : null,
    refusals ? refuse : null,
  ];
  if (generations) args.push(generation);
  return args;
}

/**
 * The call of ocs_charge_many (or, for the bench, a function of 0015's fifteen parameters named `fn`)
 * on these charges, in this order.
 */
export function chargeManyCall(list: ChargeInput[], fn = 'ocs_charge_many') {
  const args = chargeManyArgs(list).map((v, i) => sql`${v}::${sql.raw(CHARGE_MANY_TYPES[i]!)}`);
  return sql<Outcome & { r_index: number }>`select * from ${sql.raw(fn)}(${sql.join(args)})`;
}

/**
 * Charges several answers in one statement (ocs_charge_many, migration 0015: ocs_charge()'s rule for each,
 * in order, so a later charge sees an earlier one's debit), committed together. Results in input order.
 */
export async function chargeMany(db: Db, list: ChargeInput[]): Promise<ChargeResult[]> {
  return (await chargeManyAt(db, list)).results;
}

/** The text of the packed call (chargeManyPacked) with `count` arguments: the same for every batch. */
function packedText(count: number): string {
  const params = CHARGE_MANY_TYPES.slice(0, count).map((type, i) => `$${i + 1}::${type}`);
  return (
    `select string_agg(concat(c.r_index, ',', c.r_outcome, ',', c.r_balance, ',', c.r_query_id, ',', c.r_cost), ';')` +
    ` as outcomes, max(c.r_generation) as generation from ocs_charge_many(${params.join(', ')}) c`
  );
}
const PACKED_TEXT = [packedText(15), packedText(16)] as const;

type Packed = { outcomes: string | null; generation: number | string | null };

/**
 * ocs_charge_many's answer as ONE text value instead of a row per charge: `index,outcome,balance,query
 * id,cost` for each charge (`;` between them, in no particular order, a stale charge's query id
 * empty), and the bank's generation beside it. Each row's values are written out by the database,
 * parsed one by one and passed from the embedded database's thread to the server's: a batch of 20
 * charges took 6-7% less CPU packed (~150 µs of ~2.4 ms, measured in turns), batches of 1-5 about
 * the same. The outcomes are words of [a-z_] and the rest integers, so no separator occurs in a field.
 * A compiled query of a fixed text: the server sends one per batch, and building it through the query
 * builder cost more than the rest of the call's preparation.
 */
export function chargeManyPacked(
  list: readonly ChargeInput[],
  generationOf?: (c: ChargeInput) => number | undefined,
): CompiledQuery<Packed> {
  const args = chargeManyArgs(list, generationOf);
  return CompiledQuery.raw(PACKED_TEXT[args.length - 15]!, args) as CompiledQuery<Packed>;
}

/**
 * A charge statement ran (and may have committed) but its answer cannot be read. The batcher must not
 * charge the batch again one by one, as it does when the statement itself failed.
 */
export class UnreadableChargeResult extends Error {}

const PACKED_OUTCOME = /^(\d+),([a-z_]+),(-?\d+),(\d*),(-?\d+)$/;

/** chargeManyPacked's text as ocs_charge_many's rows; throws UnreadableChargeResult unless it has exactly charges 1..n. */
export function unpackOutcomes(text: string | null, n: number): Array<Outcome & { r_index: number }> {
  const parts = text === null || text === '' ? [] : text.split(';');
  if (parts.length !== n) throw new UnreadableChargeResult(`ocs_charge_many answered ${parts.length} of ${n} charges`);
  const rows: Array<Outcome & { r_index: number }> = new Array(n);
  for (const part of parts) {
    const m = PACKED_OUTCOME.exec(part);
    const index = m ? Number(m[1]) : 0;
    if (!m || index < 1 || index > n || rows[index - 1]) {
      throw new UnreadableChargeResult(`ocs_charge_many answered an unreadable outcome: ${part.slice(0, 80)}`);
    }
    rows[index - 1] = {
      r_index: index,
      r_outcome: m[2]!,
      r_balance: Number(m[3]),
      r_query_id: m[4] === '' ? null : Number(m[4]),
      r_cost: Number(m[5]),
    };
  }
  return rows;
}

/**
 * chargeMany, with the bank's generation the statement saw (for relabelling what memory holds);
 * `generationOf` as in chargeManyArgs.
 */
export async function chargeManyAt(
  db: Db,
  list: ChargeInput[],
  generationOf?: (c: ChargeInput) => number | undefined,
): Promise<{ results: ChargeResult[]; generation: number | null }> {
  // Wallets are locked in user order, so two batches (two instances on PostgreSQL) cannot deadlock;
  // the sort is stable, so one user's charges keep their order.
  const order = list.map((_, i) => i).sort((a, b) => list[a]!.userId - list[b]!.userId || a - b);
  const r = await db.executeQuery(
    chargeManyPacked(
      order.map((i) => list[i]!),
      generationOf,
    ),
  );
  const packed = r.rows[0];
  const out: ChargeResult[] = new Array(list.length);
  for (const row of unpackOutcomes(packed?.outcomes ?? null, list.length)) out[order[row.r_index - 1]!] = toResult(row);
  const g = packed?.generation;
  return { results: out, generation: g === undefined || g === null ? null : Number(g) };
}

/**
 * What memory knows of its rows' generations: the generation at which a question was known to be at a
 * version (undefined when not known), and the charge's word that it still was at a later one.
 */
export interface GenerationLabels {
  generationOf(questionId: number, version: number): number | undefined;
  confirm(questionId: number, version: number, generation: number): void;
}

/**
 * chargeMany for answers that may come from memory: a charge of a question `labels` holds at the
 * charge's version carries the generation memory knows it at (so the statement need not read the
 * question), and the questions the statement found unchanged are confirmed at the generation it saw.
 * Without `labels`, chargeMany.
 */
export async function chargeManyLabelled(
  db: Db,
  list: ChargeInput[],
  labels: GenerationLabels | undefined,
): Promise<ChargeResult[]> {
  if (!labels) return chargeMany(db, list);
  const known = (c: ChargeInput) => c.version !== undefined && c.questionId !== null;
  const { results, generation } = await chargeManyAt(db, list, (c) =>
    c.generation !== undefined || !known(c) ? c.generation : labels.generationOf(c.questionId!, c.version!),
  );
  if (generation !== null) {
    list.forEach((c, i) => {
      if (known(c) && results[i]!.status !== 'stale') labels.confirm(c.questionId!, c.version!, generation);
    });
  }
  return results;
}

/**
 * Group commit: charges that arrive while one batch is being written are written together in ONE
 * statement (chargeMany), so they share one commit (one flush to disk) and one round trip. On the
 * embedded database other queries are not held back meanwhile, as a transaction would hold them (PGlite
 * runs one statement at a time anyway). On PostgreSQL it also spares the pool a connection and a
 * commit per charge (measured: exact hits 0.62 of the raw lookup batched, 0.34 charge by charge).
 */
export class ChargeBatcher {
  private queue: Array<{
    c: ChargeInput;
    resolve: (r: ChargeResult) => void;
    reject: (e: unknown) => void;
  }> = [];
  private running = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly maxBatch = 200,
    /** The in-memory bank: charges of its answers carry their generation, and confirm it back. */
    private readonly labels?: GenerationLabels,
  ) {}

  charge(c: ChargeInput): Promise<ChargeResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ c, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.maxBatch);
        let results: ChargeResult[];
        try {
          results =
            batch.length === 1 && batch[0]!.c.version === undefined
              ? [await chargeForAnswer(this.db, batch[0]!.c)]
              : await chargeManyLabelled(
                  this.db,
                  batch.map((b) => b.c),
                  this.labels,
                );
        } catch (err) {
          // The statement ran but its answer is unreadable: charging again could charge twice.
          if (err instanceof UnreadableChargeResult) {
            for (const b of batch) b.reject(err);
            continue;
          }
          // One failing charge fails the whole statement (nothing of it is written): charge each
          // alone, so only it fails.
          for (const b of batch) await chargeForAnswer(this.db, b.c).then(b.resolve, b.reject);
          continue;
        }
        batch.forEach((b, i) => b.resolve(results[i]!));
      }
    } finally {
      this.running = false;
    }
  }
}
