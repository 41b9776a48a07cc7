/**
 * OCS: the free-repeat look-up of ocs_charge() and ocs_charge_many() compares the query time with
 * `(select now() - interval '10 minutes')` instead of `now() - interval '10 minutes'`.
 *
 * Both functions keep their plans for the session (ocs_charge_many forces one generic plan), and the
 * planner estimates `created_at > now() - interval '10 minutes'` from the newest query it finds at
 * planning time. Planned while no query was less than 10 minutes old (the first charge after a quiet
 * spell or a restart), that range looks empty, ocs_queries_created_idx looks like the cheapest way to
 * find a user's question in it, and the plan stays until the next ANALYZE of the query log: every
 * probe then read every query of the last 10 minutes, of all users. On the bench's bank this made a
 * batch of 24 charges take 37 ms instead of 4 and held the database 98% busy at a fifth of the normal
 * rate. The bound as a sub-select is a value the planner cannot know in advance, so it estimates the
 * range as a third of the table: the probe of ocs_queries_cache_idx (user, title hash, time) is then
 * the only cheap plan, whatever the newest query is. Nothing else of either function changes.
 */
import { sql, type Kysely } from 'kysely';

const OLD_BOUND = "q.created_at > now() - interval '10 minutes'";
const NEW_BOUND = "q.created_at > (select now() - interval '10 minutes')";

const FUNCTIONS = [
  'ocs_charge(int, int, int, text, text, text, text, bigint, int, text, text, real, boolean)',
  'ocs_charge_many(int[], int[], int[], text[], text[], text[], text[], bigint[], int[], text[], bigint[], text[], real[], int[], boolean[])',
];

/** Re-creates the function with its one occurrence of `from` replaced by `to`. */
async function rewrite(db: Kysely<any>, fn: string, from: string, to: string): Promise<void> {
  const r = await sql<{ def: string }>`select pg_get_functiondef(${fn}::regprocedure) as def`.execute(db);
  const def = r.rows[0]!.def;
  const at = def.indexOf(from);
  if (at < 0 || def.indexOf(from, at + 1) >= 0) throw new Error(`${fn}: expected exactly one "${from}"`);
  await sql.raw(def.slice(0, at) + to + def.slice(at + from.length)).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const fn of FUNCTIONS) await rewrite(db, fn, OLD_BOUND, NEW_BOUND);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const fn of FUNCTIONS) await rewrite(db, fn, NEW_BOUND, OLD_BOUND);
}
