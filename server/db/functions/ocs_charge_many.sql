-- ocs_charge_many: the OCS charge rule, for one answer or a batch of them, in one statement.
--
-- The current definition, read by the migration that (re)creates the function (it drops the old one
-- first). Called from server/modules/ocs/wallet/charge.ts only. Element i of every array describes
-- charge i; each charge is decided in array order, so a later one sees an earlier one's debit:
--
--   stale       a version was given (the answer was read from memory) and the question is no longer
--               at it (changed or marked wrong): nothing is written for this charge;
--   cache       the same user asked the same question (p_key) within 10 minutes and was answered
--               (also by an earlier charge of this call): free;
--   p_outcome   ('bank' or 'ai') free when the price is 0, else debited when the balance holds it;
--   no_balance  refused (p_refuse, or an earlier charge of its group p_group ran short), or the balance
--               does not hold the price.
--
-- Every charge but a stale one writes its row in the query log; a debit writes its ledger row and
-- lowers the wallet, in this statement, so the three change together or not at all. What makes it
-- atomic under concurrency: the wallets of the call's users are locked first (in user order, so two
-- calls cannot deadlock), and every check after that is a statement of its own, which in read
-- committed sees what the calls before it committed. A user without a wallet has a balance of 0.
--
-- The bank's generation (ocs_bank_generation, raised by every transaction that changes or removes
-- questions): a charge labelled by the caller with the generation of now (p_generation) was read at
-- it, so its question is as read without looking; the generation seen is returned for the caller to
-- relabel what it read.
create function ocs_charge_many(
  p_user int[], p_token int[], p_price int[], p_key text[], p_title text[], p_type text[], p_outcome text[],
  p_question bigint[], p_model int[], p_answer text[], p_version bigint[], p_source text[], p_confidence real[],
  p_group int[], p_refuse boolean[], p_generation bigint[])
returns table (r_index int, r_outcome text, r_balance bigint, r_query_id bigint, r_cost int, r_generation bigint)
language plpgsql
-- One plan for the session, whatever the batch's size: planning each call cost more than running it.
set plan_cache_mode = force_generic_plan
as $$
declare
  n int := coalesce(array_length(p_user, 1), 0);
  v_wallets int[];
  v_balance bigint[];
  v_generation bigint;
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
  -- The wallets, locked until the end of the transaction.
  select coalesce(array_agg(w.user_id order by w.user_id), '{}'), coalesce(array_agg(w.balance order by w.user_id), '{}')
    into v_wallets, v_balance
    from (select w.user_id, w.balance from ocs_wallets w where w.user_id = any(p_user) order by w.user_id for update) w;
  -- Read in a statement of its own: joined into the check below, the planner's guess of this one-row
  -- table made the check a scan of every question.
  select g.n into v_generation from ocs_bank_generation g;
  -- A version given: the question must still be as it was read (not marked wrong, not changed).
  select array_agg(case
           when t.v is null or t.g = v_generation then true
           else exists (
             select 1 from ocs_questions q
              where q.id = t.q and q.status <> 'wrong'
                and (extract(epoch from q.updated_at) * 1000000)::bigint = t.v)
         end order by t.o)
    into v_fresh from unnest(p_question, p_version, p_generation) with ordinality t(q, v, g, o);
  -- The free repeat: these user:key pairs were answered in the last 10 minutes. One index probe per
  -- pair (ocs_queries_cache_idx); the time bound is a sub-select so that a plan made while no query
  -- was recent does not read every recent query instead.
  select coalesce(array_agg(a.u || ':' || a.k), '{}') into v_recent
    from (select distinct a.u, a.k from unnest(p_user, p_key) a(u, k)) a
    cross join lateral (
      select 1 from ocs_queries q
       where q.user_id = a.u and q.title_hash = a.k and q.outcome in ('bank', 'ai', 'cache')
         and q.created_at > (select now() - interval '10 minutes')
       limit 1) r;

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
    elsif p_refuse[i] or (p_group[i] <> 0 and p_group[i] = any(v_stopped)) then
      v_outcome[i] := 'no_balance';
    elsif v_balance[u] >= p_price[i] then
      v_balance[u] := v_balance[u] - p_price[i];
      v_outcome[i] := p_outcome[i];
      v_cost[i] := p_price[i];
    else
      v_outcome[i] := 'no_balance';
    end if;
    if v_outcome[i] = 'no_balance' and p_group[i] <> 0 then
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
    select t.o::int, t.outcome, case when t.outcome = 'stale' then 0::bigint else t.b end, t.qid, t.c, v_generation
      from unnest(v_outcome, v_after, v_qid, v_cost) with ordinality t(outcome, b, qid, c, o);
end
$$
