/**
 * Redeeming a code. One transaction per attempt, serialized per user by an advisory lock so the
 * wrong-code limit (5 a minute, counted in ocs_redeem_failures so every instance sees it) is exact.
 * Every refusal leaves nothing behind except the failure row of an unknown code; a success writes the
 * redemption (its primary key stops a second use by the same user), one use of the code (a conditional
 * update, so the maximum holds under concurrency) and the credited ledger row together.
 */
import { sql, type Kysely } from 'kysely';
import type { RedeemResult } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { lockFor } from '../../../db/locks';
import { badRequest, conflict, tooMany } from '../../../errors';
import { canonicalCode, isWellFormed } from '@contract';
import { hashCode } from './redeem-code';
import { credit } from './balance';

export const REDEEM_FAILURE_LIMIT = 5;

export const REDEEM_MESSAGES = {
  unknown: '兑换码无效，请检查后重试',
  malformed: '兑换码格式不正确（应为 20 位字母和数字）',
  disabled: '该兑换码所属批次已停用',
  expired: '该兑换码已过期',
  usedUp: '该兑换码已被用完',
  already: '你已经兑换过这个兑换码了',
} as const;

const wrongCode = (message: string) => badRequest(message, { code: [message] });

type Outcome = { failed: string } | { result: RedeemResult };

export async function redeemCode(db: Kysely<DB>, userId: number, input: string): Promise<RedeemResult> {
  const canonical = canonicalCode(input);
  const outcome = await db.transaction().execute(async (trx): Promise<Outcome> => {
    await lockFor(trx, 'ocs-redeem', userId);
    const f = await sql<{ n: number; retry: number | null }>`
      select count(*)::int as n, ceil(extract(epoch from min(at) + interval '1 minute' - now()))::int as retry
      from ocs_redeem_failures where user_id = ${userId} and at > now() - interval '1 minute'`.execute(trx);
    const { n, retry } = f.rows[0]!;
    if (n >= REDEEM_FAILURE_LIMIT) {
      const seconds = Math.max(1, retry ?? 60);
      throw tooMany(`兑换码输错次数过多，请 ${seconds} 秒后再试`, seconds);
    }

    const code = isWellFormed(canonical)
      ? await trx
          .selectFrom('ocs_redeem_codes as c')
          .innerJoin('ocs_redeem_batches as b', 'b.id', 'c.batch_id')
          .select([
            'c.id',
            'b.id as batch_id',
            'b.value',
            'b.note',
            'b.disabled',
            sql<boolean>`b.expires_at is not null and b.expires_at <= now()`.as('expired'),
            sql<boolean>`exists (select 1 from ocs_redemptions r where r.code_id = c.id and r.user_id = ${userId})`.as(
              'already',
            ),
          ])
          .where('c.code_hash', '=', hashCode(canonical))
          .executeTakeFirst()
      : undefined;
    if (!code) {
      await trx.insertInto('ocs_redeem_failures').values({ user_id: userId }).execute();
      // Old rows count for nothing; keep the table from growing with them.
      await sql`delete from ocs_redeem_failures where user_id = ${userId} and at < now() - interval '1 hour'`.execute(
        trx,
      );
      return { failed: isWellFormed(canonical) ? REDEEM_MESSAGES.unknown : REDEEM_MESSAGES.malformed };
    }
    if (code.disabled) throw conflict(REDEEM_MESSAGES.disabled);
    if (code.expired) throw conflict(REDEEM_MESSAGES.expired);
    if (code.already) throw conflict(REDEEM_MESSAGES.already);

    const redeemed = await trx
      .insertInto('ocs_redemptions')
      .values({ code_id: code.id, user_id: userId })
      .onConflict((oc) => oc.columns(['code_id', 'user_id']).doNothing())
      .returning('code_id')
      .executeTakeFirst();
    if (!redeemed) throw conflict(REDEEM_MESSAGES.already);
    const used = await sql<{ uses: number }>`
      update ocs_redeem_codes c set uses = c.uses + 1
      from ocs_redeem_batches b
      where c.id = ${code.id} and b.id = c.batch_id and c.uses < b.max_uses
        and not b.disabled and (b.expires_at is null or b.expires_at > now())
      returning c.uses`.execute(trx);
    if (!used.rows.length) throw conflict(REDEEM_MESSAGES.usedUp); // rolls the redemption back

    const value = Number(code.value);
    const memo = code.note ? `兑换码：${code.note}` : `兑换码（批次 #${code.batch_id}）`;
    const { balance } = await credit(trx, userId, 'redeem', value, memo);
    return { result: { amount: value, balance, note: code.note } };
  });
  // Thrown after the commit: the failure row must stay.
  if ('failed' in outcome) throw wrongCode(outcome.failed);
  return outcome.result;
}
