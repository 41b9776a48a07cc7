/**
 * OCS: charging several answers in one statement, ocs_charge_many(), for the embedded database's
 * group commit (one statement, one commit, instead of a transaction of one statement per charge with a
 * round trip each, during which every other query waits).
 *
 * Each element is charged by ocs_charge() itself (migration 0006), one after the other in array order,
 * so the rules are exactly that function's: the 10-minute free repeat, the conditional debit that never
 * takes a balance below zero, the query row and the ledger row together. A later element sees what an
 * earlier one wrote: two charges of one user whose balance covers one charge exactly one.
 *
 * An element may carry the version (updated_at, in microseconds since the epoch) of the bank question
 * its answer was read from, when the answer came from an instance's memory rather than a read in the
 * same request: if that question is gone, marked wrong or changed since, the element is not charged
 * and writes nothing (outcome 'stale'); the caller looks the question up again.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
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
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists ocs_charge_many(int[], int[], int[], text[], text[], text[], text[], bigint[], int[], text[], bigint[])`.execute(
    db,
  );
}
