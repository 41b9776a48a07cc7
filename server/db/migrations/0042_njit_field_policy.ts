/**
 * NJIT field policy: per NJIT role and per student field, full / masked / hidden, seeded with what the
 * lookup did before (phone and ID number masked, the rest in full) for each NJIT role; and per user the
 * colleges and classes a counselor or teacher may look up (a user without a row, or with both lists
 * empty, is not limited). The levels are read once per request (server/modules/njit/policy.ts).
 */
import { sql, type Kysely } from 'kysely';

const FIELDS = [
  'studentNo',
  'name',
  'gender',
  'college',
  'major',
  'className',
  'grade',
  'status',
  'phone',
  'idCard',
  'dormitory',
];
const ROLES = ['njit', 'njit_counselor', 'njit_teacher'];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table njit_field_policy (
      role text not null check (role in ('njit', 'njit_counselor', 'njit_teacher')),
      field text not null check (field in (${sql.join(FIELDS.map((f) => sql.lit(f)))})),
      level text not null check (level in ('full', 'masked', 'hidden')),
      primary key (role, field),
      check (level <> 'masked' or field not in ('gender', 'grade', 'status'))
    )`.execute(db);
  const rows = ROLES.flatMap((role) =>
    FIELDS.map((field) => ({ role, field, level: field === 'phone' || field === 'idCard' ? 'masked' : 'full' })),
  );
  await db.insertInto('njit_field_policy').values(rows).execute();
  await sql`create table njit_user_scopes (
      user_id integer primary key references users(id) on delete cascade,
      colleges text[] not null default '{}',
      classes text[] not null default '{}',
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table njit_user_scopes`.execute(db);
  await sql`drop table njit_field_policy`.execute(db);
}
