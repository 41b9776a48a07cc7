/**
 * OCS answers that say where they come from and how sure they are:
 *
 * - ocs_questions.source may also be `corrected` (an answer an administrator corrected after users
 *   reported it) and `upstream:<name>` (an answer taken from an upstream bank); `disputed` marks an
 *   answer several independent users reported (存疑) until an administrator reviews it.
 * - ocs_queries keeps the provenance (`source`) and the confidence of each answer it records.
 * - ocs_preferences.min_confidence: below it a user is answered "not found", free.
 * - ocs_charge() and ocs_charge_many() take the provenance and confidence to record, and a batch's
 *   stop rule: once one charge of a batch (a `group`) found the balance short, the later charges of that
 *   batch that would cost anything are refused too (余额不足) instead of taking what is left for a
 *   cheaper answer further down the page. `refuse` forces that for one charge. The rules are otherwise
 *   those of migrations 0006, 0008 and 0010 (10-minute free repeat, conditional debit, per-user lock).
 */
import { sql, type Kysely } from 'kysely';

const chargeV13 = sql`
  create function ocs_charge(p_user int, p_token int, p_price int, p_key text, p_title text, p_type text,
                             p_outcome text, p_question bigint, p_model int, p_answer text,
                             p_source text, p_confidence real, p_refuse boolean)
  returns table (r_outcome text, r_balance bigint, r_query_id bigint, r_cost int)
  language plpgsql as $$
  declare
    v_balance bigint;
    v_outcome text;
    v_cost int := 0;
    v_qid bigint;
  begin
    perform pg_advisory_xact_lock(hashtext('ocs_charge'), p_user);
    if exists (select 1 from ocs_queries q where q.user_id = p_user and q.title_hash = p_key
               and q.outcome in ('bank', 'ai', 'cache') and q.created_at > now() - interval '10 minutes') then
      v_outcome := 'cache';
    elsif p_price = 0 then
      v_outcome := p_outcome;
    elsif coalesce(p_refuse, false) then
      v_outcome := 'no_balance';
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
    insert into ocs_queries (user_id, token_id, title, title_hash, type, outcome, question_id, answer, cost, model_id,
                             source, confidence)
      values (p_user, p_token, left(p_title, 2000), p_key, p_type, v_outcome, p_question,
              case when v_outcome = 'no_balance' then null else p_answer end, v_cost, p_model,
              left(p_source, 80), p_confidence)
      returning id into v_qid;
    if v_cost > 0 then
      insert into ocs_ledger (user_id, kind, amount, balance_after, memo, query_id)
        values (p_user, 'charge', -v_cost, v_balance, left(p_title, 200), v_qid);
    else
      select w.balance into v_balance from ocs_wallets w where w.user_id = p_user;
    end if;
    return query select v_outcome, coalesce(v_balance, 0::bigint), v_qid, v_cost;
  end $$`;

export const chargeManyV15 = sql`
  create function ocs_charge_many(p_user int[], p_token int[], p_price int[], p_key text[], p_title text[],
                                  p_type text[], p_outcome text[], p_question bigint[], p_model int[],
                                  p_answer text[], p_version bigint[], p_source text[], p_confidence real[],
                                  p_group int[], p_refuse boolean[])
  returns table (r_index int, r_outcome text, r_balance bigint, r_query_id bigint, r_cost int)
  language plpgsql as $$
  declare
    i int;
    v_stopped int[] := '{}';
    v_outcome text;
  begin
    for i in 1 .. coalesce(array_length(p_user, 1), 0) loop
      if p_version[i] is not null and not exists (
           select 1 from ocs_questions q
           where q.id = p_question[i] and q.status <> 'wrong'
             and (extract(epoch from q.updated_at) * 1000000)::bigint = p_version[i]) then
        r_index := i;
        r_outcome := 'stale';
        r_balance := 0;
        r_query_id := null;
        r_cost := 0;
        return next;
      else
        select c.r_outcome, c.r_balance, c.r_query_id, c.r_cost
          into v_outcome, r_balance, r_query_id, r_cost
          from ocs_charge(p_user[i], p_token[i], p_price[i], p_key[i], p_title[i], p_type[i], p_outcome[i],
                          p_question[i], p_model[i], p_answer[i], p_source[i], p_confidence[i],
                          coalesce(p_refuse[i], false)
                            or (coalesce(p_group[i], 0) <> 0 and p_group[i] = any(v_stopped))) c;
        if v_outcome = 'no_balance' and coalesce(p_group[i], 0) <> 0 then
          v_stopped := v_stopped || p_group[i];
        end if;
        r_index := i;
        r_outcome := v_outcome;
        return next;
      end if;
    end loop;
  end $$`;

/** The definitions this migration replaces (0010's ocs_charge, 0008's ocs_charge_many), for down(). */
const chargeV10 = sql`
  create function ocs_charge(p_user int, p_token int, p_price int, p_key text, p_title text,
                             p_type text, p_outcome text, p_question bigint, p_model int, p_answer text)
  returns table (r_outcome text, r_balance bigint, r_query_id bigint, r_cost int)
  language plpgsql as $$
  declare
    v_balance bigint;
    v_outcome text;
    v_cost int := 0;
    v_qid bigint;
  begin
    perform pg_advisory_xact_lock(hashtext('ocs_charge'), p_user);
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

const chargeManyV11 = sql`
  create function ocs_charge_many(p_user int[], p_token int[], p_price int[], p_key text[], p_title text[],
                                  p_type text[], p_outcome text[], p_question bigint[], p_model int[],
                                  p_answer text[], p_version bigint[])
  returns table (r_index int, r_outcome text, r_balance bigint, r_query_id bigint, r_cost int)
  language plpgsql as $$
  declare
    i int;
  begin
    for i in 1 .. coalesce(array_length(p_user, 1), 0) loop
      if p_version[i] is not null and not exists (
           select 1 from ocs_questions q
           where q.id = p_question[i] and q.status <> 'wrong'
             and (extract(epoch from q.updated_at) * 1000000)::bigint = p_version[i]) then
        r_index := i;
        r_outcome := 'stale';
        r_balance := 0;
        r_query_id := null;
        r_cost := 0;
        return next;
      else
        return query select i, c.r_outcome, c.r_balance, c.r_query_id, c.r_cost
          from ocs_charge(p_user[i], p_token[i], p_price[i], p_key[i], p_title[i], p_type[i], p_outcome[i],
                          p_question[i], p_model[i], p_answer[i]) c;
      end if;
    end loop;
  end $$`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table ocs_questions drop constraint if exists ocs_questions_source_check`.execute(db);
  await sql`alter table ocs_questions add constraint ocs_questions_source_check
    check (source in ('import', 'manual', 'ai', 'corrected') or source like 'upstream:%')`.execute(db);
  await db.schema
    .alterTable('ocs_questions')
    .addColumn('disputed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema.alterTable('ocs_queries').addColumn('source', 'text').addColumn('confidence', 'real').execute();

  await db.schema
    .alterTable('ocs_preferences')
    .addColumn('min_confidence', 'real', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`min_confidence >= 0 and min_confidence <= 1`),
    )
    .execute();

  await sql`drop function ocs_charge_many(int[], int[], int[], text[], text[], text[], text[], bigint[], int[], text[], bigint[])`.execute(
    db,
  );
  await sql`drop function ocs_charge(int, int, int, text, text, text, text, bigint, int, text)`.execute(db);
  await chargeV13.execute(db);
  await chargeManyV15.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function ocs_charge_many(int[], int[], int[], text[], text[], text[], text[], bigint[], int[], text[], bigint[], text[], real[], int[], boolean[])`.execute(
    db,
  );
  await sql`drop function ocs_charge(int, int, int, text, text, text, text, bigint, int, text, text, real, boolean)`.execute(
    db,
  );
  await chargeV10.execute(db);
  await chargeManyV11.execute(db);
  await db.schema.alterTable('ocs_preferences').dropColumn('min_confidence').execute();
  await db.schema.alterTable('ocs_queries').dropColumn('source').dropColumn('confidence').execute();
  await db.schema.alterTable('ocs_questions').dropColumn('disputed').execute();
  await sql`alter table ocs_questions drop constraint if exists ocs_questions_source_check`.execute(db);
  await sql`update ocs_questions set source = 'manual' where source = 'corrected'`.execute(db);
  await sql`update ocs_questions set source = 'ai' where source like 'upstream:%'`.execute(db);
  await sql`alter table ocs_questions add constraint ocs_questions_source_check
    check (source in ('import', 'manual', 'ai'))`.execute(db);
}
