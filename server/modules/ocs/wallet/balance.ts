/**
 * The points wallet's balance: reading it (getBalance) and changing it with the ledger row that explains
 * it (credit: free claims, redeem codes, admin adjustments). A balance changes only in the same
 * statement or transaction as its ledger row, through a conditional update, so it never goes below zero
 * whatever runs at the same time; the ledger is append-only (a trigger refuses updates), and for every
 * user it sums to the balance. Charges for answers are in charge.ts.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB, OcsLedgerKind } from '../../../db/schema';
import { conflict } from '../../../errors';

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
