/**
 * Corrections by hand and what a roster import would change. A field staff corrected is flagged in
 * njit_student_edits (migration 0041); the import's diff shows it next to the roster's value, and the
 * commit (./imports.ts) keeps it unless the importer takes the roster's value.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { z } from 'zod';
import {
  EDITABLE_FIELDS,
  type EditableField,
  type ImportDiffCounts,
  type ImportDiffItem,
  type ImportDiffQuery,
  type ManualEdit,
  type StudentDetail,
  type StudentEditBody,
  type StudentStatus,
} from '../../../src/contract';
import type { DB } from '../../db/schema';
import { notFound } from '../../errors';
import type { Actor } from '../audit';
import { recordNjitAudit } from './audit';
import { maskIdCard, maskPhone, nameKeys } from './record';
import { FIELD_COLUMNS } from './policy';
import { COLUMNS, toStudent } from './service';

type Value = string | number | null;

/** A value as the diff and the audit show it: text, phone and ID numbers masked. */
export function shownValue(field: EditableField, v: Value | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (field === 'phone') return maskPhone(String(v));
  if (field === 'idCard') return maskIdCard(String(v));
  return String(v);
}

/**
 * The valid rows of a staged import as a relation `r` (student_no and the editable columns, with the
 * name's search keys), expanded by Postgres from the staged JSON chunks: the rows never come to Node.
 */
export function stagedRows(importId: string): RawBuilder<unknown> {
  return sql`select r.* from njit_import_staging_chunks c,
      jsonb_to_recordset(c.rows) as r(
        student_no text, name text, name_pinyin text, name_initials text, gender text, college text,
        major text, class_name text, grade integer, status text, phone text, id_card text, dormitory text)
    where c.import_id = ${importId}`;
}

/** The uploader's own staged import, still valid; 404 otherwise. */
export async function stagedImport(db: Kysely<DB>, actor: Actor, importId: string, lock = false) {
  let q = db
    .selectFrom('njit_import_staging')
    .select(['id', 'file_name', 'total_rows', 'rejected_rows'])
    .where('id', '=', importId)
    .where('user_id', '=', actor.id)
    .where('expires_at', '>', sql<Date>`now()`);
  if (lock) q = q.forUpdate();
  const staged = await q.executeTakeFirst();
  if (!staged) throw notFound('导入批次不存在或已过期，请重新上传文件');
  return staged;
}

export async function manualEdits(db: Kysely<DB>, studentId: number): Promise<ManualEdit[]> {
  const rows = await db
    .selectFrom('njit_student_edits')
    .select(['field', 'user_name', 'edited_at'])
    .where('student_id', '=', studentId)
    .orderBy('field')
    .execute();
  return rows.map((r) => ({
    field: r.field as EditableField,
    userName: r.user_name,
    editedAt: r.edited_at.toISOString(),
  }));
}

/**
 * Corrects some fields of a student's record in one transaction: the fields whose value changes are
 * written, flagged as edited by hand, and audited with their values before and after (phone and ID
 * numbers masked: the audit, and its export, never hold them in full). Sending the stored value again
 * changes nothing.
 */
export async function editStudent(
  db: Kysely<DB>,
  actor: Actor,
  id: number,
  body: z.output<typeof StudentEditBody>,
): Promise<StudentDetail> {
  return db.transaction().execute(async (trx) => {
    // Before the student's row, as an import's commit does (./imports.ts): an edit and a commit never
    // wait for each other in opposite orders.
    await sql`lock table njit_student_edits in row exclusive mode`.execute(trx);
    const row = await trx
      .selectFrom('njit_students')
      .select([...COLUMNS])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound('学生不存在');
    const changed = EDITABLE_FIELDS.filter((f) => body[f] !== undefined && body[f] !== row[FIELD_COLUMNS[f]]);
    if (changed.length === 0) return { ...toStudent(row), manualEdits: await manualEdits(trx, id) };

    const set: Record<string, Value> = {};
    for (const f of changed) set[FIELD_COLUMNS[f]] = body[f] as Value;
    const updated = await trx
      .updateTable('njit_students')
      .set({ ...set, ...(body.name !== undefined && changed.includes('name') ? nameKeys(body.name) : {}) })
      .set({ updated_at: sql<Date>`now()` })
      .where('id', '=', id)
      .returning([...COLUMNS])
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('njit_student_edits')
      .values(changed.map((field) => ({ student_id: id, field, user_id: actor.id, user_name: actor.username })))
      .onConflict((oc) =>
        oc.columns(['student_id', 'field']).doUpdateSet({
          user_id: actor.id,
          user_name: actor.username,
          edited_at: sql<Date>`now()`,
        }),
      )
      .execute();
    const changes = Object.fromEntries(
      changed.map((f) => [
        f,
        {
          before: shownValue(f, row[FIELD_COLUMNS[f]] as Value),
          after: shownValue(f, updated[FIELD_COLUMNS[f]] as Value),
        },
      ]),
    );
    await recordNjitAudit(trx, actor, { action: 'edit', criteria: { id, changes }, resultCount: 1, recordIds: [id] });
    return { ...toStudent(updated), manualEdits: await manualEdits(trx, id) };
  });
}

/** The stored and roster columns, as rows `s` and `r`, differ. */
const differs = sql<boolean>`(${sql.join(
  EDITABLE_FIELDS.map((f) => sql`s.${sql.ref(FIELD_COLUMNS[f])}`),
)}) is distinct from (${sql.join(EDITABLE_FIELDS.map((f) => sql`r.${sql.ref(FIELD_COLUMNS[f])}`))})`;

/** Students who may go missing from a roster: those still on the books (leavers are not missing). */
export const PRESENT_STATUSES = ['在读', '休学'] as const satisfies readonly StudentStatus[];
export const present = sql<boolean>`s.status in (${sql.join(PRESENT_STATUSES.map((s) => sql.lit(s)))})`;

/**
 * A staged import against what is stored, one kind a page at a time (at 100,000 students nothing is
 * sent whole): changed students with their changed fields, new ones, and stored students still 在读 or
 * 休学 whom the roster does not list. The counts of each kind come with every page.
 */
export async function importDiff(
  db: Kysely<DB>,
  actor: Actor,
  importId: string,
  q: ImportDiffQuery,
): Promise<{ rows: ImportDiffItem[]; total: number; counts: ImportDiffCounts }> {
  await stagedImport(db, actor, importId);
  const offset = (q.current - 1) * q.pageSize;
  const src = stagedRows(importId);
  const counted = sql<Omit<ImportDiffCounts, 'manualConflicts'>>`
    with r as (${src}),
    changed as (select s.id, r.* from r join njit_students s on s.student_no = r.student_no where ${differs})
    select
      (select count(*)::int from r where not exists (select 1 from njit_students s where s.student_no = r.student_no)) as new,
      (select count(*)::int from changed) as changed,
      (select count(*)::int from njit_students s
        where ${present} and not exists (select 1 from r where r.student_no = s.student_no)) as missing`;
  // Fields corrected by hand whose value the roster would change.
  const conflicts = sql<{ n: number }>`
    with r as (${src})
    select count(*)::int as n from r join njit_students s on s.student_no = r.student_no
      join njit_student_edits e on e.student_id = s.id
    where ${sql.join(
      EDITABLE_FIELDS.map(
        (f) => sql`(e.field = ${f} and s.${sql.ref(FIELD_COLUMNS[f])} is distinct from r.${sql.ref(FIELD_COLUMNS[f])})`,
      ),
      sql` or `,
    )}`;

  type PageRow = {
    id: number | null;
    student_no: string;
    name: string;
    status: StudentStatus;
    stored: Record<string, Value> | null;
    roster: Record<string, Value> | null;
    edits: { field: EditableField; user_name: string }[];
  };
  let page: RawBuilder<PageRow>;
  if (q.kind === 'changed') {
    page = sql<PageRow>`
      with r as (${src})
      select s.id, s.student_no, s.name, s.status, to_jsonb(s) as stored, to_jsonb(r) as roster,
        coalesce((select jsonb_agg(jsonb_build_object('field', e.field, 'user_name', e.user_name))
          from njit_student_edits e where e.student_id = s.id), '[]'::jsonb) as edits
      from r join njit_students s on s.student_no = r.student_no
      where ${differs}
      order by s.student_no limit ${q.pageSize} offset ${offset}`;
  } else if (q.kind === 'new') {
    page = sql<PageRow>`
      with r as (${src})
      select null::int as id, r.student_no, r.name, coalesce(r.status, '在读') as status, null::jsonb as stored,
        null::jsonb as roster, '[]'::jsonb as edits
      from r where not exists (select 1 from njit_students s where s.student_no = r.student_no)
      order by r.student_no limit ${q.pageSize} offset ${offset}`;
  } else {
    page = sql<PageRow>`
      with r as (${src})
      select s.id, s.student_no, s.name, s.status, null::jsonb as stored, null::jsonb as roster, '[]'::jsonb as edits
      from njit_students s
      where ${present} and not exists (select 1 from r where r.student_no = s.student_no)
      order by s.student_no limit ${q.pageSize} offset ${offset}`;
  }
  const [counts, manual, rows] = await Promise.all([counted.execute(db), conflicts.execute(db), page.execute(db)]);
  const c = { ...counts.rows[0], manualConflicts: manual.rows[0].n };
  return {
    counts: c,
    total: c[q.kind],
    rows: rows.rows.map((r) => ({
      studentId: r.id,
      studentNo: r.student_no,
      name: r.name,
      status: r.status,
      changes: EDITABLE_FIELDS.flatMap((f) => {
        if (!r.stored || !r.roster) return [];
        const col = FIELD_COLUMNS[f];
        if (r.stored[col] === r.roster[col]) return [];
        const edit = r.edits.find((e) => e.field === f);
        return [
          {
            field: f,
            stored: shownValue(f, r.stored[col]),
            roster: shownValue(f, r.roster[col]),
            manual: Boolean(edit),
            editedBy: edit?.user_name ?? null,
          },
        ];
      }),
    })),
  };
}
