/**
 * NJIT student lookup: search with at least one criterion, detail, reveal of one sensitive field,
 * filter options and the overview. Every lookup is rate-limited per user and audited; phones and
 * ID-card numbers leave here masked, except through reveal.
 */
import { sql, type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder } from 'kysely';
import {
  DEFAULT_FIELD_LEVELS,
  NJIT_MAX_TOTAL,
  SEARCH_LIMIT,
  type RevealField,
  type Student,
  type StudentSearchQuery,
} from '../../../src/contract';
import type { DB, NjitStudentsTable } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import type { Actor } from '../audit';
import {
  assertUnderLimit,
  checkLookupLimit,
  effectiveLimit,
  queryUsage,
  recentLookups,
  recordNjitAudit,
} from './audit';
import { sensitiveValue } from './record';
import { assertCriteria, assertRevealable, inScope, showStudent, type Policy } from './policy';
import { escapeLike, prefixUpperBound } from '../../lib/sql';
import { GENERIC_PLAN_HINT } from '../../db/pglite-driver';

/** Today's behaviour: phone and ID masked, the rest in full, every student. */
const DEFAULT_POLICY: Policy = { levels: DEFAULT_FIELD_LEVELS, scope: null };

type RawStudent = Omit<Selectable<NjitStudentsTable>, 'name_pinyin' | 'name_initials' | 'created_at' | 'left_at'>;

/** A row as the default policy shows it (phone and ID masked, the rest in full). */
export function toStudent(r: RawStudent): Student {
  return showStudent(r, DEFAULT_FIELD_LEVELS);
}

/** The columns of a student's record as the pages show it (through the caller's field policy). */
export const COLUMNS = [
  'id',
  'student_no',
  'name',
  'gender',
  'college',
  'major',
  'class_name',
  'grade',
  'status',
  'phone',
  'id_card',
  'dormitory',
  'updated_at',
] as const;

const CRITERIA = ['studentNo', 'name', 'college', 'major', 'className', 'grade', 'status'] as const;

/** The criteria actually given, for the audit row and the empty-query check. */
export function criteriaOf(q: Omit<StudentSearchQuery, 'nameMode'> & { nameMode: NameMode }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of CRITERIA) if (q[k] !== undefined) out[k] = q[k];
  if (q.studentNo) out.studentNoMode = q.studentNoMode;
  if (q.name) out.nameMode = q.nameMode;
  return out;
}

type Where = SelectQueryBuilder<DB, 'njit_students', object>;

/**
 * `column` starts with `prefix`: the `like` that decides, and the same prefix as a byte-order range on
 * the column's text_pattern_ops index, which a generic plan can use (it cannot use `like $1`).
 */
function startsWith(
  column: 'student_no' | 'name' | 'name_pinyin' | 'name_initials',
  prefix: string,
): RawBuilder<boolean> {
  const like = sql<boolean>`${sql.ref(column)} like ${`${escapeLike(prefix)}%`}`;
  const bound = prefixUpperBound(prefix);
  if (bound === null) return like;
  return sql<boolean>`(${sql.ref(column)} ~>=~ ${prefix} and ${sql.ref(column)} ~<~ ${bound} and ${like})`;
}

/**
 * How a name is matched: `fuzzy` (the lookup page's default) finds a Chinese name containing the text,
 * `exact` the name itself, and `prefix` (the header's search) a name starting with it. Latin input
 * searches the pinyin keys (a prefix unless exact); anything else the Chinese name.
 */
type NameMode = StudentSearchQuery['nameMode'] | 'prefix';

/**
 * exactRank (fuzzy modes only) sorts exact matches first. byName (prefix on a Chinese name only): the
 * page is read in the order of the name's index, where the name itself comes before every longer one,
 * so the walk stops after a page instead of sorting every student whose name starts with 张.
 */
function nameFilter(
  qb: Where,
  name: string,
  mode: NameMode,
): { qb: Where; exactRank: RawBuilder<boolean> | null; prefix?: boolean; byName?: boolean } {
  if (/^[A-Za-z\s']+$/.test(name)) {
    const key = name.toLowerCase().replace(/[^a-z]/g, '');
    if (mode === 'exact') {
      return {
        qb: qb.where((eb) => eb.or([eb('name_pinyin', '=', key), eb('name_initials', '=', key)])),
        exactRank: null,
      };
    }
    return {
      prefix: true,
      qb: qb.where((eb) => eb.or([startsWith('name_pinyin', key), startsWith('name_initials', key)])),
      exactRank: sql<boolean>`(name_pinyin = ${key} or name_initials = ${key})`,
    };
  }
  if (mode === 'exact') return { qb: qb.where('name', '=', name), exactRank: null };
  if (mode === 'prefix') {
    return {
      qb: qb.where(startsWith('name', name)),
      exactRank: sql<boolean>`(name = ${name})`,
      prefix: true,
      byName: true,
    };
  }
  return { qb: qb.where('name', 'like', `%${escapeLike(name)}%`), exactRank: sql<boolean>`(name = ${name})` };
}

/** A page of a search by number or name: few matches, read from the table and sorted. */
function rankedPage(qb: Where, rank: RawBuilder<boolean> | null, pageSize: number, offset: number, byName = false) {
  const ranked = qb.select([...COLUMNS, (rank ?? sql<boolean>`false`).as('exact_first')]);
  // `using ~<~` is the order of the name's text_pattern_ops index (the one a prefix range walks).
  const ordered = byName ? ranked.orderBy(sql`name using ~<~`) : ranked.orderBy('exact_first', 'desc');
  return ordered.orderBy('student_no').limit(pageSize).offset(offset);
}

/**
 * A page of a filter-only search (college, major, class, grade, status), which may match thousands:
 * the page's student numbers first, from an index alone where the criteria allow (the filter indexes
 * end in student_no: migration 0009), then only those rows from the table (student_no is unique).
 * Reading every match from the table to sort it was what made this search slower than the others.
 */
function filteredPage(db: Kysely<DB>, qb: Where, pageSize: number, offset: number) {
  const page = qb.select('student_no').orderBy('student_no').limit(pageSize).offset(offset);
  return db
    .selectFrom(page.as('p'))
    .innerJoin('njit_students as s', 's.student_no', 'p.student_no')
    .select([...COLUMNS.map((c) => `s.${c}` as const), sql<boolean>`false`.as('exact_first')]);
}

/**
 * The totals this instance counted, by search criteria, each with the roster token it was counted under
 * (njit_roster, changed by a trigger with every write to njit_students: migration 0019). A search hands
 * its entry to the statement, which counts again only if the token it reads, in the same snapshot as
 * the page, is another. So paging through a filter that matches thousands counts them once, and an
 * import on any instance makes every instance count again. The most recently used `max` are kept.
 */
export class SearchTotals {
  private readonly entries = new Map<string, { token: string; total: number }>();

  constructor(private readonly max = 1000) {}

  get(key: string): { token: string; total: number } | null {
    const e = this.entries.get(key);
    if (!e) return null;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  put(key: string, entry: { token: string; total: number }): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

export async function searchStudents(
  db: Kysely<DB>,
  actor: Actor,
  q: Omit<StudentSearchQuery, 'nameMode'> & { nameMode: NameMode },
  limitPerMinute: number,
  totals?: SearchTotals,
  /** false: no total is counted (the header's search shows a handful and no pages); total is the rows'. */
  countTotal = true,
  /** The caller's field policy and row scope (policy.ts); by default today's: masked phone and ID, no scope. */
  policy: Policy = DEFAULT_POLICY,
): Promise<{ rows: Student[]; total: number; capped: boolean }> {
  const criteria = criteriaOf(q);
  if (Object.keys(criteria).length === 0) {
    throw badRequest('请至少输入一个查询条件（学号、姓名、学院、专业、班级、年级或状态）');
  }
  assertCriteria(criteria, policy.levels);
  const offset = (q.current - 1) * q.pageSize;
  if (offset >= NJIT_MAX_TOTAL) throw badRequest(`最多只能查看前 ${NJIT_MAX_TOTAL} 条结果，请缩小查询范围`);
  let qb: Where = db.selectFrom('njit_students');
  if (policy.scope) qb = qb.where(inScope(policy.scope));
  if (q.studentNo) {
    qb =
      q.studentNoMode === 'exact'
        ? qb.where('student_no', '=', q.studentNo)
        : qb.where(startsWith('student_no', q.studentNo));
  }
  const numberPrefix = Boolean(q.studentNo) && q.studentNoMode !== 'exact';
  let rank: RawBuilder<boolean> | null = null;
  let prefix = numberPrefix;
  let byName = false;
  if (q.name) {
    const f = nameFilter(qb, q.name, q.nameMode);
    ({ qb, exactRank: rank } = f);
    prefix ||= f.prefix === true;
    byName = f.byName === true;
  }
  if (q.college) qb = qb.where('college', '=', q.college);
  if (q.major) qb = qb.where('major', '=', q.major);
  if (q.className) qb = qb.where('class_name', '=', q.className);
  if (q.grade !== undefined) qb = qb.where('grade', '=', q.grade);
  if (q.status) qb = qb.where('status', '=', q.status);

  // One statement for the rate-limit check, the page, the (capped) total and the audit row: on the
  // embedded database every statement queues behind one connection, so round trips are what a search
  // costs. The audit row is written only when the user is under the limit; that row is what the
  // limit counts next time. The total is counted unless `totals` (none: always) has one for these
  // criteria under the roster's current token (a scalar sub-select in a case branch not taken is never run).
  const limit = effectiveLimit(limitPerMinute);
  // A number prefix alone may match hundreds: like a filter, its page comes from the index first.
  const byIndex = !q.name && (!q.studentNo || numberPrefix);
  const hits = byIndex ? filteredPage(db, qb, q.pageSize, offset) : rankedPage(qb, rank, q.pageSize, offset, byName);
  const counted = qb.select(sql`1`.as('x')).limit(NJIT_MAX_TOTAL + 1);
  // A scoped caller's total is their scope's: it must not stand for another's under the same criteria.
  const totalKey = JSON.stringify(policy.scope ? { criteria, scope: policy.scope } : criteria);
  const known = totals?.get(totalKey);
  const auditCriteria = JSON.stringify({ ...criteria, current: q.current, pageSize: q.pageSize });
  // A prefix search is planned once, as a range on the prefix (startsWith): Postgres would otherwise
  // plan it anew on every call (~1 ms, more than running it), since `like $n` alone gives a generic
  // plan no index. The embedded database honours the hint; elsewhere it is a comment.
  const { rows } = await sql<{
    recent: number;
    retry: number;
    total: number;
    token: string;
    rows: (RawStudent & { exact_first: boolean })[];
  }>`${sql.raw(prefix ? GENERIC_PLAN_HINT : '')}
    with recent as (${recentLookups(actor.id, limitPerMinute)}),
    allowed as (select n < ${limit} as ok from recent),
    roster as (select token::text from njit_roster),
    hits as (${hits}),
    total as (select case
        when not (select ok from allowed) then 0
        when not ${countTotal}::boolean then (select count(*)::int from hits)
        when (select token from roster) = ${known?.token ?? null}::text then ${known?.total ?? 0}::int
        else (select count(*)::int from (${counted}) t)
      end as n),
    audit as (
      insert into njit_audit (user_id, user_name, action, ip, criteria, result_count, record_ids)
      select ${actor.id}, ${actor.username}, 'search', ${actor.ip}, ${auditCriteria}::jsonb, least(n, ${NJIT_MAX_TOTAL}),
        array(select id from hits order by exact_first desc, student_no)
      from total where (select ok from allowed)
    )
    select recent.n as recent, recent.retry, (select n from total) as total, (select token from roster) as token,
      case when (select ok from allowed)
        then coalesce((select json_agg(h order by h.exact_first desc, h.student_no) from hits h), '[]'::json)
        else '[]'::json end as rows
    from recent`.execute(db);
  assertUnderLimit(limitPerMinute, { n: rows[0].recent, retry: rows[0].retry });
  // A total the statement used as given is already filed (and get made it the most recent).
  if (rows[0].token !== known?.token) totals?.put(totalKey, { token: rows[0].token, total: rows[0].total });
  const capped = rows[0].total > NJIT_MAX_TOTAL;
  const total = Math.min(rows[0].total, NJIT_MAX_TOTAL);
  const shown = rows[0].rows.map((r) => showStudent({ ...r, updated_at: new Date(r.updated_at) }, policy.levels));
  return { rows: shown, total, capped };
}

export async function getStudent(
  db: Kysely<DB>,
  actor: Actor,
  id: number,
  limitPerMinute: number,
  policy: Policy,
): Promise<Student> {
  await checkLookupLimit(db, actor.id, limitPerMinute);
  // A student outside the caller's scope is answered like one that does not exist.
  const row = await db
    .selectFrom('njit_students')
    .select([...COLUMNS])
    .where('id', '=', id)
    .where(inScope(policy.scope))
    .executeTakeFirst();
  await recordNjitAudit(db, actor, {
    action: 'detail',
    criteria: { id },
    resultCount: row ? 1 : 0,
    recordIds: row ? [id] : [],
  });
  if (!row) throw notFound('学生不存在');
  return showStudent(row, policy.levels);
}

/** One full sensitive value, for an administrator who gave a reason. */
export async function revealField(
  db: Kysely<DB>,
  actor: Actor,
  id: number,
  field: RevealField,
  reason: string,
  policy: Policy,
): Promise<{ field: RevealField; value: string | null }> {
  assertRevealable(field, policy.levels);
  const row = await db
    .selectFrom('njit_students')
    .select(['phone', 'id_card'])
    .where('id', '=', id)
    .where(inScope(policy.scope))
    .executeTakeFirst();
  if (!row) throw notFound('学生不存在');
  await recordNjitAudit(db, actor, {
    action: 'reveal',
    criteria: { id, field },
    resultCount: 1,
    recordIds: [id],
    reason,
  });
  return { field, value: sensitiveValue(row, field) };
}

/**
 * The search form's choices among the students the caller may see (their row scope). A field the caller
 * may not filter on (not shown in full) offers no choices, and a major names its college only when the
 * college is shown in full: a list of values is as telling as the values themselves.
 */
export async function filterOptions(db: Kysely<DB>, policy: Policy = DEFAULT_POLICY) {
  const { levels, scope } = policy;
  const students = () => db.selectFrom('njit_students').where(inScope(scope));
  const withCollege = levels.college === 'full';
  const [colleges, majors, grades] = await Promise.all([
    withCollege
      ? students().select('college').distinct().where('college', 'is not', null).orderBy('college').execute()
      : [],
    levels.major !== 'full'
      ? []
      : withCollege
        ? students()
            .select(['college', 'major'])
            .distinct()
            .where('major', 'is not', null)
            .orderBy('college')
            .orderBy('major')
            .execute()
        : students()
            .select([sql<string | null>`null::text`.as('college'), 'major'])
            .distinct()
            .where('major', 'is not', null)
            .orderBy('major')
            .execute(),
    levels.grade === 'full'
      ? students().select('grade').distinct().where('grade', 'is not', null).orderBy('grade', 'desc').execute()
      : [],
  ]);
  return {
    colleges: colleges.map((c) => c.college!),
    majors: majors.map((m) => ({ college: m.college, major: m.major! })),
    grades: grades.map((g) => g.grade!),
  };
}

/**
 * Totals among the students the caller may see (their row scope). A distribution by a field the caller
 * does not see in full is left out of the answer: its values would tell what the policy withholds.
 */
export async function overview(
  db: Kysely<DB>,
  userId: number,
  tz: string,
  limitPerMinute: number,
  policy: Policy = DEFAULT_POLICY,
) {
  const { levels, scope } = policy;
  const students = () => db.selectFrom('njit_students').where(inScope(scope));
  const bucket = (col: 'college' | 'status') =>
    levels[col] !== 'full'
      ? null
      : students()
          .select([
            sql<string>`coalesce(${sql.ref(col)}, '未填写')`.as('name'),
            (eb) => eb.fn.countAll<number>().as('count'),
          ])
          .groupBy(col)
          .orderBy('count', 'desc')
          .execute();
  const [total, byCollege, byStatus, byGrade, last, usage] = await Promise.all([
    students()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    bucket('college'),
    bucket('status'),
    levels.grade !== 'full'
      ? null
      : students()
          .select([
            sql<string>`coalesce(grade::text, '未填写')`.as('name'),
            (eb) => eb.fn.countAll<number>().as('count'),
          ])
          .groupBy('grade')
          .orderBy('grade')
          .execute(),
    db.selectFrom('njit_imports').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst(),
    queryUsage(db, userId, tz),
  ]);
  const num = (rows: { name: string; count: number }[] | null) =>
    rows ? rows.map((r) => ({ name: r.name, count: Number(r.count) })) : undefined;
  return {
    total: Number(total.n),
    byCollege: num(byCollege),
    byGrade: num(byGrade),
    byStatus: num(byStatus),
    lastImport: last ? importSummary(last) : null,
    queriesToday: usage.today,
    queriesThisMinute: usage.thisMinute,
    queryLimitPerMinute: limitPerMinute,
  };
}

export function importSummary(r: {
  id: number;
  user_name: string;
  file_name: string;
  total_rows: number;
  inserted: number;
  updated: number;
  rejected: number;
  created_at: Date;
}) {
  return {
    id: r.id,
    userName: r.user_name,
    fileName: r.file_name,
    totalRows: r.total_rows,
    inserted: r.inserted,
    updated: r.updated,
    rejected: r.rejected,
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * The header's search: one text read as the start of what one types — a student number when it has a
 * digit, pinyin or initials when it is Latin letters, else a Chinese name — and run as the NJIT page's
 * search (rate limit, masking and the audit row included), a handful of rows. A Chinese name is matched
 * from its start here (the page's fuzzy search finds it anywhere in the name, counting every match).
 */
export function quickCriteria(q: string): { studentNo: string | undefined; name: string | undefined } {
  if (/^[A-Za-z0-9]+$/.test(q) && /\d/.test(q)) return { studentNo: q, name: undefined };
  return { studentNo: undefined, name: q };
}

export async function quickSearch(
  db: Kysely<DB>,
  actor: Actor,
  q: string,
  limitPerMinute: number,
  policy: Policy,
): Promise<Student[]> {
  const query = {
    current: 1,
    pageSize: SEARCH_LIMIT,
    studentNoMode: 'prefix' as const,
    // A name typed here is matched from its start, as the number and the pinyin are.
    nameMode: 'prefix' as const,
    college: undefined,
    major: undefined,
    className: undefined,
    ...quickCriteria(q),
  };
  // No shared totals: a handful counted here must never stand for the page search's total.
  return (await searchStudents(db, actor, query, limitPerMinute, undefined, false, policy)).rows;
}
