/**
 * OCS administration of users: each user's wallet and usage (a page of users with balance, today's
 * and all queries, AI spend and last query), and balance adjustments, whose ledger row and audit row
 * commit in one transaction.
 */
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import type { OcsAdminUser, OcsAdminUserListQuery } from '../../../../src/contract';
import { paginate } from '../../../db/paging';
import type { DB } from '../../../db/schema';
import { conflict, notFound } from '../../../errors';
import { escapeLike } from '../../../lib/sql';
import { recordAudit, type Actor } from '../../audit';
import { credit, getBalance } from '../wallet/balance';

export async function listOcsUsers(
  db: Kysely<DB>,
  q: z.output<typeof OcsAdminUserListQuery>,
  tz: string,
): Promise<{ rows: OcsAdminUser[]; total: number }> {
  let base = db.selectFrom('users as u').where('u.status', '<>', 'deleted');
  if (q.keyword) {
    const like = `%${escapeLike(q.keyword)}%`;
    base = base.where((eb) => eb.or([eb('u.username', 'ilike', like), eb('u.nickname', 'ilike', like)]));
  }
  const dir = q.order === 'ascend' ? sql`asc` : sql`desc`;
  const order = {
    createdAt: sql`u.created_at ${dir}, u.id ${dir}`,
    balance: sql`coalesce(w.balance, 0) ${dir}, u.id ${dir}`,
    lastQueryAt: sql`s.last_at ${dir} nulls last, u.id ${dir}`,
  }[q.sortBy];
  const startOfDay = sql<Date>`date_trunc('day', now() at time zone ${tz}) at time zone ${tz}`;
  const { rows, total } = await paginate(base, q, (b) =>
    b
      .leftJoin('ocs_wallets as w', 'w.user_id', 'u.id')
      // Per user through the (user_id, created_at) index: cost grows with the page, not the log.
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('ocs_queries as oq')
            .whereRef('oq.user_id', '=', 'u.id')
            .select([
              sql<number>`count(*)`.as('total'),
              sql<number>`count(*) filter (where oq.created_at >= ${startOfDay})`.as('today'),
              sql<number>`coalesce(sum(oq.cost) filter (where oq.outcome = 'ai'), 0)`.as('ai_spend'),
              sql<Date | null>`max(oq.created_at)`.as('last_at'),
            ])
            .as('s'),
        (join) => join.onTrue(),
      )
      .select(['u.id', 'u.username', 'u.nickname', 'w.balance', 's.total', 's.today', 's.ai_spend', 's.last_at'])
      .orderBy(order),
  );
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      username: r.username,
      nickname: r.nickname,
      balance: Number(r.balance ?? 0),
      queriesToday: Number(r.today ?? 0),
      queriesTotal: Number(r.total ?? 0),
      aiSpend: Number(r.ai_spend ?? 0),
      lastQueryAt: r.last_at ? new Date(r.last_at).toISOString() : null,
    })),
  };
}

/** Adds or removes points with the reason on the ledger row; the audit row commits with it or not at all. */
export async function adjustBalance(
  db: Kysely<DB>,
  actor: Actor,
  userId: number,
  amount: number,
  reason: string,
): Promise<{ balance: number; ledgerId: number }> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'username'])
      .where('id', '=', userId)
      .where('status', '<>', 'deleted')
      .executeTakeFirst();
    if (!user) throw notFound('用户不存在');
    const before = await getBalance(trx, userId);
    // credit() guards wallets that exist; a user without one has 0 and must not get a negative row.
    if (before + amount < 0) throw conflict(`余额不足，无法扣减（当前余额 ${before}）`);
    const result = await credit(trx, userId, 'adjust', amount, reason, actor.id);
    await recordAudit(trx, actor, {
      action: 'ocs.balance.adjust',
      targetType: 'user',
      targetId: userId,
      targetName: user.username,
      before: { balance: before },
      after: { balance: result.balance, amount, reason, ledgerId: result.ledgerId },
    });
    return result;
  });
}
