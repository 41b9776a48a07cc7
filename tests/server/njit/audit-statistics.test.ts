/**
 * ANALYZE of the audit trail gathers statistics only for the columns queries filter on (migration 0020):
 * those of the jsonb criteria and the record_ids array made each ANALYZE of a large trail a long pause
 * of the embedded database.
 */
import { sql } from 'kysely';
import { UNFILTERED } from '../../../server/db/migrations/0020_njit_audit_statistics';
import { loggedInClient, startTestApp, type TestContext } from '../helpers';
import { csv, importFile, PEOPLE } from './fixtures';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp({ NJIT_QUERY_RATE_LIMIT: '1000' });
});
afterAll(async () => {
  await ctx.close();
});

it('keeps statistics of user, action and time, and none of the columns no query filters on', async () => {
  const { client } = await loggedInClient(ctx, ['njit', 'admin']);
  await importFile(client, csv(PEOPLE));
  for (const q of ['zhangsan', 'lisi', 'wangwu']) {
    expect((await client.get(`/api/njit/students?name=${q}`)).statusCode).toBe(200);
  }
  await sql`analyze njit_audit`.execute(ctx.db);
  const { rows } = await sql<{ attname: string }>`
    select attname from pg_stats where schemaname = current_schema() and tablename = 'njit_audit' order by attname`.execute(
    ctx.db,
  );
  const columns = rows.map((r) => r.attname);
  expect(columns).toEqual(expect.arrayContaining(['action', 'created_at', 'user_id', 'user_name']));
  for (const c of UNFILTERED) expect(columns).not.toContain(c);

  // The audit log's own filters still work on the analysed table.
  const log = await client.get('/api/njit/audit?action=search&pageSize=50');
  expect(log.statusCode).toBe(200);
  expect(log.json().data.filter((r: { action: string }) => r.action === 'search').length).toBeGreaterThanOrEqual(3);
});
