/**
 * The NJIT field policy and row scope, in one place: what a caller's NJIT roles let them see of each
 * student field (full, masked or hidden; the most permissive of their roles), which students they may
 * see at all (a counselor's or teacher's colleges and classes), and the functions every path that
 * returns student data calls: `policyFor` once per request, then `showStudent` per row, `assertCriteria`
 * before a search, `inScope` in its query, `assertRevealable` before a reveal, `redactCriteria` on audit rows.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool, type Transaction } from 'kysely';
import { notifierOf } from '../../db/notify';
import {
  DEFAULT_FIELD_LEVELS,
  FIELD_LEVEL_LABELS,
  NJIT_ROLES,
  POLICY_FIELD_LABELS,
  POLICY_FIELDS,
  SCOPED_ROLES,
  type FieldLevel,
  type FieldLevels,
  type NjitRole,
  type PolicyField,
  type RoleFieldPolicy,
  type Student,
  type UserScope,
  type UserScopeBody,
} from '../../../src/contract';
import type { DB, NjitStudentsTable } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../errors';
import { recordNjitAudit } from './audit';
import type { Actor } from '../audit';
import { maskIdCard, maskPhone } from './record';

/** Which students a caller may see; null: every student. */
export interface RowScope {
  colleges: string[];
  classes: string[];
}

export interface Policy {
  levels: FieldLevels;
  scope: RowScope | null;
}

const RANK: Record<FieldLevel, number> = { hidden: 0, masked: 1, full: 2 };

/** Every field hidden: a caller with no NJIT role sees nothing (the access check stops them earlier). */
const NOTHING = Object.fromEntries(POLICY_FIELDS.map((f) => [f, 'hidden'])) as FieldLevels;

const njitRolesOf = (roles: readonly string[]) =>
  roles.filter((r): r is NjitRole => (NJIT_ROLES as readonly string[]).includes(r));

/** Plain njit and administrators are never limited; a counselor or teacher is, once given a scope. */
const mayBeScoped = (roles: readonly string[]) => !roles.includes('admin') && !roles.includes('njit');

/** Every role's levels and every limited user's scope: two small tables, held per instance. */
interface Snapshot {
  levels: Map<string, FieldLevels>;
  scopes: Map<number, RowScope>;
}

const CHANNEL = 'portal_njit_policy';

async function loadSnapshot(db: Kysely<DB>): Promise<Snapshot> {
  const { rows } = await sql<{ levels: [string, string, FieldLevel][]; scopes: [number, string[], string[]][] }>`
    select coalesce((select json_agg(json_build_array(role, field, level)) from njit_field_policy), '[]'::json) as levels,
      coalesce((select json_agg(json_build_array(user_id, colleges, classes)) from njit_user_scopes
        where cardinality(colleges) > 0 or cardinality(classes) > 0), '[]'::json) as scopes`.execute(db);
  const levels = new Map<string, FieldLevels>();
  for (const [role, field, level] of rows[0].levels) {
    if (!levels.has(role)) levels.set(role, { ...NOTHING });
    levels.get(role)![field as PolicyField] = level;
  }
  const scopes = new Map(rows[0].scopes.map(([id, colleges, classes]) => [id, { colleges, classes }]));
  return { levels, scopes };
}

/**
 * The policy as this instance last read it, so a search costs no extra statement. A change drops it
 * here at once and on every other instance through the database's notifier (sent in the change's
 * transaction); a read that started before a change is never kept after it (the generation), and
 * while the notifier cannot promise delivery nothing is served from memory.
 */
class PolicyCache {
  private snapshot: Snapshot | null = null;
  private generation = 0;
  private listening: Promise<void> | null = null;

  constructor(private readonly db: Kysely<DB>) {}

  async get(): Promise<Snapshot> {
    const notifier = notifierOf(this.db);
    this.listening ??= notifier.listen(CHANNEL, { onMessage: () => this.drop(), onGap: () => this.drop() });
    await this.listening;
    if (this.snapshot && notifier.live) return this.snapshot;
    const generation = this.generation;
    const snapshot = await loadSnapshot(this.db);
    if (generation === this.generation && notifier.live) this.snapshot = snapshot;
    return snapshot;
  }

  drop(): void {
    this.generation++;
    this.snapshot = null;
  }
}

const caches = new WeakMap<Kysely<DB>, PolicyCache>();
const cacheOf = (db: Kysely<DB>) => {
  let c = caches.get(db);
  if (!c) caches.set(db, (c = new PolicyCache(db)));
  return c;
};

/** Runs a change of the policy or a scope, telling every instance in its transaction, and forgets it here. */
async function changePolicy(db: Kysely<DB>, change: (trx: Transaction<DB>) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await change(trx);
    await notifierOf(db).notify(CHANNEL, 'changed', trx);
  });
  cacheOf(db).drop();
}

/** The caller's levels (the most permissive of their NJIT roles, field by field) and row scope. */
export async function policyFor(db: Kysely<DB>, user: { id: number; roles: readonly string[] }): Promise<Policy> {
  const snapshot = await cacheOf(db).get();
  const levels = { ...NOTHING };
  for (const role of njitRolesOf(user.roles)) {
    const own = snapshot.levels.get(role);
    if (!own) continue;
    for (const f of POLICY_FIELDS) if (RANK[own[f]] > RANK[levels[f]]) levels[f] = own[f];
  }
  const scope = mayBeScoped(user.roles) ? (snapshot.scopes.get(user.id) ?? null) : null;
  return { levels, scope };
}

/** A mask for text that has no mask of its own: the first quarter kept (at least one character). */
export function maskText(value: string | null): string | null {
  if (!value) return value;
  const chars = [...value];
  const keep = Math.max(1, Math.floor(chars.length / 4));
  return chars.slice(0, keep).join('') + '*'.repeat(Math.max(1, chars.length - keep));
}

function masked(field: PolicyField, value: string | number | null): string | number | null {
  if (field === 'phone') return maskPhone(value as string | null);
  if (field === 'idCard') return maskIdCard(value as string | null);
  return maskText(value === null ? null : String(value));
}

type RawStudent = Pick<
  NjitStudentsTable,
  | 'student_no'
  | 'name'
  | 'gender'
  | 'college'
  | 'major'
  | 'class_name'
  | 'grade'
  | 'status'
  | 'phone'
  | 'id_card'
  | 'dormitory'
> & { id: number; updated_at: Date };

/** The table's column of each student field (the policy's, and the corrections' by hand in ./edits.ts). */
export const FIELD_COLUMNS = {
  studentNo: 'student_no',
  name: 'name',
  gender: 'gender',
  college: 'college',
  major: 'major',
  className: 'class_name',
  grade: 'grade',
  status: 'status',
  phone: 'phone',
  idCard: 'id_card',
  dormitory: 'dormitory',
} as const satisfies Record<PolicyField, keyof RawStudent>;

/**
 * One field's value as the levels show it: undefined when hidden (to be left out of the answer), masked,
 * or in full. For lists that name a student without being a search (the retention preview, reveal requests).
 */
export function showField<V extends string | number | null>(
  field: PolicyField,
  value: V,
  levels: FieldLevels,
): V | undefined {
  if (levels[field] === 'hidden') return undefined;
  return levels[field] === 'full' ? value : (masked(field, value) as V);
}

/** One stored row as the levels show it: a hidden field is left out of the object, not nulled. */
export function showStudent(r: RawStudent, levels: FieldLevels): Student {
  const out: Record<string, unknown> = { id: r.id };
  for (const f of POLICY_FIELDS) {
    const value = showField(f, r[FIELD_COLUMNS[f]] as string | number | null, levels);
    if (value !== undefined) out[f] = value;
  }
  out.updatedAt = r.updated_at.toISOString();
  return out as Student;
}

/** The search criteria that name a field, by the field they name. */
const CRITERION_FIELDS: Record<string, PolicyField> = {
  studentNo: 'studentNo',
  name: 'name',
  college: 'college',
  major: 'major',
  className: 'className',
  grade: 'grade',
  status: 'status',
};

/**
 * Filtering on a field one cannot see in full would tell its value (a search for 张三 that finds the
 * student whose name shows as 张*), so it is refused.
 */
export function assertCriteria(criteria: Record<string, unknown>, levels: FieldLevels): void {
  for (const key of Object.keys(criteria)) {
    const f = CRITERION_FIELDS[key];
    if (f && levels[f] !== 'full') {
      throw badRequest(
        `你的角色不能按「${POLICY_FIELD_LABELS[f]}」查询：该字段对你${FIELD_LEVEL_LABELS[levels[f]] === '隐藏' ? '隐藏' : '脱敏显示'}`,
        { [key]: [`无权按「${POLICY_FIELD_LABELS[f]}」查询`] },
      );
    }
  }
}

/** The scope as a condition on njit_students (true when unscoped). */
export function inScope(
  scope: RowScope | null,
  table: 'njit_students' | 's' = 'njit_students',
): (eb: ExpressionBuilder<any, any>) => Expression<SqlBool> {
  return (eb) => {
    if (!scope) return eb.lit(true);
    const ref = (c: string) => eb.ref(`${table}.${c}`);
    const parts: Expression<SqlBool>[] = [];
    if (scope.colleges.length > 0) parts.push(sql<SqlBool>`${ref('college')} = any(${scope.colleges}::text[])`);
    if (scope.classes.length > 0) parts.push(sql<SqlBool>`${ref('class_name')} = any(${scope.classes}::text[])`);
    return eb.or(parts);
  };
}

/** A hidden field is never shown in full: no reveal, no reveal request. */
export function assertRevealable(field: PolicyField, levels: FieldLevels): void {
  if (levels[field] === 'hidden') throw forbidden(`「${POLICY_FIELD_LABELS[field]}」对你的角色隐藏，不能查看`);
}

/** An audit row's search criteria as the reader's levels allow: hidden ones left out, masked ones masked. */
export function redactCriteria(
  criteria: Record<string, unknown> | null,
  levels: FieldLevels,
): Record<string, unknown> | null {
  if (!criteria) return criteria;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(criteria)) {
    const f = CRITERION_FIELDS[k];
    if (!f || levels[f] === 'full') out[k] = v;
    else if (levels[f] === 'masked') out[k] = masked(f, v as string | number | null);
  }
  return out;
}

// ---------- administration ----------

export async function readFieldPolicy(db: Kysely<DB>): Promise<RoleFieldPolicy[]> {
  const rows = await db.selectFrom('njit_field_policy').select(['role', 'field', 'level']).execute();
  return NJIT_ROLES.map((role) => {
    const fields = { ...DEFAULT_FIELD_LEVELS };
    for (const r of rows) if (r.role === role) fields[r.field as PolicyField] = r.level;
    return { role, fields };
  });
}

/** Replaces the levels of the roles given, in one statement; audited with before and after. */
export async function writeFieldPolicy(
  db: Kysely<DB>,
  actor: Actor,
  roles: RoleFieldPolicy[],
): Promise<RoleFieldPolicy[]> {
  await changePolicy(db, async (trx) => {
    const before = await readFieldPolicy(trx);
    await trx
      .insertInto('njit_field_policy')
      .values(roles.flatMap((r) => POLICY_FIELDS.map((field) => ({ role: r.role, field, level: r.fields[field] }))))
      .onConflict((oc) => oc.columns(['role', 'field']).doUpdateSet((eb) => ({ level: eb.ref('excluded.level') })))
      .execute();
    const changed = roles.map((r) => ({
      role: r.role,
      changes: POLICY_FIELDS.filter((f) => before.find((b) => b.role === r.role)!.fields[f] !== r.fields[f]).map(
        (f) => ({ field: f, from: before.find((b) => b.role === r.role)!.fields[f], to: r.fields[f] }),
      ),
    }));
    await recordNjitAudit(trx, actor, {
      action: 'policy_change',
      criteria: { roles: changed.filter((c) => c.changes.length > 0) },
      resultCount: 0,
      recordIds: [],
    });
  });
  return readFieldPolicy(db);
}

/** The levels one role has, as a caller with only that role would get them. */
export async function levelsOfRole(db: Kysely<DB>, role: NjitRole): Promise<FieldLevels> {
  return (await policyFor(db, { id: 0, roles: [role] })).levels;
}

const SCOPED_ROLE_LIST = [...SCOPED_ROLES] as string[];

export async function listUserScopes(db: Kysely<DB>): Promise<UserScope[]> {
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('njit_user_scopes as s', 's.user_id', 'u.id')
    .select(['u.id', 'u.username', 'u.nickname', 'u.roles', 's.colleges', 's.classes'])
    .where(sql<SqlBool>`u.roles && ${SCOPED_ROLE_LIST}::text[]`)
    .orderBy('u.username')
    .execute();
  return rows.map((r) => ({
    userId: r.id,
    username: r.username,
    nickname: r.nickname,
    roles: r.roles,
    colleges: r.colleges ?? [],
    classes: r.classes ?? [],
  }));
}

export async function setUserScope(
  db: Kysely<DB>,
  actor: Actor,
  userId: number,
  body: UserScopeBody,
): Promise<UserScope> {
  const user = await db.selectFrom('users').select(['id', 'roles']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound('用户不存在');
  if (!user.roles.some((r) => SCOPED_ROLE_LIST.includes(r))) {
    throw badRequest('只有辅导员（njit_counselor）或教师（njit_teacher）可以限定查询范围');
  }
  await changePolicy(db, async (trx) => {
    await trx
      .insertInto('njit_user_scopes')
      .values({ user_id: userId, colleges: body.colleges, classes: body.classes })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ colleges: body.colleges, classes: body.classes, updated_at: sql`now()` }),
      )
      .execute();
    await recordNjitAudit(trx, actor, {
      action: 'scope_change',
      criteria: { userId, colleges: body.colleges, classes: body.classes },
      resultCount: 0,
      recordIds: [],
    });
  });
  return (await listUserScopes(db)).find((u) => u.userId === userId)!;
}
