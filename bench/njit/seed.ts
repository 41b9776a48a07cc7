/**
 * `npm run seed:njit [-- N]`: loads N (default 2,000) synthetic students into the configured database
 * through the same preview/commit path as an upload, recorded as an import by the first administrator.
 * Run it against a stopped server: it takes the DATA_DIR lock like the server does, and refuses while
 * a server holds it. No real personal data is involved.
 */
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../server/config';
import { DataDirLockedError, lockDataDir } from '../../server/db/datadir-lock';
import { migrateToLatest, openDatabase } from '../../server/db/database';
import { commitImport } from '../../server/modules/njit/imports';
import { previewRoster } from './preview';
import { syntheticCsv, syntheticStudents } from './synthetic';

async function main() {
  const count = Number(process.argv[2] ?? 2000);
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000)
    throw new Error('usage: npm run seed:njit -- <1..1000000>');
  const config = loadConfig();
  let lock;
  if (!config.DATABASE_URL) {
    try {
      lock = lockDataDir(config.dataDir);
    } catch (err) {
      if (err instanceof DataDirLockedError) {
        console.error(`${err.message}\nStop the server first, then run the seed again.`);
        process.exit(2);
      }
      throw err;
    }
  }
  const database = await openDatabase(
    config.DATABASE_URL ? { url: config.DATABASE_URL } : { pgDataDir: path.join(config.dataDir, 'pgdata') },
  );
  try {
    await migrateToLatest(database.db);
    const admin = await database.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where(sql<boolean>`'admin' = any(roles)`)
      .where('status', '=', 'active')
      .orderBy('id')
      .executeTakeFirst();
    if (!admin) throw new Error('No administrator yet: start the server once (it creates admin), stop it, then seed.');
    const actor = { id: admin.id, username: admin.username, ip: null };
    const csv = Buffer.from(syntheticCsv(syntheticStudents(count, { seed: Date.now() % 100000 })));
    const preview = await previewRoster(database.db, actor, `synthetic-${count}.csv`, csv);
    const summary = await commitImport(database.db, actor, preview.importId);
    console.log(
      `seeded ${count} synthetic students: ${summary.inserted} inserted, ${summary.updated} updated (as ${admin.username})`,
    );
  } finally {
    await database.close();
    lock?.release();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
