/**
 * OCS: ocs_charge_many() charges a batch set-wise. Migration 0012's version called
 * ocs_charge() once per element: per answer a lock, a look-up of the 10-minute free repeat, an update of
 * the wallet row (one new row version per answer, all in one transaction), an insert into the query
 * log and one into the ledger, each a statement of its own. This one takes the batch's locks once,
 * looks up every element's question version and free repeat in one statement each, works the debits
 * out in memory against the locked wallet rows, and writes with one insert into the query log, one
 * into the ledger and one update per wallet.
 *
 * The rules are those of 0012, element by element in array order: a stale version writes nothing;
 * then the free repeat (also of an earlier element of the same call), a free answer, a refusal (the
 * element's own, or its group's once the group ran short), the debit if the balance holds the price,
 * else 余额不足. The balance each element reports is its user's balance after it. Locks: the per-user
 * advisory lock ocs_charge() takes, then the wallet rows, both in user order (two instances' batches
 * cannot deadlock; credits, which lock only the wallet row, wait for the batch).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { chargeManyV15 } from './0012_ocs_provenance';

/** The lookup of the free repeat as this migration wrote it (0016 replaces it). */
export const recentByJoin = sql`select coalesce(array_agg(distinct q.user_id || ':' || q.title_hash), '{}') into v_recent
      from (select distinct a.u, a.k from unnest(p_user, p_key) a(u, k)) a
      join ocs_queries q on q.user_id = a.u and q.title_hash = a.k
     where q.outcome in ('bank', 'ai', 'cache') and q.created_at > now() - interval '10 minutes';`;

/** ocs_charge_many as this migration creates it, with the free repeat's lookup given (into v_recent). */
export const chargeManySetWith = (recentLookup: RawBuilder<unknown>) => sql`
  create function ocs_charge_many(p_user int[], p_token int[], p_price int[], p_key text[], p_title text[],
                                  p_type text[], p_outcome text[], p_question bigint[], p_model int[],
                                  p_answer text[], p_version bigint[], p_source text[], p_confidence real[],
                                  p_group int[], p_refuse boolean[])
  returns table (r_index int, r_outcome text, r_balance bigint, r_query_id bigint, r_cost int)
  language plpgsql
  set plan_cache_mode = force_generic_plan
  as $$
  declare
    n int := coalesce(array_length(p_user, 1), 0);
    v_wallets int[];
    v_balance bigint[];
    v_fresh boolean[];
    v_recent text[];
    v_outcome text[] := array_fill(null::text, array[n]);
    v_cost int[] := array_fill(0, array[n]);
    v_after bigint[] := array_fill(0::bigint, array[n]);
    v_qid bigint[] := array_fill(null::bigint, array[n]);
    v_stopped int[] := '{}';
    i int;
    u int;
    k text;
  begin
    if n = 0 then
      return;
    end if;
    perform pg_advisory_xact_lock(hashtext('ocs_charge'), d.x) from (select distinct x from unnest(p_user) x order by x) d;
    -- The wallets (a user without one has a balance of 0), locked until the end of the transaction.
    select coalesce(array_agg(w.user_id order by w.user_id), '{}'), coalesce(array_agg(w.balance order by w.user_id), '{}')
      into v_wallets, v_balance
      from (select w.user_id, w.balance from ocs_wallets w where w.user_id = any(p_user) order by w.user_id for update) w;
    -- A version given: the question must still be as it was read (not marked wrong, not changed).
    select array_agg(t.v is null or exists (
             select 1 from ocs_questions q
             where q.id = t.q and q.status <> 'wrong'
               and (extract(epoch from q.updated_at) * 1000000)::bigint = t.v) order by t.o)
      into v_fresh from unnest(p_question, p_version) with ordinality t(q, v, o);
    -- The free repeat: these user:key pairs were answered in the last 10 minutes.
    ${recentLookup}

    for i in 1 .. n loop
      if not v_fresh[i] then
        v_outcome[i] := 'stale';
        continue;
      end if;
      k := p_user[i] || ':' || p_key[i];
      u := array_position(v_wallets, p_user[i]);
      if k = any(v_recent) then
        v_outcome[i] := 'cache';
      elsif p_price[i] = 0 then
        v_outcome[i] := p_outcome[i];
      elsif coalesce(p_refuse[i], false) or (coalesce(p_group[i], 0) <> 0 and p_group[i] = any(v_stopped)) then
        v_outcome[i] := 'no_balance';
      elsif v_balance[u] >= p_price[i] then
        v_balance[u] := v_balance[u] - p_price[i];
        v_outcome[i] := p_outcome[i];
        v_cost[i] := p_price[i];
      else
        v_outcome[i] := 'no_balance';
      end if;
      if v_outcome[i] = 'no_balance' and coalesce(p_group[i], 0) <> 0 then
        v_stopped := v_stopped || p_group[i];
      end if;
      if v_outcome[i] in ('bank', 'ai', 'cache') then
        v_recent := v_recent || k;
      end if;
      v_after[i] := coalesce(v_balance[u], 0);
      v_qid[i] := nextval('ocs_queries_id_seq'::regclass);
    end loop;

    return query
      with queries as (
        insert into ocs_queries (id, user_id, token_id, title, title_hash, type, outcome, question_id, answer, cost,
                                 model_id, source, confidence)
          overriding system value
          select t.qid, t.u, t.tok, left(t.title, 2000), t.k, t.ty, t.o, t.q,
                 case when t.o = 'no_balance' then null else t.a end, t.c, t.m, left(t.s, 80), t.conf
            from unnest(v_qid, p_user, p_token, p_title, p_key, p_type, v_outcome, p_question, p_answer, v_cost,
                        p_model, p_source, p_confidence) t(qid, u, tok, title, k, ty, o, q, a, c, m, s, conf)
           where t.qid is not null
           order by t.qid
      ), ledger as (
        insert into ocs_ledger (user_id, kind, amount, balance_after, memo, query_id)
          select t.u, 'charge', -t.c, t.b, left(t.title, 200), t.qid
            from unnest(p_user, v_cost, v_after, p_title, v_qid) t(u, c, b, title, qid)
           where t.c > 0
           order by t.qid
      ), wallets as (
        update ocs_wallets w set balance = w.balance - d.spent, updated_at = now()
          from (select t.u, sum(t.c) as spent from unnest(p_user, v_cost) t(u, c) group by t.u having sum(t.c) > 0) d
         where w.user_id = d.u
      )
      select t.o::int, t.outcome, case when t.outcome = 'stale' then 0::bigint else t.b end, t.qid, t.c
        from unnest(v_outcome, v_after, v_qid, v_cost) with ordinality t(outcome, b, qid, c, o);
  end $$`;

export const chargeManySet = chargeManySetWith(recentByJoin);

export const signature = sql.raw(
  'ocs_charge_many(int[], int[], int[], text[], text[], text[], text[], bigint[], int[], text[], bigint[], text[], real[], int[], boolean[])',
);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop function ${signature}`.execute(db);
  await chargeManySet.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function ${signature}`.execute(db);
  await chargeManyV15.execute(db);
}
