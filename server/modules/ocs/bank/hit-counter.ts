/**
 * HitCounter counts how often each question answered a query, in memory, and adds the counts to
 * ocs_question_hits (migration 0017) every few seconds (the OCS plugin's flush timer).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/schema';

/**
 * Hit counts, added up in memory and written every few seconds in one statement: counting a hit in
 * the charging statement doubled its cost. A crash loses at most one interval of counts (statistics,
 * not money).
 */
export class HitCounter {
  private pending = new Map<number, number>();

  constructor(private readonly db: Kysely<DB>) {}

  add(questionId: number): void {
    this.pending.set(questionId, (this.pending.get(questionId) ?? 0) + 1);
  }

  /**
   * Writes the counts so far, at most `chunk` questions per statement: on the embedded database one
   * statement holds every query back while it runs, and 13,000 questions hit in 5 s took 150–370 ms in
   * one (when the counts were a column of ocs_questions, each a random page of a large table).
   */
  async flush(chunk = 200): Promise<void> {
    if (this.pending.size === 0) return;
    // In id order, so two instances' flushes lock the same rows in the same order (no deadlock).
    const batch = [...this.pending].sort((a, b) => a[0] - b[0]);
    this.pending = new Map();
    for (let at = 0; at < batch.length; at += chunk) {
      const part = batch.slice(at, at + chunk);
      const ids = part.map(([id]) => id);
      const counts = part.map(([, n]) => n);
      // Questions deleted since their hit are left out (the join), so the foreign key holds.
      await sql`
        insert into ocs_question_hits as h (question_id, hits)
        select v.id, v.n from unnest(${ids}::bigint[], ${counts}::int[]) v(id, n)
          join ocs_questions q on q.id = v.id
         order by v.id
        on conflict (question_id) do update set hits = h.hits + excluded.hits`.execute(this.db);
    }
  }
}
