/**
 * BankIndexSync keeps this instance's in-memory bank in step with the ocs_questions table: the fuzzy
 * index (every normalized title) and the exact index (what answering needs, per normalized title),
 * with the full load at start and, on a shared PostgreSQL, the rows other instances changed since the
 * last look.
 */
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { notifierOf } from '../../../db/notify';
import type { DB } from '../../../db/schema';
import { ExactIndex, type ExactRow } from './exact-index';
import { FuzzyIndex } from './fuzzy-index';
import { provenanceOf } from './question';
import type { OcsQuestionType } from './normalize';

/** A transaction's now() is its start, older than its commit: re-read that far back. */
const OVERLAP_MS = 60_000;
const PAGE = 20_000;
const RELOAD_BATCH = 5_000;
/** Announced (on PostgreSQL) when this instance wrote bank rows, so the others refresh at once. */
const CHANGES_CHANNEL = 'portal_bank_changes';

/** updated_at as microseconds since the epoch: the version ocs_charge_many() compares. */
export const VERSION_SQL = sql<number>`(extract(epoch from updated_at) * 1000000)::bigint`;
/** The bank's generation in the reading statement's snapshot (migration 0021): rows read were at it. */
export const GENERATION_SQL = sql<number>`(select n from ocs_bank_generation)`;

type Stored = ExactRow & { status: string };

interface RawRow {
  id: number;
  norm_title: string;
  title: string;
  type: OcsQuestionType;
  options: string[];
  answer: string[];
  status: string;
  source: string;
  disputed?: boolean | null;
  version: number;
  generation?: number | string | null;
}

const toStored = (r: RawRow): Stored => ({
  id: Number(r.id),
  norm_title: r.norm_title,
  title: r.title,
  type: r.type,
  options: r.options,
  answer: r.answer,
  status: r.status,
  version: Number(r.version),
  ...(r.generation !== undefined && r.generation !== null ? { generation: Number(r.generation) } : {}),
  provenance: provenanceOf(r.source, r.status),
  ...(r.disputed ? { disputed: true } : {}),
});

/**
 * Keeps one instance's FuzzyIndex and ExactIndex in step with the table: a full load at start, then
 * (only when other instances may write, i.e. on a shared PostgreSQL) rows changed since the last look.
 * Writes made by this instance reach the indexes through FuzzyIndex.add(), which every writer calls
 * after its commit: the fuzzy index takes the title at once, the exact index reads the row back.
 */
export class BankIndexSync {
  readonly index = new FuzzyIndex();
  readonly exact = new ExactIndex((id) => this.index.title(id));
  private since: Date | null = null;
  private ready = false;
  /** Bumped whenever rows are taken in other than by a group repair: a repair read before is not applied. */
  private epoch = 0;
  /** Rows this instance wrote and has not read back: id → the titles it was given, in order. */
  private pending = new Map<number, string[]>();
  private reloading: Promise<void> | null = null;

  constructor(private readonly db: Kysely<DB>) {
    this.index.onAdd = (id, norm) => this.written(id, norm);
  }

  private markLoaded: () => void = () => undefined;
  /** Resolves once the start-up load finished (fuzzy matching finds nothing until then). */
  readonly loaded = new Promise<void>((resolve) => (this.markLoaded = resolve));

  /** True once the start-up load finished: the exact index may answer. */
  get isReady(): boolean {
    return this.ready;
  }

  /**
   * Calls `wake` when another instance says it wrote bank rows (PostgreSQL only; the caller runs
   * refresh() then, instead of waiting for its next round). Deletes and status changes are not
   * announced: the charge's version check catches those rows.
   */
  onOthersWrote(wake: () => void): void {
    const notifier = notifierOf(this.db);
    if (notifier.kind !== 'postgres') return;
    const me = crypto.randomUUID();
    let last = 0;
    const wakeSoon = () => {
      // At most once a second (an import announces every chunk); one that comes sooner is left to
      // the next regular round (OCS_INDEX_REFRESH_MS), as every change was before announcements.
      if (Date.now() - last < 1_000) return;
      last = Date.now();
      wake();
    };
    this.announce = () => void notifier.notify(CHANGES_CHANNEL, me).catch(() => undefined);
    void notifier
      .listen(CHANGES_CHANNEL, { onMessage: (from) => from !== me && wakeSoon(), onGap: wakeSoon })
      .catch(() => undefined);
  }

  private announce: () => void = () => undefined;

  /** Resolves when this instance's writes so far have been read back into the exact index. */
  async settled(): Promise<void> {
    while (this.reloading) await this.reloading;
  }

  /** A marker to pass to repairGroup(): taken before the database read the repair uses. */
  get version(): number {
    return this.epoch;
  }

  private select() {
    return this.db
      .selectFrom('ocs_questions')
      .select([
        'id',
        'norm_title',
        'title',
        'type',
        'options',
        'answer',
        'status',
        'source',
        'disputed',
        VERSION_SQL.as('version'),
        GENERATION_SQL.as('generation'),
      ]);
  }

  async load(): Promise<{ rows: number; ms: number }> {
    const started = Date.now();
    const startedAt = await this.dbNow();
    let last = 0;
    let rows = 0;
    for (;;) {
      const page = (await this.select().where('id', '>', last).orderBy('id').limit(PAGE).execute()) as RawRow[];
      this.take(page);
      rows += page.length;
      if (page.length < PAGE) break;
      last = Number(page[page.length - 1]!.id);
    }
    this.index.compact();
    this.since = new Date(startedAt.getTime() - OVERLAP_MS);
    this.ready = true;
    this.markLoaded();
    return { rows, ms: Date.now() - started };
  }

  async refresh(): Promise<number> {
    if (!this.since) return 0;
    const startedAt = await this.dbNow();
    let n = 0;
    let cursor = this.since;
    for (;;) {
      const page = await this.select()
        .select('updated_at')
        .where('updated_at', '>=', cursor)
        .orderBy('updated_at')
        .orderBy('id')
        .limit(PAGE)
        .execute();
      this.take(page as RawRow[]);
      n += page.length;
      if (page.length < PAGE) break;
      const next = page[page.length - 1]!.updated_at;
      if (next.getTime() === cursor.getTime()) break;
      cursor = next;
    }
    this.since = new Date(startedAt.getTime() - OVERLAP_MS);
    return n;
  }

  private take(page: RawRow[]): void {
    this.epoch++;
    for (const raw of page) {
      const r = toStored(raw);
      this.index.insert(r.id, r.norm_title);
      // A row this instance is reading back will be taken from that read.
      if (!this.pending.has(r.id)) this.exact.put(r);
    }
  }

  /**
   * The rows of one normalized title as the database has them now (read when `version` was
   * current): replaces the exact index's group, unless a write of this instance came in between.
   */
  repairGroup(norm: string, rows: RawRow[], version: number): void {
    if (!this.ready || version !== this.epoch || this.exact.isUnknown(norm)) return;
    const stored = rows.map(toStored);
    for (const r of stored) if (this.index.title(r.id) !== r.norm_title) this.index.insert(r.id, r.norm_title);
    this.exact.replaceGroup(norm, stored);
  }

  private written(id: number, norm: string): void {
    this.epoch++;
    this.exact.touch(id, norm);
    const titles = this.pending.get(id);
    if (titles) titles.push(norm);
    else this.pending.set(id, [norm]);
    // Writes come in bursts (an import's chunk): read them back together, one read at a time.
    this.reloading ??= Promise.resolve()
      .then(() => this.reload())
      .finally(() => (this.reloading = null));
  }

  private async reload(): Promise<void> {
    while (this.pending.size > 0) {
      // Each id with how many of its titles this read answers (more may be added while it runs).
      const batch = [...this.pending.entries()].slice(0, RELOAD_BATCH).map(([id, t]) => [id, t.length] as const);
      let rows: RawRow[];
      try {
        rows = (await this.select()
          .where(
            'id',
            'in',
            batch.map(([id]) => id),
          )
          .execute()) as RawRow[];
      } catch {
        // The titles stay unknown (answered through the database) until the next write retries.
        return;
      }
      const byId = new Map(rows.map((r) => [Number(r.id), toStored(r)]));
      for (const [id, answered] of batch) {
        const titles = this.pending.get(id)!;
        const r = byId.get(id);
        if (titles.length > answered) {
          // Written again while this read ran: the next round reads it again.
          this.pending.set(id, titles.slice(answered));
        } else {
          this.pending.delete(id);
          if (r && this.index.title(id) === r.norm_title) this.exact.put(r);
        }
        for (const t of titles.slice(0, answered)) this.exact.settle(t);
      }
      this.announce();
    }
  }

  private async dbNow(): Promise<Date> {
    const r = await sql<{ now: Date }>`select now() as now`.execute(this.db);
    return new Date(r.rows[0]!.now);
  }
}
