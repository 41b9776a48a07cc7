/**
 * Retention of students who left: a student who graduated or left (毕业, 退学) more than
 * NJIT_STUDENT_RETENTION_DAYS ago is erased, by the daily job or by an administrator's "purge now"
 * after the preview. The day of leaving is njit_students.left_at, which the database sets whenever a
 * row enters a leaving status (migration 0038).
 *
 * The whole row is deleted; no stub is kept. The audit trail names students only by their record id
 * (njit_audit.record_ids, an array without a foreign key, which a student's access report filters on),
 * and ids come from an identity column that never hands one out twice. So after a purge the audit rows
 * keep the bare id until the audit's own retention drops them: the report for that id still says who
 * searched, viewed or revealed the record, when and why, and the purge's own audit row lists it, while
 * nothing left tells who the person was. A stub would either keep something that identifies them (the
 * student number does) or be an empty row that every search, count and import must learn to skip.
 * Their four-eyes reveal requests go with the row (foreign key, on delete cascade); each of their steps
 * is in the audit trail as well.
 *
 * Exactly what the preview listed: both the preview and the purge select `left_at <= cutoff` with the
 * same instant (the preview hands its cutoff to the client, which sends it back with "purge now"; a
 * scheduled run uses the cutoff of its own moment). Nobody enters that set later, since a new leaver's
 * left_at is the time of leaving; a student who comes back to 在读 in between leaves it and is kept.
 *
 * Several at once (two clicks, two administrators, every instance's daily run on one PostgreSQL) need no
 * lock of their own, as with the audit's pruning: one DELETE statement erases the set, and a second one
 * that meets rows the first is deleting waits for it and then skips them. Each student is erased and
 * listed in a purge's audit row once; the later purge erases what was left, usually nobody.
 */
import { sql, type Kysely } from 'kysely';
import type { FieldLevels, PurgeCandidate, RetentionPreviewQuery } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { badRequest, conflict } from '../../errors';
import { recordNjitAudit, type NjitAuditActor } from './audit';
import { showField } from './policy';

const DAY_MS = 86_400_000;

/** The audit trail's name for the daily job. */
export const SCHEDULED_PURGE: NjitAuditActor = { id: null, username: '定时清除', ip: null };

/** Students who left at or before this instant are due. */
export const retentionCutoff = (days: number, now = Date.now()) => new Date(now - days * DAY_MS);

export interface RetentionPreviewPage {
  rows: PurgeCandidate[];
  total: number;
  cutoff: string | null;
  dueCount: number;
}

/**
 * Students due now (and, with withinDays, those due in the next days), the earliest leavers first.
 * Listing names is a lookup like a search: the page shown is audited with its record ids, and shown
 * as the caller's field levels allow (a hidden field left out, a masked one masked).
 */
export async function previewPurge(
  db: Kysely<DB>,
  actor: NjitAuditActor,
  days: number,
  q: RetentionPreviewQuery,
  levels: FieldLevels,
): Promise<RetentionPreviewPage> {
  if (days === 0) return { rows: [], total: 0, cutoff: null, dueCount: 0 };
  const cutoff = retentionCutoff(days);
  const until = new Date(cutoff.getTime() + q.withinDays * DAY_MS);
  const count = (upTo: Date) =>
    db
      .selectFrom('njit_students')
      .where('left_at', '<=', upTo)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
  const [listed, due, rows] = await Promise.all([
    count(until),
    count(cutoff),
    db
      .selectFrom('njit_students')
      .where('left_at', '<=', until)
      .select(['id', 'student_no', 'name', 'status', 'college', 'class_name', 'left_at'])
      .orderBy('left_at')
      .orderBy('id')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
  ]);
  await recordNjitAudit(db, actor, {
    action: 'purge_preview',
    criteria: { withinDays: q.withinDays, current: q.current, pageSize: q.pageSize },
    resultCount: Number(listed.n),
    recordIds: rows.map((r) => r.id),
  });
  return {
    total: Number(listed.n),
    dueCount: Number(due.n),
    cutoff: cutoff.toISOString(),
    rows: rows.map((r) => ({
      id: r.id,
      studentNo: showField('studentNo', r.student_no, levels),
      name: showField('name', r.name, levels),
      status: showField('status', r.status, levels),
      college: showField('college', r.college, levels),
      className: showField('className', r.class_name, levels),
      leftAt: r.left_at!.toISOString(),
      dueAt: new Date(r.left_at!.getTime() + days * DAY_MS).toISOString(),
    })),
  };
}

/** Erases every student who left at or before `cutoff`; returns their ids. */
async function purgeUpTo(
  db: Kysely<DB>,
  actor: NjitAuditActor,
  cutoff: Date,
  criteria: Record<string, unknown>,
): Promise<number[]> {
  return db.transaction().execute(async (trx) => {
    // The erased students' manual edits go with them (on delete cascade): that table's lock first, in the
    // order an import's commit takes the two (./imports.ts), so a purge and a commit never deadlock.
    await sql`lock table njit_student_edits in row exclusive mode`.execute(trx);
    const gone = await trx.deleteFrom('njit_students').where('left_at', '<=', cutoff).returning('id').execute();
    const ids = gone.map((r) => r.id).sort((a, b) => a - b);
    // An administrator's purge is always on record; the daily job only when it erased someone.
    if (ids.length > 0 || actor.id !== null) {
      await recordNjitAudit(trx, actor, {
        action: 'purge',
        criteria: { cutoff: cutoff.toISOString(), ...criteria },
        resultCount: ids.length,
        recordIds: ids,
      });
    }
    return ids;
  });
}

/** "Purge now" with the cutoff of the preview the administrator confirmed. */
export async function purgeNow(
  db: Kysely<DB>,
  actor: NjitAuditActor,
  days: number,
  cutoffIso: string,
): Promise<{ purged: number; cutoff: string }> {
  if (days === 0) throw conflict('未启用学生记录保留期限（NJIT_STUDENT_RETENTION_DAYS 为 0），没有可清除的记录');
  const cutoff = new Date(cutoffIso);
  if (cutoff.getTime() > retentionCutoff(days).getTime()) {
    const message = `清除时间点晚于保留期限（${days} 天）：只能清除已到期的记录，请刷新预览后重试`;
    throw badRequest(message, { cutoff: [message] });
  }
  const ids = await purgeUpTo(db, actor, cutoff, { retentionDays: days, trigger: 'manual' });
  return { purged: ids.length, cutoff: cutoff.toISOString() };
}

/** The daily job: erases whoever is due at this moment (nothing when retention is off). */
export async function scheduledPurge(db: Kysely<DB>, days: number): Promise<number> {
  if (days === 0) return 0;
  const ids = await purgeUpTo(db, SCHEDULED_PURGE, retentionCutoff(days), {
    retentionDays: days,
    trigger: 'scheduled',
  });
  return ids.length;
}
