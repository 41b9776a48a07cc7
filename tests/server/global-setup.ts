/**
 * Migrates one PGlite database per jest run and writes it as a tarball; each test file starts its own
 * PGlite from it instead of creating and migrating one (~3 s). The template is kept small, because
 * every start unpacks all of it: 1 MB WAL segments instead of 16 MB, and only the database the app
 * uses (template0 and template1 serve CREATE DATABASE, which no test runs on PGlite). 43 MB became
 * 18 MB, and a start from it with a 16MB buffer cache (helpers.ts) takes about half the time.
 * With TEST_DATABASE_URL the suite runs against a real PostgreSQL instead, one fresh database per test file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../../server/db/database';
import { TEST_SHARED_BUFFERS } from './test-database';

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  const file = path.join(dir, 'template.tar');
  const database = await openDatabase({ initdbArgs: ['--wal-segsize=1'], sharedBuffers: TEST_SHARED_BUFFERS });
  await migrateToLatest(database.db);
  for (const name of ['template0', 'template1']) {
    await sql.raw(`alter database ${name} is_template false`).execute(database.db);
    await sql.raw(`drop database ${name}`).execute(database.db);
  }
  await sql`checkpoint`.execute(database.db);
  await database.dump(file);
  await database.close();
  process.env.PORTAL_TEST_TEMPLATE = file;
}
