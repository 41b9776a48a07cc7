/**
 * OCS: a charge batch checks its users once, itself, instead of twice through the triggers of the
 * query log's and the ledger's inserts (issue 14).
 *
 * The user check of 0023/0024 is a statement-level trigger on each of the two tables: per charge batch
 * two trigger calls, each with two statements of its own (the shared advisory locks, then the count of
 * missing users) over a transition table. On the embedded database that was 0.3-0.6 ms of a batch
 * statement of ~1.5-2.5 ms (measured with the triggers off, call by call in turns with them on).
 *
 * ocs_charge_many() now does what the check does, once for the whole batch, in statements it runs
 * anyway: the shared advisory lock on each distinct user is taken beside the charge's own lock on them
 * (same statement, same user order), and the missing users are counted in the statement that locks the
 * wallets, whose snapshot is taken once the locks are granted (read committed). A missing user fails
 * the call with the check's error (23503) before anything is written. Then, under read committed only,
 * it sets portal.ocs_users_checked to 'on' for its own inserts: the two triggers skip their call when
 * it is on (a WHEN condition), and the function sets it back to '' as soon as its inserts have run
 * (their after-statement triggers fire at the end of that statement, inside the function). If the
 * inserts fail, the (sub)transaction's abort undoes the setting. Under repeatable read or serializable
 * the setting stays off and the triggers keep 0024's row lock.
 *
 * The lock order also gets simpler: the batch takes the user's shared lock before the wallet's row lock,
 * the order in which deleting a user takes them (its exclusive lock first, then the wallet's cascade).
 */
import { sql, type Kysely } from 'kysely';
import { CHARGE_MANY_SIGNATURE, editedDefinition } from './0021_ocs_bank_generation';

const TABLES = ['ocs_queries', 'ocs_ledger'] as const;

/** The setting ocs_charge_many() turns on for its inserts; the triggers skip their check while it is on. */
const USERS_CHECKED = 'portal.ocs_users_checked';

const LOCKS_BEFORE =
  "    perform pg_advisory_xact_lock(hashtext('ocs_charge'), d.x) from (select distinct x from unnest(p_user) x order by x) d;\n";
const LOCKS_AFTER =
  "    -- The user check's shared lock (0024) with the charge's own, per user in user order (0025).\n" +
  "    perform pg_advisory_xact_lock(hashtext('ocs_charge'), d.x), pg_advisory_xact_lock_shared(hashtext('ocs_user_rows'), d.x)\n" +
  '       from (select distinct x from unnest(p_user) x order by x) d;\n';

const WALLETS_BEFORE = `    select coalesce(array_agg(w.user_id order by w.user_id), '{}'), coalesce(array_agg(w.balance order by w.user_id), '{}')
      into v_wallets, v_balance
`;
const WALLETS_AFTER = `    -- And the users that are not there (0025): this statement's snapshot comes after the locks above.
    select coalesce(array_agg(w.user_id order by w.user_id), '{}'), coalesce(array_agg(w.balance order by w.user_id), '{}'),
           (select count(*) from (select distinct x from unnest(p_user) x) d
             where not exists (select 1 from users u where u.id = d.x))
      into v_wallets, v_balance, v_missing
`;

const GENERATION_BEFORE = "    -- The bank's generation (0021)";
const GENERATION_AFTER =
  '    if v_missing > 0 then\n' +
  "      raise foreign_key_violation using message = 'insert into ocs_queries: a user_id is not in users';\n" +
  '    end if;\n' +
  GENERATION_BEFORE;

const RETURN_BEFORE = '    return query\n';
const RETURN_AFTER =
  "    -- Checked above: the inserts' triggers skip their own check (read committed only, 0025).\n" +
  "    if current_setting('transaction_isolation') = 'read committed' then\n" +
  `      v_checked := set_config('${USERS_CHECKED}', 'on', true);\n` +
  '    end if;\n' +
  RETURN_BEFORE;

const END_BEFORE = '  end $function$';
const END_AFTER = `    v_checked := set_config('${USERS_CHECKED}', '', true);\n` + END_BEFORE;

/** From 0021's definition to this one; each `from` occurs exactly once in the text it edits. */
const EDITS: Array<[from: string, to: string]> = [
  ['    v_generation bigint;\n', '    v_generation bigint;\n    v_missing bigint;\n    v_checked text;\n'],
  [LOCKS_BEFORE, LOCKS_AFTER],
  [WALLETS_BEFORE, WALLETS_AFTER],
  [GENERATION_BEFORE, GENERATION_AFTER],
  [RETURN_BEFORE, RETURN_AFTER],
  [END_BEFORE, END_AFTER],
];

/** Replaces the function's definition by itself with these edits made (same parameters and result). */
async function redefine(db: Kysely<any>, edits: Array<[string, string]>): Promise<void> {
  await sql.raw(await editedDefinition(db, CHARGE_MANY_SIGNATURE, edits)).execute(db);
}

/** The user check's trigger on `table` (0023), with or without the condition that skips it. */
async function userCheckTrigger(db: Kysely<any>, table: string, skippable: boolean): Promise<void> {
  const name = sql.raw(`${table}_user_exists`);
  const when = skippable ? sql.raw(`when (current_setting('${USERS_CHECKED}', true) is distinct from 'on')`) : sql``;
  await sql`drop trigger ${name} on ${sql.table(table)}`.execute(db);
  await sql`create trigger ${name} after insert on ${sql.table(table)}
      referencing new table as new_rows for each statement ${when} execute function ocs_rows_user_exists()`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await userCheckTrigger(db, table, true);
  await redefine(db, EDITS);
}

export async function down(db: Kysely<any>): Promise<void> {
  await redefine(
    db,
    EDITS.map(([a, b]) => [b, a]),
  );
  for (const table of TABLES) await userCheckTrigger(db, table, false);
}
