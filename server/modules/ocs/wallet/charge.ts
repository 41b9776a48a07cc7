/**
 * Charging for an answer: chargeForAnswer records the answered query and debits the wallet in one call.
 * The charge rule itself (10-minute free cache, debit only if the balance holds the price, query row and
 * ledger row together) is the PL/pgSQL function ocs_charge() in server/db/migrations/0006_ocs.ts.
 * ChargeBatcher groups concurrent charges into one commit on the embedded database.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
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
  // The charge rule is ocs_charge(), a PL/pgSQL function in server/db/migrations/0006_ocs.ts.
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
