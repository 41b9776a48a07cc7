/**
 * BankIndexSync keeps this instance's FuzzyIndex in step with the ocs_questions table: the full load
 * at start and, on a shared PostgreSQL, the rows other instances changed since the last look.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { FuzzyIndex } from './fuzzy-index';

/** A transaction's now() is its start, older than its commit: re-read that far back. */
const OVERLAP_MS = 60_000;

/**
 * Keeps one instance's FuzzyIndex in step with the table: a full load at start, then (only when
 * other instances may write, i.e. on a shared PostgreSQL) rows changed since the last look. Writes
 * made by this instance are added to the index directly.
 */
export class BankIndexSync {
  readonly index = new FuzzyIndex();
  private since: Date | null = null;

  constructor(private readonly db: Kysely<DB>) {}

  private markLoaded: () => void = () => undefined;
  /** Resolves once the start-up load finished (fuzzy matching finds nothing until then). */
  readonly loaded = new Promise<void>((resolve) => (this.markLoaded = resolve));

  async load(): Promise<{ rows: number; ms: number }> {
    const started = Date.now();
    const startedAt = await this.dbNow();
    let last = 0;
    let rows = 0;
    for (;;) {
      const page = await this.db
        .selectFrom('ocs_questions')
        .select(['id', 'norm_title'])
        .where('id', '>', last)
        .orderBy('id')
        .limit(20_000)
        .execute();
      for (const r of page) this.index.add(Number(r.id), r.norm_title);
      rows += page.length;
      if (page.length < 20_000) break;
      last = Number(page[page.length - 1]!.id);
    }
    this.index.compact();
    this.since = new Date(startedAt.getTime() - OVERLAP_MS);
    this.markLoaded();
    return { rows, ms: Date.now() - started };
  }

  async refresh(): Promise<number> {
    if (!this.since) return 0;
    const startedAt = await this.dbNow();
    let n = 0;
    let cursor = this.since;
    for (;;) {
      const page = await this.db
        .selectFrom('ocs_questions')
        .select(['id', 'norm_title', 'updated_at'])
        .where('updated_at', '>=', cursor)
        .orderBy('updated_at')
        .orderBy('id')
        .limit(20_000)
        .execute();
      for (const r of page) this.index.add(Number(r.id), r.norm_title);
      n += page.length;
      if (page.length < 20_000) break;
      const next = page[page.length - 1]!.updated_at;
      if (next.getTime() === cursor.getTime()) break;
      cursor = next;
    }
    this.since = new Date(startedAt.getTime() - OVERLAP_MS);
    return n;
  }

  private async dbNow(): Promise<Date> {
    const r = await sql<{ now: Date }>`select now() as now`.execute(this.db);
    return new Date(r.rows[0]!.now);
  }
}
