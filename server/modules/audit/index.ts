/**
 * The administrators' audit log: who did what to which target, with the changed fields before and
 * after. Shared by every module's admin actions (this file is the module's public API); written in
 * the same transaction as the change.
 */
import type { Kysely } from 'kysely';
import type { AuditEntry } from '../../../src/contract';
import type { DB } from '../../db/schema';

export interface Actor {
  id: number;
  username: string;
  ip: string | null;
}

export interface AuditInput {
  action: string;
  targetType: string;
  targetId?: string | number | null;
  targetName?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export async function recordAudit(db: Kysely<DB>, actor: Actor, entry: AuditInput): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: actor.id,
      actor_name: actor.username,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId == null ? null : String(entry.targetId),
      target_name: entry.targetName ?? null,
      before: entry.before ? JSON.stringify(entry.before) : null,
      after: entry.after ? JSON.stringify(entry.after) : null,
      ip: actor.ip,
    })
    .execute();
}

/** Only the fields whose value changed, as {before, after}. */
export function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (after[key] === undefined) continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}

export async function listAudit(
  db: Kysely<DB>,
  q: { current: number; pageSize: number; targetType?: string; targetId?: string; action?: string },
): Promise<{ rows: AuditEntry[]; total: number }> {
  let base = db.selectFrom('audit_log');
  if (q.targetType) base = base.where('target_type', '=', q.targetType);
  if (q.targetId) base = base.where('target_id', '=', q.targetId);
  if (q.action) base = base.where('action', '=', q.action);
  const [{ total }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
  ]);
  return {
    total: Number(total),
    rows: rows.map((r) => ({
      id: r.id,
      actorId: r.actor_id,
      actorName: r.actor_name,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      targetName: r.target_name,
      before: r.before,
      after: r.after,
      ip: r.ip,
      createdAt: r.created_at.toISOString(),
    })),
  };
}
