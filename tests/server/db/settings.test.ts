/**
 * PGLITE_SHARED_BUFFERS: the embedded database's buffer cache. Unset keeps Postgres's 128MB; a set
 * value reaches Postgres; a malformed one stops the server at start with the variable named.
 */
import { sql } from 'kysely';
import { loadConfig } from '../../../server/config';
import { openDatabase, type Database } from '../../../server/db/database';
import { pgliteOnly } from '../helpers';

async function sharedBuffers(database: Database): Promise<string> {
  try {
    const r = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(database.db);
    return r.rows[0]!.shared_buffers;
  } finally {
    await database.close();
  }
}

pgliteOnly('the embedded database', () => {
  test('keeps 128MB unless told, and takes the size it is given', async () => {
    // From the suite's template when there is one (a new database would run initdb first: seconds more).
    const loadFrom = process.env.PORTAL_TEST_TEMPLATE;
    expect(await sharedBuffers(await openDatabase({ loadFrom }))).toBe('128MB');
    expect(await sharedBuffers(await openDatabase({ loadFrom, sharedBuffers: '24MB' }))).toBe('24MB');
  });
});

test('PGLITE_SHARED_BUFFERS is a size or unset; anything else is refused by name', () => {
  expect(loadConfig({}).PGLITE_SHARED_BUFFERS).toBeUndefined();
  expect(loadConfig({ PGLITE_SHARED_BUFFERS: '' }).PGLITE_SHARED_BUFFERS).toBeUndefined();
  expect(loadConfig({ PGLITE_SHARED_BUFFERS: '16MB' }).PGLITE_SHARED_BUFFERS).toBe('16MB');
  expect(loadConfig({ PGLITE_SHARED_BUFFERS: '1GB' }).PGLITE_SHARED_BUFFERS).toBe('1GB');
  for (const bad of ['lots', '16', '16 MB', '0MB', '-1MB', '16MB; drop table users', '16MB\0', '１６MB']) {
    expect(() => loadConfig({ PGLITE_SHARED_BUFFERS: bad })).toThrow(/PGLITE_SHARED_BUFFERS: a size such as 16MB/);
  }
});
