/**
 * OCS: ocs_charge_many() looks up the free repeat with one index probe per distinct user:key pair
 * (ocs_queries_cache_idx: user, title hash, time). Migration 0015 joined the pairs with ocs_queries,
 * and the planner, whose statistics never know how many queries the last minutes hold, chose to scan
 * every query of the last 10 minutes through ocs_queries_created_idx and hash them: measured on the
 * bench's bank, 52,000 rows and 21–140 ms for a batch of 24 charges, growing with the traffic of every
 * user, against 3 ms for the probes. A LATERAL subquery with LIMIT 1 leaves the planner only the probe.
 * Nothing else of the function changes.
 */
import { sql, type Kysely } from 'kysely';
import { chargeManySet, chargeManySetWith, signature } from './0015_ocs_charge_set';

const recentByProbe = sql`select coalesce(array_agg(a.u || ':' || a.k), '{}') into v_recent
      from (select distinct a.u, a.k from unnest(p_user, p_key) a(u, k)) a
      cross join lateral (
        select 1 from ocs_queries q
         where q.user_id = a.u and q.title_hash = a.k and q.outcome in ('bank', 'ai', 'cache')
           and q.created_at > now() - interval '10 minutes'
         limit 1) r;`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop function ${signature}`.execute(db);
  await chargeManySetWith(recentByProbe).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function ${signature}`.execute(db);
  await chargeManySet.execute(db);
}
