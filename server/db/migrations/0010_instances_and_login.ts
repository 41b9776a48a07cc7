/**
 * Running as N instances, and login throttling that cannot be turned against a user.
 *
 * - login_failures gains the device (the hash of the browser's device cookie, when it sent one) and
 *   indexes for the two new counts: per IP across usernames, per account across IPs.
 * - login_devices: browsers that signed in to an account before (hash of the device cookie). The right
 *   password from such a browser is never held back by failures made elsewhere.
 * - rate_limits: the table of rate-limiter-flexible's PostgreSQL store (its own layout), so per-token
 *   limits hold across instances on one PostgreSQL.
 * - ocs_charge() takes a per-user advisory lock first: two instances answering the same user's same
 *   question at the same instant are serialized, and the second sees the first's query row (the
 *   10-minute free repeat) instead of charging again. Batches lock users in ascending order
 *   (wallet/charge.ts), as they lock wallets, so two batches cannot deadlock.
 */
import { sql, type Kysely } from 'kysely';

/** ocs_charge() of migration 0006 with its body unchanged but for the lock. */
function chargeFunction(lock: boolean) {
  return sql`
    create or replace function ocs_charge(p_user int, p_token int, p_price int, p_key text, p_title text,
                                          p_type text, p_outcome text, p_question bigint, p_model int,
                                          p_answer text)
    returns table (r_outcome text, r_balance bigint, r_query_id bigint, r_cost int)
    language plpgsql as $$
    declare
      v_balance bigint;
      v_outcome text;
      v_cost int := 0;
      v_qid bigint;
    begin
      ${lock ? sql.raw(`perform pg_advisory_xact_lock(hashtext('ocs_charge'), p_user);`) : sql.raw('')}
      if exists (select 1 from ocs_queries q where q.user_id = p_user and q.title_hash = p_key
                 and q.outcome in ('bank', 'ai', 'cache') and q.created_at > now() - interval '10 minutes') then
        v_outcome := 'cache';
      elsif p_price = 0 then
        v_outcome := p_outcome;
      else
        update ocs_wallets w set balance = w.balance - p_price, updated_at = now()
          where w.user_id = p_user and w.balance >= p_price
          returning w.balance into v_balance;
        if found then
          v_outcome := p_outcome;
          v_cost := p_price;
        else
          v_outcome := 'no_balance';
        end if;
      end if;
      insert into ocs_queries (user_id, token_id, title, title_hash, type, outcome, question_id, answer, cost, model_id)
        values (p_user, p_token, left(p_title, 2000), p_key, p_type, v_outcome, p_question,
                case when v_outcome = 'no_balance' then null else p_answer end, v_cost, p_model)
        returning id into v_qid;
      if v_cost > 0 then
        insert into ocs_ledger (user_id, kind, amount, balance_after, memo, query_id)
          values (p_user, 'charge', -v_cost, v_balance, left(p_title, 200), v_qid);
      else
        select w.balance into v_balance from ocs_wallets w where w.user_id = p_user;
      end if;
      return query select v_outcome, coalesce(v_balance, 0::bigint), v_qid, v_cost;
    end $$`;
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('login_failures').addColumn('device', 'text').execute();
  await db.schema.createIndex('login_failures_ip_idx').on('login_failures').columns(['ip', 'at']).execute();
  await db.schema.createIndex('login_failures_user_idx').on('login_failures').columns(['username', 'at']).execute();

  await db.schema
    .createTable('login_devices')
    .addColumn('id_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('login_devices_pkey', ['id_hash', 'user_id'])
    .execute();
  await db.schema.createIndex('login_devices_user_idx').on('login_devices').column('user_id').execute();

  await sql`create table rate_limits (key varchar(255) primary key, points integer not null default 0, expire bigint)`.execute(
    db,
  );

  await chargeFunction(true).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await chargeFunction(false).execute(db);
  await db.schema.dropTable('rate_limits').execute();
  await db.schema.dropTable('login_devices').execute();
  await db.schema.dropIndex('login_failures_user_idx').execute();
  await db.schema.dropIndex('login_failures_ip_idx').execute();
  await db.schema.alterTable('login_failures').dropColumn('device').execute();
}
