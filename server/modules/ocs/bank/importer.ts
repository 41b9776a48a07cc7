/**
 * Question-bank import in two steps. preview: parse the file, validate every row with prepareQuestion
 * and report (counts, row-numbered issues, a sample), keeping the prepared rows staged; that runs on a
 * worker thread (./import-prepare.ts), so a large file neither holds the event loop nor leaves the
 * memory its parse took. The prepared rows are staged in a spool file (server/lib/spool.ts), not in
 * memory, and are read back one chunk at a time: to count those already in the bank, then by the
 * commit, which upserts them in the background through a job record the page polls for progress.
 *
 * Staging and jobs belong to this process (there is no staging table): the preview, the commit
 * and the progress polls must reach the same instance. That holds on the embedded database (one
 * instance) and behind a sticky load balancer; the importer is an administrators' tool, and an expired
 * or lost preview only means uploading the file again. Re-running an import is always safe: rows are
 * keyed by normalized title, type and options, so the same file updates instead of duplicating.
 */
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { BankImportJob, BankImportPreview } from '../../../../src/contract';
import type { DB } from '../../../db/schema';
import { notFound } from '../../../errors';
import { recordAudit, type Actor } from '../../audit';
import { notify } from '../../notifications';
import type { FuzzyIndex } from './fuzzy-index';
import type { TaskPool } from '../../../lib/worker-task';
import type { PreparedBank } from './import-prepare';
import type { PreparedQuestion } from './question';
import { upsertQuestions } from './store';
import { createTempFile, readSpool, removeTempFile, type Spool } from '../../../lib/spool';

export const STAGING_MS = 30 * 60_000;
/**
 * Questions the commit writes in one statement. Between two, the event loop answers others: a statement
 * of 2,000 (its query built, its rows added to the fuzzy index) held it for up to half a second.
 */
const COMMIT_SLICE = 500;

/**
 * Prepares an uploaded bank file, saved at `uploadFile`, for its preview (./import-prepare.ts), its
 * rows into `spoolFile`.
 */
export type BankPreparer = (fileName: string, uploadFile: string, spoolFile: string) => Promise<PreparedBank>;

/** Preparing on a worker thread of `pool` (one file at a time, its heap capped). */
export function workerBankPreparer(pool: TaskPool): BankPreparer {
  return (fileName, uploadFile, spoolFile) =>
    pool.run<PreparedBank>(require.resolve('./import-prepare'), 'prepareBankUpload', [fileName, uploadFile, spoolFile]);
}

interface Staged {
  actorId: number;
  fileName: string;
  /** The valid questions in JSON chunks (PreparedBank.spool), read one at a time when needed. */
  spool: Spool;
  valid: number;
  total: number;
  rejected: number;
  expiresAt: number;
}

interface JobState extends BankImportJob {
  expiresAt: number;
}

/**
 * How many of the spooled rows are already in the bank (they will be updated): one chunk at a time, its
 * JSON read by the database, so this thread neither parses the rows nor holds more than a chunk's text.
 */
async function countExisting(db: Kysely<DB>, spool: Spool): Promise<number> {
  let n = 0;
  for await (const { json } of readSpool(spool)) {
    const r = await sql<{ n: number }>`
      select count(*)::int as n
      from jsonb_to_recordset(${json}::jsonb) as k(title_hash text, type text, options_hash text)
      where exists (select 1 from ocs_questions q
        where q.title_hash = k.title_hash and q.type = k.type and q.options_hash = k.options_hash)`.execute(db);
    n += Number(r.rows[0]!.n);
  }
  return n;
}

export class BankImporter {
  private readonly staged = new Map<string, Staged>();
  private readonly jobs = new Map<string, JobState>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly deps: { db: Kysely<DB>; index: FuzzyIndex; log: FastifyBaseLogger; prepare: BankPreparer },
  ) {}

  async preview(actor: Actor, fileName: string, uploadFile: string): Promise<BankImportPreview> {
    const file = await createTempFile();
    let prepared: PreparedBank;
    let existing: number;
    try {
      prepared = await this.deps.prepare(fileName, uploadFile, file);
      existing = await countExisting(this.deps.db, prepared.spool!);
    } catch (err) {
      await removeTempFile(file);
      throw err;
    }
    const { total, rejected, valid, issues, sample, spool } = prepared;
    this.sweep();
    // One pending preview per administrator: a new upload replaces the previous one.
    for (const [id, s] of this.staged) if (s.actorId === actor.id) this.drop(id, s);
    const id = crypto.randomUUID();
    this.staged.set(id, {
      actorId: actor.id,
      fileName,
      spool: spool!,
      valid,
      total,
      rejected,
      expiresAt: Date.now() + STAGING_MS,
    });
    return { id, fileName, total, valid, rejected, existing, issues, sample };
  }

  /** Starts writing a previewed import; committing the same id again returns its job. */
  commit(actor: Actor, id: string): BankImportJob {
    const job = this.jobs.get(id);
    if (job) return this.snapshot(job);
    const staged = this.staged.get(id);
    if (!staged || staged.actorId !== actor.id || staged.expiresAt < Date.now()) {
      throw notFound('导入批次不存在或已过期（预览保留 30 分钟，且须在同一服务实例上确认），请重新上传文件');
    }
    this.staged.delete(id);
    const state: JobState = {
      id,
      status: 'running',
      total: staged.valid,
      done: 0,
      inserted: 0,
      updated: 0,
      error: null,
      expiresAt: Date.now() + STAGING_MS,
    };
    this.jobs.set(id, state);
    const p = this.run(state, staged, actor).finally(() => this.running.delete(p));
    this.running.add(p);
    return this.snapshot(state);
  }

  job(id: string): BankImportJob {
    const job = this.jobs.get(id);
    if (!job) throw notFound('导入任务不存在或已过期');
    return this.snapshot(job);
  }

  /** This instance's jobs still running, and those that failed and are not yet forgotten (the home page's count). */
  counts(): { running: number; failed: number } {
    let running = 0;
    let failed = 0;
    for (const j of this.jobs.values()) {
      if (j.status === 'running') running += 1;
      else if (j.status === 'failed') failed += 1;
    }
    return { running, failed };
  }

  /** Lets running imports finish before the database closes, and removes the staged previews' spools. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.running]);
    await Promise.all([...this.staged.values()].map((s) => removeTempFile(s.spool.file)));
    this.staged.clear();
  }

  /** Forgets a staged preview and removes its spool (in the background: nothing waits for it). */
  private drop(id: string, s: Staged): void {
    this.staged.delete(id);
    void removeTempFile(s.spool.file);
  }

  private snapshot({ expiresAt: _e, ...job }: JobState): BankImportJob {
    return { ...job };
  }

  /** Forgets expired previews and finished jobs (the OCS plugin runs this every minute). */
  sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.staged) if (s.expiresAt < now) this.drop(id, s);
    for (const [id, j] of this.jobs) if (j.status !== 'running' && j.expiresAt < now) this.jobs.delete(id);
  }

  private async run(job: JobState, staged: Staged, actor: Actor): Promise<void> {
    const { db, index, log } = this.deps;
    let written = 0;
    let outcome: 'done' | 'failed' = 'failed';
    let error: string | null = null;
    try {
      for await (const { json } of readSpool(staged.spool)) {
        const chunk = JSON.parse(json) as PreparedQuestion[];
        const counts = { inserted: 0, updated: 0 };
        for (let i = 0; i < chunk.length; i += COMMIT_SLICE) {
          const r = await upsertQuestions(db, chunk.slice(i, i + COMMIT_SLICE), 'import', 'verified');
          // Each slice is answerable (exact and fuzzy) as soon as it lands.
          for (const row of r.rows) index.add(row.id, row.norm_title);
          written += Math.min(COMMIT_SLICE, chunk.length - i);
          counts.inserted += r.inserted;
          counts.updated += r.updated;
        }
        job.done += chunk.length;
        job.inserted += counts.inserted;
        job.updated += counts.updated;
      }
      outcome = 'done';
    } catch (err) {
      log.error({ err, importId: job.id }, 'ocs bank import failed');
      outcome = 'failed';
      error = `导入在第 ${written + 1} 条附近中断（之前的 ${written} 条已写入；重新导入同一文件是安全的）`;
    }
    // Fresh planner statistics after a bulk change (the embedded database has no autovacuum).
    if (job.done >= 1000)
      await sql`analyze ocs_questions`.execute(db).catch((err) => log.warn({ err }, 'analyze failed'));
    await recordAudit(db, actor, {
      action: 'ocs.bank.import',
      targetType: 'ocs_bank',
      targetId: job.id,
      targetName: staged.fileName,
      after: {
        fileName: staged.fileName,
        status: outcome,
        rows: staged.total,
        valid: job.total,
        rejected: staged.rejected,
        inserted: job.inserted,
        updated: job.updated,
      },
    }).catch((err) => log.error({ err }, 'ocs bank import audit failed'));
    // The administrator who started it may have left the page: the bell tells them how it ended.
    await notify(db, actor.id, {
      kind: 'ocs.import.finished',
      title: outcome === 'done' ? `题库导入完成：${staged.fileName}` : `题库导入中断：${staged.fileName}`,
      body:
        outcome === 'done'
          ? `共 ${job.total} 条：新增 ${job.inserted} 条，更新 ${job.updated} 条`
          : `${error}；已新增 ${job.inserted} 条，更新 ${job.updated} 条`,
      link: '/OCS/OCSAdmin/bank',
    }).catch((err) => log.error({ err }, 'ocs bank import notification failed'));
    // Finished only now, so whoever sees the job end also finds its audit row and its notification.
    job.error = error;
    job.status = outcome;
    job.expiresAt = Date.now() + STAGING_MS;
    await removeTempFile(staged.spool.file);
  }
}
