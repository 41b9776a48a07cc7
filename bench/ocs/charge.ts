/**
 * `npm run bench:ocs-charge`: what charging a batch of answers costs in the embedded database
 * (a temporary directory, durable commits as the server makes them), through chargeMany as the server
 * calls it: ms per batch and µs per charge for batches of 1, 10, 25, 50 and 100 charges to 50 users in
 * turn (a user per connection, as under load), each charge an answer read from memory (it carries its
 * question's version). Two kinds take turns call by call, so the machine's drift falls on both alike:
 * labelled with the bank's generation of now, as the server's charges of answers from memory are (the
 * question's row is not read), and unlabelled (each question's row read): the ratio is what the
 * generation saves. BENCH_QUESTIONS questions (default 20,000), BENCH_CALLS calls per kind and size
 * (default 400), BENCH_ROUNDS rounds (default 2).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../../server/db/database';
import { VERSION_SQL } from '../../server/modules/ocs/bank/index-sync';
import { credit } from '../../server/modules/ocs/wallet/balance';
import { chargeMany, type ChargeInput } from '../../server/modules/ocs/wallet/charge';
import { createUser } from '../../server/modules/user/service';
import { mulberry32 } from '../lib/random';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SIZES = [1, 10, 25, 50, 100];
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 20_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const USERS = 50;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-charge-'));
  const database = await openDatabase({ pgDataDir: dir });
  const db = database.db;
  try {
    await migrateToLatest(db);
    const users: number[] = [];
    for (let i = 0; i < USERS; i++) {
      const u = await createUser(db, { username: `bench-charge-${i}`, password: 'bench-password-123' });
      await credit(db, u.id, 'topup', 1_000_000_000, 'bench');
      users.push(u.id);
    }
    await sql`insert into ocs_questions (title, title_hash, options_hash, norm_title, type, answer, source)
              select 'bench ' || g, md5('bench ' || g), '', 'bench ' || g, 'single', '["A"]'::jsonb, 'import'
                from generate_series(1, ${QUESTIONS}::int) g`.execute(db);
    await sql`vacuum (analyze) ocs_questions`.execute(db);
    const generation = Number((await sql<{ n: string }>`select n from ocs_bank_generation`.execute(db)).rows[0]!.n);
    const questions = (
      await sql<{ id: string; version: string }>`select id, ${VERSION_SQL} as version from ocs_questions`.execute(db)
    ).rows.map((r) => ({ id: Number(r.id), version: Number(r.version) }));
    const random = mulberry32(14);
    let k = 0;
    const batch = (size: number, labelled: boolean): ChargeInput[] =>
      Array.from({ length: size }, () => {
        const q = questions[Math.floor(random() * questions.length)]!;
        k++;
        return {
          userId: users[k % USERS]!,
          tokenId: null,
          price: 1,
          // A new key each time: no free repeat.
          key: `bench-${k}`,
          title: `bench ${q.id}`,
          type: 'single',
          outcome: 'bank',
          questionId: q.id,
          modelId: null,
          answer: '["A"]',
          version: q.version,
          ...(labelled ? { generation } : {}),
          source: 'import',
          confidence: 0.95,
        };
      });
    console.log(`charges of ${QUESTIONS.toLocaleString('en')} questions to ${USERS} users, ${CALLS} calls per cell`);
    console.log(
      '| batch | round | labelled ms/batch | µs/charge | unlabelled ms/batch | µs/charge | labelled ÷ unlabelled |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (let round = 1; round <= ROUNDS; round++) {
      for (const size of SIZES) {
        const times = { labelled: [] as number[], unlabelled: [] as number[] };
        for (let call = 0; call < CALLS; call++) {
          // Turns call by call, the order flipped every other call.
          const order = call % 2 ? (['labelled', 'unlabelled'] as const) : (['unlabelled', 'labelled'] as const);
          for (const kind of order) {
            const list = batch(size, kind === 'labelled');
            const t0 = performance.now();
            const results = await chargeMany(db, list);
            times[kind].push(performance.now() - t0);
            if (results.some((r) => r.status !== 'charged')) throw new Error('a bench charge was not charged');
          }
        }
        const l = median(times.labelled);
        const u = median(times.unlabelled);
        console.log(
          `| ${size} | ${round} | ${l.toFixed(2)} | ${((l * 1000) / size).toFixed(0)} | ${u.toFixed(2)} | ${((u * 1000) / size).toFixed(0)} | ${(l / u).toFixed(2)} |`,
        );
      }
    }
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
