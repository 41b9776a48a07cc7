/**
 * Roster import in two steps. preview: parse and validate the file, stage the valid rows under a
 * one-time id owned by the uploader, and report. commit: upsert the staged rows by student number in
 * one transaction together with the import-history and audit rows, so a failed commit changes nothing.
 * The rows are staged a chunk at a time (njit_import_staging_chunks), as read back from the spool the
 * worker wrote them to: no thread holds the whole file's rows, and no statement handles more than a chunk.
 */
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import {
  EDITABLE_FIELDS,
  type EditableField,
  type ImportCommitBody,
  type ImportCommitResult,
  type ImportPreview,
} from '../../../src/contract';
import type { DB } from '../../db/schema';
import type { Actor } from '../audit';
import { recordNjitAudit } from './audit';
import type { TaskPool } from '../../lib/worker-task';
import type { PreparedRoster } from './prepare';
import { importSummary } from './service';
import { present, stagedImport, stagedRows } from './edits';
import { FIELD_COLUMNS } from './policy';
import { createTempFile, readSpool, removeTempFile } from '../../lib/spool';

export const STAGING_MINUTES = 30;

/**
 * A roster prepared for its preview (./prepare.ts) from the uploaded file at `uploadFile`, its valid
 * rows into `spoolFile`; the module runs it in a worker thread.
 */
export type RosterPreparer = (fileName: string, uploadFile: string, spoolFile: string) => Promise<PreparedRoster>;

/**
 * Preparing on a worker thread: an .xlsx of 100,000 rows keeps the CPU busy for a minute; meanwhile the
 * event loop goes on answering, and what it parsed stays in the worker. Back comes the report; the valid
 * rows are in the spool file as JSON chunks, which this thread passes to the database without parsing them.
 */
export function workerRosterPreparer(pool: TaskPool): RosterPreparer {
  return (fileName, uploadFile, spoolFile) =>
    pool.run<PreparedRoster>(require.resolve('./prepare'), 'prepareRosterUpload', [fileName, uploadFile, spoolFile]);
}

export async function previewImport(
  db: Kysely<DB>,
  prepare: RosterPreparer,
  actor: Actor,
  fileName: string,
  uploadFile: string,
): Promise<ImportPreview> {
  const file = await createTempFile();
  try {
    return await stage(db, actor, fileName, await prepare(fileName, uploadFile, file));
  } finally {
    await removeTempFile(file);
  }
}

/** Stores a prepared roster's valid rows under a new import id, a chunk at a time, and makes the preview. */
async function stage(db: Kysely<DB>, actor: Actor, fileName: string, p: PreparedRoster): Promise<ImportPreview> {
  const id = crypto.randomBytes(18).toString('base64url');
  // Written already expired, the import cannot be committed before all its chunks are in; one that
  // fails halfway stays so, and the daily prune removes it (its chunks with it).
  await db
    .insertInto('njit_import_staging')
    .values({
      id,
      user_id: actor.id,
      file_name: fileName,
      total_rows: p.totalRows,
      rejected_rows: p.rejected,
      expires_at: sql<Date>`now()`,
    })
    .execute();
  // Each chunk is counted (its students already stored will be updated) as it is stored.
  let toUpdate = 0;
  let seq = 0;
  if (p.spool) {
    for await (const { json } of readSpool(p.spool)) {
      const { rows } = await sql<{ n: number }>`
        with c as (
          insert into njit_import_staging_chunks (import_id, seq, rows) values (${id}, ${seq++}, ${json}::jsonb)
          returning rows
        )
        select count(*)::int as n from c, jsonb_to_recordset(c.rows) as r(student_no text)
        where exists (select 1 from njit_students s where s.student_no = r.student_no)`.execute(db);
      toUpdate += Number(rows[0]!.n);
    }
  }
  const validRows = p.validRows;

  const expiresAt = new Date(Date.now() + STAGING_MINUTES * 60_000);
  await db.transaction().execute(async (trx) => {
    // One pending import per uploader: a new upload replaces the previous preview.
    await trx.deleteFrom('njit_import_staging').where('user_id', '=', actor.id).where('id', '<>', id).execute();
    const made = await trx
      .updateTable('njit_import_staging')
      .set({ expires_at: expiresAt })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(made.numUpdatedRows) !== 1) throw new Error('the staged import was removed while it was written');
  });

  return {
    importId: id,
    fileName,
    format: p.format,
    encoding: p.encoding,
    totalRows: p.totalRows,
    validRows,
    rejectedRows: p.rejected,
    toInsert: validRows - toUpdate,
    toUpdate,
    issues: p.issues,
    issueCount: p.issueCount,
    warnings: p.warnings,
    warningCount: p.warningCount,
    sample: p.sample,
    columns: p.columns,
    expiresAt: expiresAt.toISOString(),
  };
}

/** The default choice: fields corrected by hand are kept, students the roster misses left as they are. */
const KEEP_MANUAL: z.output<typeof ImportCommitBody> = { manual: 'keep', choices: [], missing: 'leave' };

export async function commitImport(
  db: Kysely<DB>,
  actor: Actor,
  importId: string,
  choice: z.output<typeof ImportCommitBody> = KEEP_MANUAL,
): Promise<ImportCommitResult> {
  const summary = await applyImport(db, actor, importId, choice);
  // Fresh planner statistics after a bulk change: without them a filter search on 100k rows
  // picks a poor plan (measured 13 ms instead of 4). The embedded database has no autovacuum.
  if (summary.inserted + summary.updated + summary.markedLeft >= 1000) {
    await sql`vacuum (analyze) njit_students`.execute(db);
  }
  return summary;
}

/** A roster column's value, or the stored one where a field corrected by hand is kept (`k.fields`). */
function keptOr(field: EditableField, ...columns: string[]) {
  return columns.map(
    (col) =>
      sql`case when ${field} = any(k.fields) then s.${sql.ref(col)} else r.${sql.ref(col)} end as ${sql.ref(col)}`,
  );
}

async function applyImport(
  db: Kysely<DB>,
  actor: Actor,
  importId: string,
  choice: z.output<typeof ImportCommitBody>,
): Promise<ImportCommitResult> {
  return db.transaction().execute(async (trx) => {
    const staged = await stagedImport(trx, actor, importId, true);
    // Corrections by hand wait for the commit, and the commit for those under way (editStudent takes the
    // weaker lock first, then the student's row, the order the commit follows too): the edits the
    // statement reads are all there are, so none is overwritten by a roster value while still flagged.
    await sql`lock table njit_student_edits in share row exclusive mode`.execute(trx);
    const choices = JSON.stringify(
      choice.choices.map((c) => ({ student_no: c.studentNo, field: c.field, take: c.take })),
    );
    const markLeft = choice.missing === 'mark_left';

    // The rows never come back to Node: Postgres expands the staged JSON and upserts in one statement.
    // A field corrected by hand is kept (its stored value written back, its flag left) when the choice
    // for it, or else the bulk choice, is keep; otherwise the roster's value is written and the flag
    // removed. The statement's parts touch different rows: the roster's students, the others' status.
    // xmax = 0 marks a freshly inserted row; a conflict-updated row carries the updating transaction.
    const { rows } = await sql<{
      inserted: number;
      updated: number;
      kept: number;
      taken: number;
      left: number;
      left_ids: number[];
    }>`
      with r as (${stagedRows(importId)}),
      choice as (select * from jsonb_to_recordset(${choices}::jsonb) as c(student_no text, field text, take text)),
      kept as (
        select e.student_id, array_agg(e.field) as fields
        from njit_student_edits e join njit_students s on s.id = e.student_id join r on r.student_no = s.student_no
          left join choice c on c.student_no = s.student_no and c.field = e.field
        where coalesce(c.take, ${choice.manual}) = 'keep'
        group by e.student_id
      ), taken as (
        delete from njit_student_edits e using njit_students s, r
        where s.id = e.student_id and r.student_no = s.student_no
          and not exists (select 1 from kept k where k.student_id = e.student_id and e.field = any(k.fields))
        returning 1
      ), src as (
        select r.student_no, ${sql.join([
          ...keptOr('name', 'name', 'name_pinyin', 'name_initials'),
          ...EDITABLE_FIELDS.filter((f) => f !== 'name').flatMap((f) => keptOr(f, FIELD_COLUMNS[f])),
        ])}
        from r left join njit_students s on s.student_no = r.student_no left join kept k on k.student_id = s.id
      ), up as (
        insert into njit_students as t (student_no, name, name_pinyin, name_initials, gender, college, major,
          class_name, grade, status, phone, id_card, dormitory)
        select student_no, name, name_pinyin, name_initials, gender, college, major,
          class_name, grade, status, phone, id_card, dormitory from src
        on conflict (student_no) do update set
          name = excluded.name, name_pinyin = excluded.name_pinyin, name_initials = excluded.name_initials,
          gender = excluded.gender, college = excluded.college, major = excluded.major,
          class_name = excluded.class_name, grade = excluded.grade, status = excluded.status,
          phone = excluded.phone, id_card = excluded.id_card, dormitory = excluded.dormitory, updated_at = now()
        returning (xmax = 0) as inserted
      ), gone as (
        update njit_students s set status = '离校', updated_at = now()
        where ${markLeft}::boolean and ${present}
          and not exists (select 1 from r where r.student_no = s.student_no)
        returning s.id
      )
      select count(*) filter (where inserted)::int as inserted, count(*) filter (where not inserted)::int as updated,
        (select coalesce(sum(cardinality(fields)), 0)::int from kept) as kept,
        (select count(*)::int from taken) as taken,
        (select count(*)::int from gone) as left,
        array(select id from gone order by id limit 1000) as left_ids
      from up`.execute(trx);
    const { inserted, updated, kept, taken, left, left_ids } = rows[0];

    const history = await trx
      .insertInto('njit_imports')
      .values({
        user_id: actor.id,
        user_name: actor.username,
        file_name: staged.file_name,
        total_rows: staged.total_rows,
        inserted,
        updated,
        rejected: staged.rejected_rows,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx.deleteFrom('njit_import_staging').where('id', '=', importId).execute();
    // The importer's choice, with what it did. The students marked 离校 are the audit's records (the
    // first thousand; markedLeft tells how many), so each one's access report shows the change.
    await recordNjitAudit(trx, actor, {
      action: 'import',
      criteria: {
        fileName: staged.file_name,
        importId: history.id,
        manual: choice.manual,
        choices: choice.choices.length,
        missing: choice.missing,
        keptManual: kept,
        takenRoster: taken,
        markedLeft: left,
      },
      resultCount: inserted + updated,
      recordIds: left_ids,
      reason: null,
    });
    return { ...importSummary(history), keptManual: kept, takenRoster: taken, markedLeft: left };
  });
}

export async function listImports(db: Kysely<DB>, q: { current: number; pageSize: number }) {
  const [{ total }, rows] = await Promise.all([
    db
      .selectFrom('njit_imports')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('njit_imports')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
  ]);
  return { total: Number(total), rows: rows.map(importSummary) };
}
