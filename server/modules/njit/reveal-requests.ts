/**
 * Four-eyes reveals. With NJIT_REVEAL_APPROVAL naming a field, an administrator who wants it in full
 * asks (field, student, reason); another administrator approves or refuses; once approved the requester
 * may see the value for NJIT_REVEAL_APPROVAL_MINUTES. Nobody decides their own request (the update
 * itself requires another decider, so no race lets it through), the value is read from the student's
 * record at the moment it is shown and never stored here, and every step is in the audit trail.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { FieldLevels, RevealField, RevealRequest } from '../../../src/contract';
import type { DB, NjitRevealRequestsTable } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../errors';
import type { Actor } from '../audit';
import { recordNjitAudit } from './audit';
import { showField } from './policy';
import { sensitiveValue } from './record';

type Row = Selectable<NjitRevealRequestsTable> & { student_name: string; student_no: string };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A request as the caller sees it: the student's name and number as their field levels show them. */
function toRequest(r: Row, levels: FieldLevels): RevealRequest {
  return {
    id: r.id,
    studentId: r.student_id,
    studentName: showField('name', r.student_name, levels),
    studentNo: showField('studentNo', r.student_no, levels),
    field: r.field,
    reason: r.reason,
    requesterName: r.requester_name,
    status: r.status,
    deciderName: r.decider_name,
    decidedAt: iso(r.decided_at),
    expiresAt: iso(r.expires_at),
    createdAt: r.created_at.toISOString(),
  };
}

function withStudent(db: Kysely<DB>) {
  return db
    .selectFrom('njit_reveal_requests as r')
    .innerJoin('njit_students as s', 's.id', 'r.student_id')
    .selectAll('r')
    .select(['s.name as student_name', 's.student_no as student_no']);
}

async function byId(db: Kysely<DB>, id: number): Promise<Row | undefined> {
  return withStudent(db).where('r.id', '=', id).executeTakeFirst();
}

/**
 * Asks for `field` of a student in full. A second request while one is pending is that same request
 * (one pending per requester, student and field, kept by a unique index).
 */
export async function requestReveal(
  db: Kysely<DB>,
  actor: Actor,
  studentId: number,
  field: RevealField,
  reason: string,
  levels: FieldLevels,
): Promise<RevealRequest> {
  const student = await db.selectFrom('njit_students').select('id').where('id', '=', studentId).executeTakeFirst();
  if (!student) throw notFound('学生不存在');
  const made = await db
    .insertInto('njit_reveal_requests')
    .values({ student_id: studentId, field, reason, requester_id: actor.id, requester_name: actor.username })
    // The index's predicate written out, not a parameter: once the embedded database plans the statement
    // generically (after a few runs) a parameter no longer matches the partial unique index.
    .onConflict((oc) =>
      oc.columns(['requester_id', 'student_id', 'field']).where('status', '=', sql.lit('pending')).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  const id =
    made?.id ??
    (
      await db
        .selectFrom('njit_reveal_requests')
        .select('id')
        .where('requester_id', '=', actor.id)
        .where('student_id', '=', studentId)
        .where('field', '=', field)
        .where('status', '=', 'pending')
        .executeTakeFirstOrThrow()
    ).id;
  if (made) {
    await recordNjitAudit(db, actor, {
      action: 'reveal_request',
      criteria: { id: studentId, field, request: id },
      recordIds: [studentId],
      reason,
    });
  }
  return toRequest((await byId(db, id))!, levels);
}

export async function listRevealRequests(
  db: Kysely<DB>,
  actor: Actor,
  q: { scope: 'mine' | 'pending'; current: number; pageSize: number },
  levels: FieldLevels,
): Promise<{ rows: RevealRequest[]; total: number }> {
  const scoped =
    q.scope === 'mine'
      ? withStudent(db).where('r.requester_id', '=', actor.id)
      : withStudent(db).where('r.status', '=', 'pending').where('r.requester_id', '<>', actor.id);
  const [rows, total] = await Promise.all([
    scoped
      .orderBy('r.id', 'desc')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
    scoped
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => toRequest(r, levels)), total: Number(total.n) };
}

/** Approves or refuses another administrator's pending request. */
export async function decideReveal(
  db: Kysely<DB>,
  actor: Actor,
  id: number,
  decision: 'approve' | 'refuse',
  minutes: number,
  levels: FieldLevels,
): Promise<RevealRequest> {
  const decided = await db
    .updateTable('njit_reveal_requests')
    .set({
      status: decision === 'approve' ? 'approved' : 'refused',
      decider_id: actor.id,
      decider_name: actor.username,
      decided_at: sql<Date>`now()`,
      expires_at: decision === 'approve' ? sql<Date>`now() + make_interval(mins => ${minutes})` : null,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('requester_id', '<>', actor.id)
    .returning(['id', 'student_id', 'field'])
    .executeTakeFirst();
  if (!decided) {
    const row = await db
      .selectFrom('njit_reveal_requests')
      .select(['requester_id', 'status'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('申请不存在');
    if (row.requester_id === actor.id) throw forbidden('不能审批自己的申请：请另一位管理员审批');
    throw conflict(row.status === 'approved' ? '该申请已被批准' : '该申请已被拒绝');
  }
  await recordNjitAudit(db, actor, {
    action: 'reveal_decide',
    criteria: { id: decided.student_id, field: decided.field, request: id, decision },
    recordIds: [decided.student_id],
  });
  return toRequest((await byId(db, id))!, levels);
}

/** The value of an approved request, for its requester, while the approval lasts. */
export async function revealApproved(
  db: Kysely<DB>,
  actor: Actor,
  id: number,
  /** Throws when the caller's field policy hides the field (policy.ts assertRevealable). */
  assertRevealable: (field: RevealField) => void = () => {},
): Promise<{ field: RevealField; value: string | null }> {
  const row = await db
    .selectFrom('njit_reveal_requests as r')
    .innerJoin('njit_students as s', 's.id', 'r.student_id')
    .select([
      'r.student_id',
      'r.field',
      'r.reason',
      'r.status',
      'r.requester_id',
      's.phone',
      's.id_card',
      sql<boolean>`r.expires_at > now()`.as('valid'),
    ])
    .where('r.id', '=', id)
    .executeTakeFirst();
  // Someone else's request is as unknown as a missing one: its existence is not the caller's business.
  if (!row || row.requester_id !== actor.id) throw notFound('申请不存在');
  if (row.status === 'pending') throw conflict('申请尚未批准：请等待另一位管理员审批');
  if (row.status === 'refused') throw conflict('申请已被拒绝');
  if (!row.valid) throw conflict('批准已过期：如仍需查看，请重新申请');
  assertRevealable(row.field);
  await recordNjitAudit(db, actor, {
    action: 'reveal',
    criteria: { id: row.student_id, field: row.field, request: id },
    resultCount: 1,
    recordIds: [row.student_id],
    reason: row.reason,
  });
  return { field: row.field, value: sensitiveValue(row, row.field) };
}
