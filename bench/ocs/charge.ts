/**
 * `npm run bench:ocs-charge`: what charging a batch costs in the database, set-wise (ocs_charge_many,
 * migration 0015) against element by element (migration 0012's version, created beside it under another
 * name: charge-reference.ts), in the same run on the same embedded database (a temporary directory,
 * durable commits as the server makes them); and set-wise with each charge labelled with the bank's
 * generation of now (migration 0021: the question's row is not read), as the server's charges of
 * answers from memory are; and that last one with the user check of the query log's and the ledger's
 * rows as it was before: holding the user by a lock on their row (migration 0024 undone for the turn),
 * and the foreign keys to users (0023 undone too: a look-up of the user per row written, instead of
 * one check per statement). And labelled once more, with the answer read as the server reads it: one
 * packed text value instead of a row per charge (chargeManyPacked).
 *
 * One user with a large balance, BENCH_QUESTIONS questions (default 20,000), charged in random order;
 * each charge carries a question version (an answer read from memory, as exact hits are) and a new key
 * (no free repeat). For batches of 1, 10, 25, 50 and 100 charges, the six take turns, in reverse
 * order every other round (BENCH_ROUNDS rounds, default 2, of about 5,000 charges each) and the bench reports ms per batch, µs per charge,
 * set-wise ÷ element-wise, labelled ÷ set-wise, labelled ÷ labelled with the row lock and with the keys,
 * and packed ÷ labelled.
 *
 * Then migration 0025 (the batch's users checked once by the function, not by the triggers of its two
 * inserts): its definition before 0025, under another name (which leaves the triggers' check on), and
 * the current one, packed and labelled as the server calls them, taking turns call by call (BENCH_CALLS
 * calls each, default 600, per batch size and round), so the machine's drift falls on both alike. Its
 * charges go to 50 users in turn, as the server's bench batches do (a user per connection): the
 * check's cost is per distinct user of a batch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../../server/db/database';
import { migrations } from '../../server/db/migrations';
import { CHARGE_MANY_SIGNATURE, editedDefinition } from '../../server/db/migrations/0021_ocs_bank_generation';
import { VERSION_SQL } from '../../server/modules/ocs/bank/index-sync';
import { credit } from '../../server/modules/ocs/wallet/balance';
import { chargeManyCall, chargeManyPacked, type ChargeInput } from '../../server/modules/ocs/wallet/charge';
import { createUser } from '../../server/modules/user/service';
import { mulberry32 } from '../lib/random';
import { createElementWiseCharge, ELEMENT_WISE } from './charge-reference';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SIZES = [1, 10, 25, 50, 100];
const PER_CELL = 5_000;
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 20_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 600);
/** Users the last section's charges go to in turn. */
const USERS = 50;
/** ocs_charge_many as it was before migration 0025, created beside it. */
const TRIGGER_CHECKED = 'ocs_charge_many_trigger_checked';

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-charge-'));
  const database = await openDatabase({ pgDataDir: dir });
  const db = database.db;
  try {
    await migrateToLatest(db);
    await createElementWiseCharge(db);
    const user = await createUser(db, { username: 'bench-charge', password: 'bench-password-123' });
    await credit(db, user.id, 'topup', 1_000_000_000, 'bench');
    await sql`insert into ocs_questions (title, title_hash, options_hash, norm_title, type, answer, source)
              select 'bench ' || g, md5('bench ' || g), '', 'bench ' || g, 'single', '["A"]'::jsonb, 'import'
                from generate_series(1, ${QUESTIONS}::int) g`.execute(db);
    await sql`vacuum (analyze) ocs_questions`.execute(db);
    const generation = Number((await sql<{ n: string }>`select n from ocs_bank_generation`.execute(db)).rows[0]!.n);
    const questions = (
      await sql<{ id: string; version: string }>`
        select id, ${VERSION_SQL} as version from ocs_questions`.execute(db)
    ).rows.map((r) => ({ id: Number(r.id), version: Number(r.version) }));
    const random = mulberry32(14);
    let k = 0;
    let labelled = false;
    /** The users charges go to in turn (the last section's: the check's cost is per distinct user); empty: `user`. */
    const users: number[] = [];
    const charge = (): ChargeInput => {
      const q = questions[Math.floor(random() * questions.length)]!;
      k++;
      return {
        userId: users.length ? users[k % users.length]! : user.id,
        tokenId: 1,
        price: 1,
        key: `bench-key-${k}`,
        title: `基准测试题目 ${k}：下列说法正确的是`,
        type: 'single',
        outcome: 'bank',
        questionId: q.id,
        modelId: null,
        answer: 'A',
        source: 'import',
        confidence: 0.9,
        version: q.version,
        ...(labelled ? { generation } : {}),
      };
    };
    /** ms per batch; `packed`: the answer as one text value, as the server reads it (ocs_charge_many only). */
    const time = async (fn: string, size: number, label = false, packed = false) => {
      labelled = label;
      const call = (list: ChargeInput[]) =>
        packed ? db.executeQuery(chargeManyPacked(list)) : chargeManyCall(list, fn).execute(db);
      const batches = Math.max(50, Math.round(PER_CELL / size));
      for (let i = 0; i < 10; i++) await call(Array.from({ length: size }, charge));
      const t0 = performance.now();
      for (let i = 0; i < batches; i++) await call(Array.from({ length: size }, charge));
      return (performance.now() - t0) / batches;
    };
    console.log(`OCS charge bench (PGlite, ${os.cpus().length} CPUs): ms per batch (µs per charge)\n`);
    console.log(`${QUESTIONS.toLocaleString('en-US')} questions\n`);
    const userCheck = migrations['0023_ocs_user_check_per_statement']!;
    const advisoryCheck = migrations['0024_ocs_user_check_advisory']!;
    /** A turn with migrations undone (in this order, redone in the other; outside the timing). */
    const without = async (undone: Array<typeof userCheck>, size: number) => {
      for (const m of undone) await m.down!(db);
      try {
        return await time('ocs_charge_many', size, true);
      } finally {
        for (const m of [...undone].reverse()) await m.up(db);
      }
    };
    console.log(
      '| batch | round | element-wise (0012) | set-wise (0015) | set ÷ element | labelled (0021) | labelled ÷ set | labelled, row-lock check (0023) | labelled ÷ row lock | labelled, per-row keys (0006) | labelled ÷ with keys | labelled, packed answer | packed ÷ labelled |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const size of SIZES) {
      for (let round = 1; round <= ROUNDS; round++) {
        // Odd rounds in one order, even rounds in the other: each cell writes to the query log, and a
        // version that always ran later would always meet a larger log.
        const runs = [
          () => time(ELEMENT_WISE, size),
          () => time('ocs_charge_many', size),
          () => time('ocs_charge_many', size, true),
          () => without([advisoryCheck], size),
          // The foreign keys back for this turn only (validating them is outside the timing).
          () => without([advisoryCheck, userCheck], size),
          () => time('ocs_charge_many', size, true, true),
        ];
        const ms: number[] = [];
        for (const i of round % 2 ? [0, 1, 2, 3, 4, 5] : [5, 4, 3, 2, 1, 0]) ms[i] = await runs[i]!();
        const [element, set, label, rowLocked, keyed, packed] = ms as [number, number, number, number, number, number];
        const cell = (ms: number) => `${ms.toFixed(2)} (${Math.round((ms / size) * 1000)})`;
        console.log(
          `| ${size} | ${round} | ${cell(element)} | ${cell(set)} | ${(set / element).toFixed(2)} | ${cell(label)} | ${(label / set).toFixed(2)} | ${cell(rowLocked)} | ${(label / rowLocked).toFixed(2)} | ${cell(keyed)} | ${(label / keyed).toFixed(2)} | ${cell(packed)} | ${(packed / label).toFixed(2)} |`,
        );
      }
    }
    const checksUsers = migrations['0025_ocs_charge_checks_users']!;
    await checksUsers.down!(db);
    const before = await editedDefinition(db, CHARGE_MANY_SIGNATURE, []);
    await checksUsers.up(db);
    await sql.raw(before.replace('public.ocs_charge_many(', `public.${TRIGGER_CHECKED}(`)).execute(db);
    labelled = true;
    // As the server's batches: a user per connection, so about as many users as charges in a batch.
    for (let i = 0; i < USERS; i++) {
      const u = await createUser(db, { username: `bench-charge-${i}`, password: 'bench-password-123' });
      await credit(db, u.id, 'topup', 1_000_000_000, 'bench');
      users.push(u.id);
    }
    const packedAs = (fn: string, size: number) => {
      const c = chargeManyPacked(Array.from({ length: size }, charge));
      return db.executeQuery(CompiledQuery.raw(c.sql.replace('ocs_charge_many(', `${fn}(`), [...c.parameters]));
    };
    console.log(
      '\nUsers checked by the function (0025) or by the triggers of its inserts (before 0025), call by call in turns; µs per charge\n',
    );
    console.log('| batch | round | checked by the function (0025) | by the triggers | 0025 ÷ triggers |');
    console.log('|---|---|---|---|---|');
    for (const size of [1, 20, 50]) {
      for (let round = 1; round <= ROUNDS; round++) {
        const spent = { now: 0, triggers: 0 };
        for (let i = 0; i < CALLS + 10; i++) {
          for (const [key, fn] of [
            ['now', 'ocs_charge_many'],
            ['triggers', TRIGGER_CHECKED],
          ] as const) {
            const t0 = performance.now();
            await packedAs(fn, size);
            // The first ten of each: plans and caches warm up.
            if (i >= 10) spent[key] += performance.now() - t0;
          }
        }
        const us = (ms: number) => Math.round((ms / CALLS / size) * 1000);
        console.log(
          `| ${size} | ${round} | ${us(spent.now)} | ${us(spent.triggers)} | ${(spent.now / spent.triggers).toFixed(2)} |`,
        );
      }
    }
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
