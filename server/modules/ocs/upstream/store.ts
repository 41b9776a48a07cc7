/**
 * Administering upstream banks: create, change and delete them (validated: a usable JSONPath, a
 * unique name), the secret stored encrypted and shown only masked, and the list with each one's
 * figures (success and answer rates, average latency, last error, today's budget) and this instance's
 * circuit breaker. Every change is audited (without the secret).
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { z } from 'zod';
import type { Upstream, UpstreamBody, UpstreamPatchBody } from '../../../../src/contract';
import type { DB, OcsUpstreamsTable } from '../../../db/schema';
import { badRequest, conflict, notFound } from '../../../errors';
import { INWARD_ADMIN_URL, pointsInward } from '../../../lib/outbound';
import { maskSecret, type SecretBox } from '../../../lib/secretbox';
import { diff, recordAudit, type Actor } from '../../audit';
import type { CircuitBreaker } from './breaker';
import { checkAnswerPath } from './request';

export type UpstreamRow = Selectable<OcsUpstreamsTable> & {
  /** budget_day as YYYY-MM-DD (a date column's JavaScript form differs between the drivers). */
  budget_day_text: string | null;
};

const withDay = sql<string | null>`to_char(budget_day, 'YYYY-MM-DD')`.as('budget_day_text');

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const rate = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 1000) / 1000 : null);

export function toUpstream(r: UpstreamRow, breaker: CircuitBreaker | undefined, today: string): Upstream {
  const calls = Number(r.calls);
  const answered = Number(r.answered);
  const notFound = Number(r.not_found);
  const failures = Number(r.failures);
  const now = Date.now();
  const state = breaker?.state(now) ?? 'closed';
  return {
    id: Number(r.id),
    name: r.name,
    enabled: r.enabled,
    position: r.position,
    url: r.url,
    method: r.method,
    bodyType: r.body_type,
    headers: r.headers,
    data: r.data,
    answerPath: r.answer_path,
    secretMasked: r.secret_masked,
    timeoutMs: r.timeout_ms,
    price: r.price,
    dailyBudget: r.daily_budget,
    breakerThreshold: r.breaker_threshold,
    breakerCooldownSeconds: Math.round(r.breaker_cooldown_ms / 1000),
    stats: {
      calls,
      answered,
      notFound,
      failures,
      successRate: rate(answered + notFound, calls),
      answerRate: rate(answered, calls),
      avgLatencyMs: calls > 0 ? Math.round(Number(r.latency_ms_total) / calls) : null,
      lastLatencyMs: r.last_latency_ms,
      lastError: r.last_error,
      lastErrorAt: iso(r.last_error_at),
      lastOkAt: iso(r.last_ok_at),
      budgetUsedToday: r.budget_day_text === today ? r.budget_used : 0,
    },
    breaker: {
      state,
      consecutiveFailures: breaker?.failures ?? 0,
      openUntil: state === 'closed' || !breaker ? null : new Date(breaker.openUntil).toISOString(),
    },
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
  };
}

export async function listUpstreamRows(db: Kysely<DB>): Promise<UpstreamRow[]> {
  return db.selectFrom('ocs_upstreams').selectAll().select(withDay).orderBy('position').orderBy('id').execute();
}

export async function getUpstreamRow(db: Kysely<DB>, id: number): Promise<UpstreamRow> {
  const row = await db.selectFrom('ocs_upstreams').selectAll().select(withDay).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('上游题库不存在');
  return row;
}

/** PORTAL_TZ's today, as the budget counts days. */
export async function todayIn(db: Kysely<DB>, tz: string): Promise<string> {
  const r = await sql<{ d: string }>`select to_char((now() at time zone ${tz})::date, 'YYYY-MM-DD') as d`.execute(db);
  return r.rows[0]!.d;
}

type Patch = z.output<typeof UpstreamPatchBody>;

/**
 * An upstream's timeout may not pass the answering budget (OCS settings: 作答时限): past the budget the
 * script is told "not found" anyway, so a longer wait would only hold a call the user never sees.
 */
function checkTimeout(b: Patch, budgetSeconds: number): void {
  if (b.timeoutMs !== undefined && b.timeoutMs > budgetSeconds * 1000) {
    const msg = `超时不能超过作答时限 ${budgetSeconds} 秒（${budgetSeconds * 1000} 毫秒，见 OCS 设置）`;
    throw badRequest(msg, { timeoutMs: [msg] });
  }
}

function columns(b: Patch, secrets: SecretBox, budgetSeconds: number, allowlist: readonly string[]) {
  checkTimeout(b, budgetSeconds);
  if (b.answerPath !== undefined) {
    const problem = checkAnswerPath(b.answerPath);
    if (problem) throw badRequest(problem, { answerPath: [problem] });
  }
  if (b.url !== undefined && pointsInward(b.url, allowlist)) {
    throw badRequest(`接口地址${INWARD_ADMIN_URL}`, { url: [`接口地址${INWARD_ADMIN_URL}`] });
  }
  return {
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.enabled !== undefined ? { enabled: b.enabled } : {}),
    ...(b.position !== undefined ? { position: b.position } : {}),
    ...(b.url !== undefined ? { url: b.url } : {}),
    ...(b.method !== undefined ? { method: b.method } : {}),
    ...(b.bodyType !== undefined ? { body_type: b.bodyType } : {}),
    ...(b.headers !== undefined ? { headers: JSON.stringify(b.headers) } : {}),
    ...(b.data !== undefined ? { data: JSON.stringify(b.data) } : {}),
    ...(b.answerPath !== undefined ? { answer_path: b.answerPath } : {}),
    ...(b.secret !== undefined
      ? b.secret === null || b.secret === ''
        ? { secret_enc: null, secret_masked: null }
        : { secret_enc: secrets.encrypt(b.secret), secret_masked: maskSecret(b.secret) }
      : {}),
    ...(b.timeoutMs !== undefined ? { timeout_ms: b.timeoutMs } : {}),
    ...(b.price !== undefined ? { price: b.price } : {}),
    ...(b.dailyBudget !== undefined ? { daily_budget: b.dailyBudget } : {}),
    ...(b.breakerThreshold !== undefined ? { breaker_threshold: b.breakerThreshold } : {}),
    ...(b.breakerCooldownSeconds !== undefined ? { breaker_cooldown_ms: b.breakerCooldownSeconds * 1000 } : {}),
  };
}

/** What the audit log keeps of an upstream: its settings, the secret only as "set" or not. */
function audited(r: Selectable<OcsUpstreamsTable>) {
  return {
    name: r.name,
    enabled: r.enabled,
    position: r.position,
    url: r.url,
    method: r.method,
    answerPath: r.answer_path,
    secret: r.secret_masked ? '已设置' : '无',
    timeoutMs: r.timeout_ms,
    price: r.price,
    dailyBudget: r.daily_budget,
  };
}

const duplicate = (err: unknown) => {
  if ((err as { code?: string }).code === '23505') throw conflict('已有同名的上游题库', { name: ['名称已被使用'] });
  throw err;
};

export async function createUpstream(
  db: Kysely<DB>,
  secrets: SecretBox,
  actor: Actor,
  body: z.output<typeof UpstreamBody>,
  /** OCS settings' latencyBudgetSeconds. */
  budgetSeconds: number,
  allowlist: readonly string[],
): Promise<number> {
  const values = columns(body, secrets, budgetSeconds, allowlist) as ReturnType<typeof columns> & {
    name: string;
    url: string;
    method: 'get' | 'post';
    answer_path: string;
  };
  return db
    .transaction()
    .execute(async (trx) => {
      const row = await trx.insertInto('ocs_upstreams').values(values).returningAll().executeTakeFirstOrThrow();
      await recordAudit(trx, actor, {
        action: 'ocs.upstream.create',
        targetType: 'ocs_upstream',
        targetId: Number(row.id),
        targetName: row.name,
        after: audited(row),
      });
      return Number(row.id);
    })
    .catch(duplicate);
}

export async function updateUpstream(
  db: Kysely<DB>,
  secrets: SecretBox,
  actor: Actor,
  id: number,
  body: Patch,
  /** OCS settings' latencyBudgetSeconds. */
  budgetSeconds: number,
  allowlist: readonly string[],
): Promise<number> {
  return db
    .transaction()
    .execute(async (trx) => {
      const before = await trx
        .selectFrom('ocs_upstreams')
        .selectAll()
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw notFound('上游题库不存在');
      const row = await trx
        .updateTable('ocs_upstreams')
        .set({ ...columns(body, secrets, budgetSeconds, allowlist), updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const d = diff(audited(before), audited(row));
      if (Object.keys(d.after).length > 0) {
        await recordAudit(trx, actor, {
          action: 'ocs.upstream.update',
          targetType: 'ocs_upstream',
          targetId: id,
          targetName: row.name,
          ...d,
        });
      }
      return id;
    })
    .catch(duplicate);
}

export async function deleteUpstream(db: Kysely<DB>, actor: Actor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.deleteFrom('ocs_upstreams').where('id', '=', id).returningAll().executeTakeFirst();
    if (!row) throw notFound('上游题库不存在');
    await recordAudit(trx, actor, {
      action: 'ocs.upstream.delete',
      targetType: 'ocs_upstream',
      targetId: id,
      targetName: row.name,
      before: audited(row),
    });
  });
}
