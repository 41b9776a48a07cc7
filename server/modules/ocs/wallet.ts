/**
 * The points wallet. A balance changes only in the same statement or transaction as the ledger row
 * that explains it, through a conditional update, so it never goes below zero whatever runs at the same
 * time; the ledger is append-only (a trigger refuses updates), and for every user it sums to the balance.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, OcsLedgerKind } from '../../db/schema';
import { conflict } from '../../errors';

type Db = Kysely<DB> | Transaction<DB>;

export async function getBalance(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('ocs_wallets').select('balance').where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.balance ?? 0);
}

/**
 * Adds (or, for an admin adjustment, removes) points with a ledger row, in one statement. Refuses a
 * change that would take the balance below zero. Returns the balance after.
 */
export async function credit(
  db: Db,
  userId: number,
  kind: Exclude<OcsLedgerKind, 'charge'>,
  amount: number,
  memo: string,
  actorId: number | null = null,
): Promise<{ balance: number; ledgerId: number }> {
  if (!Number.isSafeInteger(amount) || amount === 0) throw new Error('amount must be a non-zero integer');
  // Taking points away never creates a wallet: no wallet means a balance of 0, which cannot go lower.
  const upsert =
    amount > 0
      ? sql`insert into ocs_wallets (user_id, balance) values (${userId}, ${amount})
          on conflict (user_id) do update set balance = ocs_wallets.balance + ${amount}, updated_at = now()
          returning balance`
      : sql`update ocs_wallets set balance = balance + ${amount}, updated_at = now()
          where user_id = ${userId} and balance + ${amount} >= 0
          returning balance`;
  const r = await sql<{ balance: number; ledger_id: number }>`
    with w as (${upsert}), l as (
      insert into ocs_ledger (user_id, kind, amount, balance_after, memo, actor_id)
      select ${userId}, ${kind}, ${amount}, w.balance, ${memo.slice(0, 500)}, ${actorId} from w
      returning id
    )
    select (select balance from w) as balance, (select id from l) as ledger_id`.execute(db);
  const row = r.rows[0];
  if (!row || row.balance == null || (amount < 0 && row.ledger_id == null)) throw conflict('余额不足，无法扣减');
  return { balance: Number(row.balance), ledgerId: Number(row.ledger_id) };
}

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
}

export type ChargeResult =
  | { status: 'charged'; cost: number; balance: number; queryId: number }
  | { status: 'cached'; cost: 0; balance: number; queryId: number }
  | { status: 'no_balance'; balance: number; queryId: number };

/**
 * Records an answered query and charges for it in one call of the `ocs_charge` database function
 * (migration 0006): atomic on both databases, one round trip, and a plan the session keeps.
 */
export async function chargeForAnswer(db: Db, c: ChargeInput): Promise<ChargeResult> {
  const r = await sql<{ r_outcome: string; r_balance: number; r_query_id: number; r_cost: number }>`
    select * from ocs_charge(${c.userId}::int, ${c.tokenId}::int, ${c.price}::int, ${c.key}::text, ${c.title}::text,
      ${c.type}::text, ${c.outcome}::text, ${c.questionId}::bigint, ${c.modelId}::int, ${c.answer}::text)`.execute(db);
  const row = r.rows[0]!;
  const balance = Number(row.r_balance);
  const queryId = Number(row.r_query_id);
  if (row.r_outcome === 'cache') return { status: 'cached', cost: 0, balance, queryId };
  if (row.r_outcome === 'no_balance') return { status: 'no_balance', balance, queryId };
  return { status: 'charged', cost: Number(row.r_cost), balance, queryId };
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

/** The cached answer of the same question within 10 minutes, if any (checked before paying an AI). */
export async function recentAnswer(
  db: Db,
  userId: number,
  key: string,
): Promise<{ answer: string; question_id: number | null } | null> {
  const row = await db
    .selectFrom('ocs_queries')
    .select(['answer', 'question_id'])
    .where('user_id', '=', userId)
    .where('title_hash', '=', key)
    .where('outcome', 'in', ['bank', 'ai', 'cache'])
    .where('created_at', '>', sql<Date>`now() - interval '10 minutes'`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row && row.answer != null
    ? { answer: row.answer, question_id: row.question_id == null ? null : Number(row.question_id) }
    : null;
}

/**
 * Group commit for the embedded database: charges that arrive while one batch is being written are
 * written together, each still its own conditional statement, in one transaction, so they share one
 * commit (the flush to disk is a third of a charge's cost on PGlite, which runs one statement at a time
 * anyway). On PostgreSQL statements run in parallel, so charges go straight through there.
 */
export class ChargeBatcher {
  private queue: Array<{ c: ChargeInput; resolve: (r: ChargeResult) => void; reject: (e: unknown) => void }> = [];
  private running = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly maxBatch = 100,
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
        try {
          const results = await this.db.transaction().execute(async (trx) => {
            const out: ChargeResult[] = [];
            for (const item of batch) out.push(await chargeForAnswer(trx, item.c));
            return out;
          });
          batch.forEach((b, i) => b.resolve(results[i]!));
        } catch {
          // One failing statement aborts the whole batch: retry each alone, so only it fails.
          for (const b of batch) await chargeForAnswer(this.db, b.c).then(b.resolve, b.reject);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
