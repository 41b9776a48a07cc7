/**
 * OCS: the bank's generation, so the charge of an answer read from memory checks one row per batch
 * instead of one question per answer (issue 14).
 *
 * ocs_bank_generation holds one number, raised once by every transaction that updates or deletes bank
 * rows (or truncates the table; an INSERT of new rows leaves it as it is: a new row changes no answer
 * memory holds). It is raised inside the writing transaction, so it becomes visible exactly when the
 * change does: a snapshot that sees generation g sees every change of the bank up to g and none after.
 *
 * Memory labels each row with the generation of the snapshot it was read in (or last confirmed in).
 * ocs_charge_many() takes those labels as p_generation: an element whose label is the generation
 * now is as it was read, and the per-question check of its version (0015) is skipped; any other
 * element is checked as before. The function returns the generation it saw (r_generation), for the
 * caller to relabel the elements that passed: the check runs after the generation was read, so a row
 * it found unchanged was at its version at that generation (had it changed since, the generation
 * would have moved on, and no later statement would find the label current). p_generation defaults to null (every element checked),
 * so calls with the fifteen arguments of 0015 keep working. Nothing else of the function changes: the
 * new definition is the one in the database (0015's, as 0016 and 0018 left it) with the edits below.
 *
 * The generation row is a hot row, so it is raised at the very end of the transaction (a deferred
 * trigger, which runs at commit): a writer holds it only while committing, and takes no other lock
 * after it — raised at the changing statement instead, a transaction that went on to change another
 * question could deadlock with one holding that question and waiting for the generation.
 */
import { sql, type Kysely } from 'kysely';

const OLD =
  'ocs_charge_many(int[], int[], int[], text[], text[], text[], text[], bigint[], int[], text[], bigint[], text[], real[], int[], boolean[])';
/** ocs_charge_many's signature from this migration on (later ones edit the function in place). */
export const CHARGE_MANY_SIGNATURE = OLD.replace('boolean[])', 'boolean[], bigint[])');

/** The question check of 0015, as the database keeps the function's text. */
const CHECK_EACH = `    -- A version given: the question must still be as it was read (not marked wrong, not changed).
    select array_agg(t.v is null or exists (
             select 1 from ocs_questions q
             where q.id = t.q and q.status <> 'wrong'
               and (extract(epoch from q.updated_at) * 1000000)::bigint = t.v) order by t.o)
      into v_fresh from unnest(p_question, p_version) with ordinality t(q, v, o);
`;

/**
 * The check with the generation, read just before it. Read in a statement of its own: joined into the
 * check, the planner's guess of the generation table's size (it has never been analyzed when the
 * function is first planned, and the plan is kept) made the check a hashed subplan, a scan of every
 * question per call. A label that is the generation of now is as read; any other is looked at.
 */
const CHECK_UNLESS_LABELLED = `    -- The bank's generation (0021): a question read at it (so labelled by the caller) is as it was read.
    select g.n into v_generation from ocs_bank_generation g;
    -- A version given: the question must still be as it was read (not marked wrong, not changed).
    select array_agg(case
             when t.v is null or t.g = v_generation then true
             else exists (
               select 1 from ocs_questions q
                where q.id = t.q and q.status <> 'wrong'
                  and (extract(epoch from q.updated_at) * 1000000)::bigint = t.v)
           end order by t.o)
      into v_fresh from unnest(p_question, p_version, coalesce(p_generation, '{}')) with ordinality t(q, v, g, o);
`;

/** From 0018's definition to this one; each `from` occurs exactly once in the text it edits. */
const EDITS: Array<[from: string, to: string]> = [
  ['p_refuse boolean[])', 'p_refuse boolean[], p_generation bigint[] DEFAULT NULL::bigint[])'],
  ['r_cost integer)', 'r_cost integer, r_generation bigint)'],
  ['    v_fresh boolean[];\n', '    v_generation bigint;\n    v_fresh boolean[];\n'],
  [CHECK_EACH, CHECK_UNLESS_LABELLED],
  ['t.qid, t.c\n', 't.qid, t.c, v_generation\n'],
];

/**
 * The definition of the function `from` (a signature) as the database keeps it, with these edits made;
 * each edit's text must occur exactly once.
 */
export async function editedDefinition(
  db: Kysely<any>,
  from: string,
  edits: ReadonlyArray<readonly [string, string]>,
): Promise<string> {
  const r = await sql<{ def: string }>`select pg_get_functiondef(${from}::regprocedure) as def`.execute(db);
  let def = r.rows[0]!.def;
  for (const [a, b] of edits) {
    const at = def.indexOf(a);
    if (at < 0 || def.indexOf(a, at + 1) >= 0) throw new Error(`${from}: expected exactly one "${a}"`);
    def = def.slice(0, at) + b + def.slice(at + a.length);
  }
  return def;
}

/** Replaces the function `from` (a signature) by its definition with these edits made. */
async function redefine(db: Kysely<any>, from: string, edits: Array<[string, string]>): Promise<void> {
  const def = await editedDefinition(db, from, edits);
  // Other parameters and another result: a new function, not a replacement of the old one.
  await sql`drop function ${sql.raw(from)}`.execute(db);
  await sql.raw(def).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table ocs_bank_generation (
      id boolean primary key default true check (id),
      n bigint not null
    )`.execute(db);
  await sql`insert into ocs_bank_generation (id, n) values (true, 1)`.execute(db);
  // Once per transaction, at its commit: the first changed or removed row of it raises the generation.
  await sql`create function ocs_bank_changed() returns trigger language plpgsql as $$
    begin
      if coalesce(current_setting('portal.ocs_bank_changed', true), '') <> 'on' then
        perform set_config('portal.ocs_bank_changed', 'on', true);
        update ocs_bank_generation set n = n + 1;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create constraint trigger ocs_questions_generation after update or delete on ocs_questions
      deferrable initially deferred for each row execute function ocs_bank_changed()`.execute(db);
  await sql`create trigger ocs_questions_generation_truncate after truncate on ocs_questions
      for each statement execute function ocs_bank_changed()`.execute(db);
  await redefine(db, OLD, EDITS);
}

export async function down(db: Kysely<any>): Promise<void> {
  await redefine(
    db,
    CHARGE_MANY_SIGNATURE,
    EDITS.map(([a, b]) => [b, a]),
  );
  await sql`drop trigger ocs_questions_generation on ocs_questions`.execute(db);
  await sql`drop trigger ocs_questions_generation_truncate on ocs_questions`.execute(db);
  await sql`drop function ocs_bank_changed()`.execute(db);
  await sql`drop table ocs_bank_generation`.execute(db);
}
