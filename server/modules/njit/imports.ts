/**
 * Roster import in two steps. preview: parse and validate the file, stage the valid rows under a
 * one-time id owned by the uploader, and report. commit: upsert the staged rows by student number in
 * one transaction together with the import-history and audit rows, so a failed commit changes nothing.
 */
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ImportIssue, ImportPreview, ImportSummary } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { notFound } from '../../errors';
import type { Actor } from '../audit';
import { recordNjitAudit } from './audit';
import type { TaskPool } from '../../lib/worker-task';
import type { ParsedFile } from './parse';
import { FIELD_LABELS, maskIdCard, maskPhone, validateRow, type RowIssue, type StudentInput } from './record';
import { importSummary } from './service';

export const STAGING_MINUTES = 30;
const MAX_ISSUES = 500;
const SAMPLE_ROWS = 20;

/** Reads an uploaded roster into rows (parse.ts); the module runs it in a worker thread. */
export type RosterParser = (fileName: string, buf: Buffer) => Promise<ParsedFile>;

/**
 * A parser on a worker thread: an .xlsx of 100,000 rows keeps the CPU busy for seconds and the heap for
 * hundreds of MB; meanwhile the event loop goes on answering, and the memory goes with the worker.
 */
export function workerRosterParser(pool: TaskPool): RosterParser {
  return (fileName, buf) => pool.run<ParsedFile>(require.resolve('./parse'), 'parseRosterFile', [fileName, buf]);
}

export async function previewImport(
  db: Kysely<DB>,
  parse: RosterParser,
  actor: Actor,
  fileName: string,
  buf: Buffer,
): Promise<ImportPreview> {
  const parsed = await parse(fileName, buf);
  const issues: ImportIssue[] = [];
  let issueCount = 0;
  const warnings: ImportIssue[] = [];
  let warningCount = 0;
  const valid: StudentInput[] = [];
  const sample: ImportPreview['sample'] = [];
  const firstLine = new Map<string, number>();
  let rejected = 0;

  for (const { line, raw } of parsed.rows) {
    const { record, issues: rowIssues, warnings: rowWarnings } = validateRow(raw);
    const issueOf = (i: RowIssue, suffix = '') => ({
      row: line,
      field: FIELD_LABELS[i.field],
      message: `${i.message}${suffix}`,
    });
    // A refused row reports all its problems at once, so that the file can be fixed in one go.
    const problems = record ? rowIssues.map((i) => issueOf(i)) : [...rowIssues, ...rowWarnings].map((i) => issueOf(i));
    if (record) {
      const earlier = firstLine.get(record.student_no);
      if (earlier !== undefined) {
        problems.push({
          row: line,
          field: FIELD_LABELS.studentNo,
          message: `学号在文件中重复（与第 ${earlier} 行相同）`,
        });
      } else {
        firstLine.set(record.student_no, line);
      }
    }
    if (problems.length > 0) {
      rejected += 1;
      issueCount += problems.length;
      for (const p of problems) if (issues.length < MAX_ISSUES) issues.push(p);
      continue;
    }
    // Imported, with the optional values that were not valid left blank.
    warningCount += rowWarnings.length;
    for (const w of rowWarnings) if (warnings.length < MAX_ISSUES) warnings.push(issueOf(w, '，该项留空导入'));
    valid.push(record!);
    if (sample.length < SAMPLE_ROWS) {
      sample.push({
        row: line,
        studentNo: record!.student_no,
        name: record!.name,
        gender: record!.gender,
        college: record!.college,
        major: record!.major,
        className: record!.class_name,
        grade: record!.grade,
        status: record!.status,
        phone: maskPhone(record!.phone),
        idCard: maskIdCard(record!.id_card),
        dormitory: record!.dormitory,
      });
    }
  }

  const existing = valid.length
    ? await db
        .selectFrom('njit_students')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('student_no', '=', sql<string>`any(${valid.map((v) => v.student_no)}::text[])`)
        .executeTakeFirstOrThrow()
    : { n: 0 };
  const toUpdate = Number(existing.n);

  const id = crypto.randomBytes(18).toString('base64url');
  const expiresAt = new Date(Date.now() + STAGING_MINUTES * 60_000);
  await db.transaction().execute(async (trx) => {
    // One pending import per uploader: a new upload replaces the previous preview.
    await trx.deleteFrom('njit_import_staging').where('user_id', '=', actor.id).execute();
    await trx
      .insertInto('njit_import_staging')
      .values({
        id,
        user_id: actor.id,
        file_name: fileName,
        total_rows: parsed.rows.length,
        rejected_rows: rejected,
        rows: JSON.stringify(valid),
        expires_at: expiresAt,
      })
      .execute();
  });

  return {
    importId: id,
    fileName,
    format: parsed.format,
    encoding: parsed.encoding,
    totalRows: parsed.rows.length,
    validRows: valid.length,
    rejectedRows: rejected,
    toInsert: valid.length - toUpdate,
    toUpdate,
    issues,
    issueCount,
    warnings,
    warningCount,
    sample,
    columns: parsed.columns,
    expiresAt: expiresAt.toISOString(),
  };
}

export async function commitImport(db: Kysely<DB>, actor: Actor, importId: string): Promise<ImportSummary> {
  const summary = await applyImport(db, actor, importId);
  // Fresh planner statistics after a bulk change: without them a filter search on 100k rows
  // picks a poor plan (measured 13 ms instead of 4). The embedded database has no autovacuum.
  if (summary.inserted + summary.updated >= 1000) await sql`vacuum (analyze) njit_students`.execute(db);
  return summary;
}

async function applyImport(db: Kysely<DB>, actor: Actor, importId: string): Promise<ImportSummary> {
  return db.transaction().execute(async (trx) => {
    const staged = await trx
      .selectFrom('njit_import_staging')
      .select(['id', 'file_name', 'total_rows', 'rejected_rows'])
      .where('id', '=', importId)
      .where('user_id', '=', actor.id)
      .where('expires_at', '>', sql<Date>`now()`)
      .forUpdate()
      .executeTakeFirst();
    if (!staged) throw notFound('导入批次不存在或已过期，请重新上传文件');

    // The rows never come back to Node: Postgres expands the staged JSON and upserts in one statement.
    // xmax = 0 marks a freshly inserted row; a conflict-updated row carries the updating transaction.
    const { rows } = await sql<{ inserted: number; updated: number }>`
      with src as (
        select r.* from njit_import_staging s,
          jsonb_to_recordset(s.rows) as r(
            student_no text, name text, name_pinyin text, name_initials text, gender text, college text,
            major text, class_name text, grade integer, status text, phone text, id_card text, dormitory text)
        where s.id = ${importId}
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
      )
      select count(*) filter (where inserted)::int as inserted, count(*) filter (where not inserted)::int as updated from up`.execute(
      trx,
    );
    const { inserted, updated } = rows[0];

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
    await recordNjitAudit(trx, actor, {
      action: 'import',
      criteria: { fileName: staged.file_name, importId: history.id },
      resultCount: inserted + updated,
      reason: null,
    });
    return importSummary(history);
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
