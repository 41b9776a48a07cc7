/**
 * NJIT: ANALYZE of the audit trail no longer gathers statistics for the columns no query filters on
 * (ip, criteria, result_count, record_ids, reason); user_id, user_name, action and created_at keep them.
 *
 * Every search adds an audit row, so the table changes enough for an ANALYZE every few thousand
 * searches (server/db/maintenance.ts on the embedded database, autovacuum on PostgreSQL). Statistics of
 * the jsonb criteria and of the record_ids array (the frequency of each element) made it slow: 340 ms
 * at 100,000 rows in PGlite, during which the embedded database answers nothing, against 45 ms without
 * them. In bench:njit such a pause every ten seconds was the filter search's worst round.
 */
import { sql, type Kysely } from 'kysely';

export const UNFILTERED = ['ip', 'criteria', 'result_count', 'record_ids', 'reason'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const c of UNFILTERED) await sql`alter table njit_audit alter column ${sql.ref(c)} set statistics 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const c of UNFILTERED)
    await sql`alter table njit_audit alter column ${sql.ref(c)} set statistics -1`.execute(db);
}
