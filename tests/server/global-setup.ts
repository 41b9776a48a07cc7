/**
 * Migrates one PGlite database per jest run and writes it as a tarball; each test file starts its own
 * PGlite from it (~0.8 s) instead of creating and migrating one (~3 s). With TEST_DATABASE_URL the
 * suite runs against a real PostgreSQL instead, one fresh database per test file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateToLatest, openDatabase } from '../../server/db/database';

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
  const file = path.join(dir, 'template.tar');
  const database = await openDatabase({});
  await migrateToLatest(database.db);
  await database.dump(file);
  await database.close();
  process.env.PORTAL_TEST_TEMPLATE = file;
}
