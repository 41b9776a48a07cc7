/**
 * The njit audit trail (every search, detail view, reveal, import and audit export), the per-user
 * query rate limit counted over it, and retention pruning.
 */
import { sql, type Kysely } from 'kysely';
import { toCsv } from '../../lib/csv';
import {
  NJIT_AUDIT_CSV_HEADER,
  type NjitAuditAction,
  type NjitAuditEntry,
  type NjitAuditQuery,
} from '../../../src/contract';
import type { DB } from '../../db/schema';
import { tooMany } from '../../errors';
import type { Actor } from '../audit';

export interface NjitAuditInput {
  action: NjitAuditAction;
  criteria?: Record<string, unknown> | null;
  resultCount?: number | null;
  recordIds?: number[];
  reason?: string | null;
}

/** Who an audit row names: a user, or the server itself (no id) for its scheduled work. */
export type NjitAuditActor = Omit<Actor, 'id'> & { id: number | null };

export async function recordNjitAudit(db: Kysely<DB>, actor: NjitAuditActor, entry: NjitAuditInput): Promise<void> {
  await db
    .insertInto('njit_audit')
    .values({
      user_id: actor.id,
      user_name: actor.username,
      action: entry.action,
      ip: actor.ip,
      criteria: entry.criteria ? JSON.stringify(entry.criteria) : null,
      result_count: entry.resultCount ?? null,
      record_ids: entry.recordIds ?? [],
      reason: entry.reason ?? null,
    })
    .execute();
}

/** Lookups (searches and detail views) are what the per-user rate limit counts. */
export const LOOKUP_ACTIONS = ['search', 'detail'] as const;
/** The limit as a number to compare with; 0 in the config means no limit. */
export const effectiveLimit = (limit: number) => (limit > 0 ? limit : 2_147_483_647);

/**
 * The user's lookups in the last minute (a sliding window over the audit trail, which every instance
 * writes to), counted up to `limit` only, and the seconds until the oldest of them leaves the window.
 * limit <= 0 (no limit configured) skips the count.
 */
export function recentLookups(userId: number, limit: number) {
  if (limit <= 0) return sql<{ n: number; retry: number }>`select 0 as n, 0::float8 as retry`;
  return sql<{ n: number; retry: number }>`
    select count(*)::int as n,
      coalesce(extract(epoch from (min(created_at) + interval '1 minute' - now())), 0)::float8 as retry
    from (
      select created_at from njit_audit
      where user_id = ${userId} and action in ('search', 'detail') and created_at > now() - interval '1 minute'
      order by created_at desc
      limit ${limit}
    ) recent`;
}

export function assertUnderLimit(limit: number, recent: { n: number; retry: number }): void {
  if (limit > 0 && recent.n >= limit) {
    const seconds = Math.max(1, Math.ceil(recent.retry));
    throw tooMany(`查询过于频繁：每人每分钟最多 ${limit} 次查询，请 ${seconds} 秒后再试`, seconds);
  }
}

/** Throws 429 when the user already made `limit` lookups in the last minute. */
export async function checkLookupLimit(db: Kysely<DB>, userId: number, limit: number): Promise<void> {
  if (limit <= 0) return;
  const { rows } = await recentLookups(userId, limit).execute(db);
  assertUnderLimit(limit, rows[0]);
}

/** Lookups of one user today (PORTAL_TZ) and in the last minute. */
export async function queryUsage(
  db: Kysely<DB>,
  userId: number,
  tz: string,
): Promise<{ today: number; thisMinute: number }> {
  const [today, minute] = await Promise.all([
    db
      .selectFrom('njit_audit')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('action', 'in', LOOKUP_ACTIONS)
      .where('created_at', '>=', sql<Date>`date_trunc('day', now() at time zone ${tz}) at time zone ${tz}`)
      .executeTakeFirstOrThrow(),
    recentLookups(userId, 10_000).execute(db),
  ]);
  return { today: Number(today.n), thisMinute: minute.rows[0].n };
}

function filtered(db: Kysely<DB>, q: Omit<NjitAuditQuery, 'current' | 'pageSize'>) {
  let base = db.selectFrom('njit_audit');
  if (q.action) base = base.where('action', '=', q.action);
  if (q.userName) base = base.where('user_name', '=', q.userName);
  if (q.from) base = base.where('created_at', '>=', new Date(q.from));
  if (q.to) base = base.where('created_at', '<', new Date(q.to));
  // The array's GIN index (njit_audit_record_ids_idx) answers containment.
  if (q.studentId) base = base.where(sql<boolean>`record_ids @> array[${q.studentId}]::int[]`);
  return base;
}

type AuditRow = {
  id: number;
  user_id: number | null;
  user_name: string;
  action: string;
  ip: string | null;
  criteria: Record<string, unknown> | null;
  result_count: number | null;
  record_ids: number[];
  reason: string | null;
  created_at: Date;
};

function toEntry(r: AuditRow): NjitAuditEntry {
  return {
    id: Number(r.id),
    userId: r.user_id,
    userName: r.user_name,
    action: r.action,
    ip: r.ip,
    criteria: r.criteria,
    resultCount: r.result_count,
    recordIds: r.record_ids,
    reason: r.reason,
    createdAt: r.created_at.toISOString(),
  };
}

export async function listNjitAudit(
  db: Kysely<DB>,
  q: NjitAuditQuery,
): Promise<{ rows: NjitAuditEntry[]; total: number }> {
  const base = filtered(db, q);
  const [{ total }, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(q.pageSize)
      .offset((q.current - 1) * q.pageSize)
      .execute(),
  ]);
  return { total: Number(total), rows: rows.map(toEntry) };
}

export const AUDIT_EXPORT_MAX_ROWS = 100_000;

const ACTION_LABELS: Record<string, string> = {
  search: '查询',
  detail: '查看详情',
  reveal: '查看敏感字段',
  reveal_request: '申请查看敏感字段',
  reveal_decide: '审批查看申请',
  import: '导入',
  audit_export: '导出审计日志',
  purge_preview: '查看到期清除名单',
  purge: '清除到期学生记录',
  policy_change: '修改字段策略',
  scope_change: '修改查询范围',
  policy_preview: '按角色预览学生记录',
};

/** The filtered audit log as CSV (UTF-8 with BOM so Excel opens it correctly), newest first. */
export async function exportNjitAuditCsv(
  db: Kysely<DB>,
  q: Omit<NjitAuditQuery, 'current' | 'pageSize'>,
  /** The search criteria as the reader may see them (the field policy: policy.ts redactCriteria). */
  shownCriteria: (c: Record<string, unknown> | null) => Record<string, unknown> | null = (c) => c,
): Promise<{ csv: string; count: number }> {
  const rows = await filtered(db, q).selectAll().orderBy('id', 'desc').limit(AUDIT_EXPORT_MAX_ROWS).execute();
  const csv = toCsv(
    [...NJIT_AUDIT_CSV_HEADER],
    rows.map((r) => [
      r.id,
      r.created_at.toISOString(),
      r.user_name,
      ACTION_LABELS[r.action] ?? r.action,
      r.ip ?? '',
      r.criteria ? JSON.stringify(shownCriteria(r.criteria)) : '',
      r.result_count ?? '',
      r.record_ids.join(' '),
      r.reason ?? '',
    ]),
  );
  return { csv, count: rows.length };
}

/** Deletes audit rows past retention and expired staged imports. */
export async function pruneNjit(db: Kysely<DB>, retentionDays: number): Promise<{ audit: number }> {
  const audit = await db
    .deleteFrom('njit_audit')
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${retentionDays})`)
    .executeTakeFirst();
  await db
    .deleteFrom('njit_import_staging')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  return { audit: Number(audit.numDeletedRows) };
}
