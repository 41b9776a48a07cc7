/**
 * The search totals an instance keeps (SearchTotals) and the roster token that decides whether they
 * still hold (njit_roster, changed by a trigger with every statement that writes njit_students).
 */
import { sql } from 'kysely';
import { searchStudents, SearchTotals } from '../../../server/modules/njit/service';
import { StudentSearchQuery } from '../../../src/contract';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { csv, importFile, PEOPLE, synthetic } from './fixtures';

let ctx: TestContext;
let admin: Client;
let actor: { id: number; username: string; ip: string | null };

beforeAll(async () => {
  ctx = await startTestApp({ NJIT_QUERY_RATE_LIMIT: '1000' });
  let uid: number;
  let username: string;
  ({ client: admin, uid, username } = await loggedInClient(ctx, ['njit', 'admin']));
  actor = { id: uid, username, ip: null };
  await importFile(admin, csv([...PEOPLE, ...synthetic(200, 5)]));
});
afterAll(async () => {
  await ctx.close();
});

const token = async () =>
  (await sql<{ token: string }>`select token::text from njit_roster`.execute(ctx.db)).rows[0].token;
const software = StudentSearchQuery.parse({ college: '计算机工程学院', major: '软件工程' });
/** The key searchStudents files a total under: the criteria given. */
const softwareKey = JSON.stringify({ college: '计算机工程学院', major: '软件工程' });
const search = (totals: SearchTotals, q = software) => searchStudents(ctx.db, actor, q, 1000, totals);

describe('the roster token', () => {
  it('changes with every kind of write to njit_students, and with nothing else', async () => {
    const t0 = await token();
    await ctx.db.updateTable('users').set({ nickname: 'x' }).where('id', '=', actor.id).execute();
    await search(new SearchTotals()); // a search writes an audit row, not a student
    expect(await token()).toBe(t0);

    await ctx.db
      .updateTable('njit_students')
      .set({ dormitory: '北区' })
      .where('student_no', '=', '202101010001')
      .execute();
    const t1 = await token();
    expect(t1).not.toBe(t0);
    // A statement that matched nothing still counts as a write: the token never misses one.
    await ctx.db.deleteFrom('njit_students').where('student_no', '=', 'no-such-student').execute();
    const t2 = await token();
    expect(t2).not.toBe(t1);
    expect(await sql<{ n: number }>`select count(*)::int as n from njit_roster`.execute(ctx.db)).toMatchObject({
      rows: [{ n: 1 }],
    });
  });

  it('changes with an import through the API', async () => {
    const before = await token();
    await importFile(
      admin,
      csv([['202601010099', '钱七', '男', '计算机工程学院', '软件工程', '软件261', '2026', '在读', '', '', '']]),
    );
    expect(await token()).not.toBe(before);
  });
});

describe('search totals', () => {
  it('are used as given while the roster keeps its token: the statement does not count again', async () => {
    const totals = new SearchTotals();
    const counted = await search(totals);
    expect(counted.total).toBeGreaterThan(2);
    expect(totals.get(softwareKey)).toEqual({ token: await token(), total: counted.total });

    // A total filed under the current token is what the search reports, whatever the rows say.
    totals.put(softwareKey, { token: await token(), total: 4321 });
    const kept = await search(totals);
    expect(kept.total).toBe(4321);
    expect(kept.rows.length).toBe(Math.min(counted.total, 20)); // the page itself is always read
    const audit = await ctx.db.selectFrom('njit_audit').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(audit.result_count).toBe(4321);

    // Filed under another token, it is counted again and filed anew.
    totals.put(softwareKey, { token: '00000000-0000-0000-0000-000000000000', total: 4321 });
    expect((await search(totals)).total).toBe(counted.total);
    expect(totals.get(softwareKey)).toEqual({ token: await token(), total: counted.total });
  });

  it('follow a write made through another instance: one roster, separate caches', async () => {
    const here = new SearchTotals();
    const there = new SearchTotals();
    const q = StudentSearchQuery.parse({ college: '电力工程学院', grade: 2027 });
    expect((await search(here, q)).total).toBe(0);
    expect((await search(there, q)).total).toBe(0);
    await importFile(
      admin,
      csv([
        ['202701010001', '孙八', '女', '电力工程学院', '电气工程及其自动化', '电气271', '2027', '在读', '', '', ''],
        ['202701010002', '周九', '男', '电力工程学院', '电气工程及其自动化', '电气271', '2027', '在读', '', '', ''],
      ]),
    );
    expect((await search(here, q)).total).toBe(2);
    expect((await search(there, q)).total).toBe(2);
    await ctx.db.deleteFrom('njit_students').where('student_no', '=', '202701010002').execute();
    expect((await search(there, q)).total).toBe(1);
  });

  it('are filed by criteria, not by page; a refused search files nothing', async () => {
    const totals = new SearchTotals();
    const page1 = await search(totals, StudentSearchQuery.parse({ status: '在读', pageSize: 5 }));
    const page2 = await search(totals, StudentSearchQuery.parse({ status: '在读', pageSize: 5, current: 2 }));
    expect(totals.size).toBe(1);
    expect(page2.total).toBe(page1.total);
    expect(page2.rows.map((r) => r.id)).not.toEqual(page1.rows.map((r) => r.id));
    // A refused search (over the limit) files nothing and counts nothing.
    const limited = searchStudents(ctx.db, actor, StudentSearchQuery.parse({ status: '休学' }), 1, totals);
    await expect(limited).rejects.toMatchObject({ statusCode: 429 });
    expect(totals.size).toBe(1);
  });

  it('count again after the roster is emptied (truncate)', async () => {
    const totals = new SearchTotals();
    expect((await search(totals)).total).toBeGreaterThan(0);
    // Cascade: the reveal requests about the students go with them.
    await sql`truncate njit_students cascade`.execute(ctx.db);
    expect((await search(totals)).total).toBe(0);
  });

  it('keep the most recently used entries up to their bound', () => {
    const totals = new SearchTotals(2);
    totals.put('a', { token: 't', total: 1 });
    totals.put('b', { token: 't', total: 2 });
    expect(totals.get('a')).toEqual({ token: 't', total: 1 }); // a is now the most recent
    totals.put('c', { token: 't', total: 3 });
    expect(totals.get('b')).toBeNull();
    expect(totals.get('a')).not.toBeNull();
    expect(totals.get('c')).not.toBeNull();
    expect(totals.size).toBe(2);
  });
});
