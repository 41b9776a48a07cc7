/**
 * Retention of students who left (NJIT_STUDENT_RETENTION_DAYS): the database records when a student
 * graduated or left; the preview lists who is due; "purge now" and the daily job erase exactly that set
 * and nothing else, once even when two purges race; bad input is refused and changes nothing.
 */
import { sql } from 'kysely';
import * as leftAtMigration from '../../../server/db/migrations/0038_njit_student_left_at';
import { DEFAULT_FIELD_LEVELS, NJIT_ROLES } from '../../../src/contract';
import { maskText } from '../../../server/modules/njit/policy';
import { scheduledPurge } from '../../../server/modules/njit/retention';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { csv, importFile, PEOPLE, synthetic } from './fixtures';

const DAYS = 365;
let ctx: TestContext;
let admin: Client;
let other: Client;

beforeAll(async () => {
  ctx = await startTestApp({ NJIT_STUDENT_RETENTION_DAYS: String(DAYS) });
  ({ client: admin } = await loggedInClient(ctx, ['njit', 'admin']));
  ({ client: other } = await loggedInClient(ctx, ['njit', 'admin']));
});
afterAll(async () => {
  await ctx.close();
});

const everyone = () => ctx.db.selectFrom('njit_students').selectAll().orderBy('id').execute();
const idOf = async (studentNo: string) =>
  (await ctx.db.selectFrom('njit_students').select('id').where('student_no', '=', studentNo).executeTakeFirstOrThrow())
    .id;
/** Moves a leaver's day of leaving `days` into the past (a leaver stays a leaver, so the date is kept). */
const leftDaysAgo = (ids: number[], days: number) =>
  sql`update njit_students set left_at = now() - make_interval(days => ${days}) where id = any(${ids}::int[])`.execute(
    ctx.db,
  );
/** The newest audit rows of one action, newest first. */
const latest = (action: string, limit: number) =>
  ctx.db.selectFrom('njit_audit').selectAll().where('action', '=', action).orderBy('id', 'desc').limit(limit).execute();
const setStatus = (ids: number[], status: string) =>
  ctx.db
    .updateTable('njit_students')
    .set({ status: status as never })
    .where('id', 'in', ids)
    .execute();

/** Every page of the preview, as the UI would walk it. */
async function previewAll(client: Client, query = '') {
  const first = (await client.get(`/api/njit/retention?pageSize=7${query}`)).json();
  const rows = [...first.data];
  for (let page = 2; (page - 1) * 7 < first.total; page += 1) {
    rows.push(...(await client.get(`/api/njit/retention?pageSize=7&current=${page}${query}`)).json().data);
  }
  return { ...first, data: rows };
}

/** A fresh roster: everyone at school, then the given students made leavers `days` ago. */
async function roster(): Promise<number[]> {
  await ctx.db.deleteFrom('njit_students').execute();
  await importFile(admin, csv([...PEOPLE.map((p) => [...p.slice(0, 7), '在读', ...p.slice(8)]), ...synthetic(40)]));
  return (await everyone()).map((r) => r.id);
}

describe('the day of leaving', () => {
  it('is set when a row enters 毕业 or 退学, kept between them, cleared on return', async () => {
    await ctx.db.deleteFrom('njit_students').execute();
    await importFile(admin, csv(PEOPLE));
    const zhao = await idOf('202202010005'); // imported as 毕业
    const zhang = await idOf('202101010001'); // 在读
    const leftAt = async (id: number) =>
      (await ctx.db.selectFrom('njit_students').select('left_at').where('id', '=', id).executeTakeFirstOrThrow())
        .left_at;
    expect((await leftAt(zhao))?.getTime()).toEqual(expect.any(Number));
    expect(await leftAt(zhang)).toBeNull();

    await leftDaysAgo([zhao], 10);
    const before = await leftAt(zhao);
    // The next import writes the same 毕业 row again, then an edit moves it to 退学: the day stays.
    await importFile(admin, csv(PEOPLE));
    await setStatus([zhao], '退学');
    expect(await leftAt(zhao)).toEqual(before);

    // 张三 graduates through an import: a day of leaving now; back to 在读: none.
    await importFile(admin, csv([[...PEOPLE[0].slice(0, 7), '毕业', ...PEOPLE[0].slice(8)]]));
    const graduated = await leftAt(zhang);
    expect(graduated?.getTime()).toBeGreaterThan(before!.getTime());
    await setStatus([zhang], '在读');
    expect(await leftAt(zhang)).toBeNull();
    // Nobody at school carries a day of leaving, whatever a statement says.
    await sql`update njit_students set left_at = now() where id = ${zhang}`.execute(ctx.db);
    expect(await leftAt(zhang)).toBeNull();
  });
});

describe('students who had left before the day of leaving was kept', () => {
  it('count from the last time a roster wrote them, never earlier', async () => {
    await ctx.db.deleteFrom('njit_students').execute();
    await importFile(admin, csv(PEOPLE));
    // The table as it was before the migration: no day of leaving, rows last written long ago.
    await leftAtMigration.down(ctx.db);
    await sql`update njit_students set updated_at = now() - interval '500 days'`.execute(ctx.db);
    await leftAtMigration.up(ctx.db);
    const rows = await ctx.db.selectFrom('njit_students').select(['status', 'updated_at', 'left_at']).execute();
    for (const r of rows) {
      expect(r.left_at?.getTime() ?? null).toBe(r.status === '毕业' ? r.updated_at.getTime() : null);
    }
    expect(rows.filter((r) => r.left_at)).toHaveLength(1);
    // And the trigger is back: a new leaver gets a day.
    await setStatus([await idOf('202101010001')], '退学');
    expect((await everyone()).filter((r) => r.left_at)).toHaveLength(2);
  });
});

describe('preview and purge', () => {
  it('lists the due set S, and "purge now" erases exactly S and changes nothing else', async () => {
    const ids = await roster();
    const due = [ids[3], ids[10], ids[11], ids[20], ids[21], ids[22], ids[30], ids[31], ids[44]];
    const soon = [ids[5], ids[6]]; // left 300 days ago: due in 65 days
    const recent = [ids[7]]; // left yesterday
    await setStatus(due.slice(0, 5), '毕业');
    await setStatus(due.slice(5), '退学');
    await setStatus([...soon, ...recent], '毕业');
    await setStatus([ids[8]], '休学');
    await leftDaysAgo(due, DAYS + 30);
    await leftDaysAgo(soon, 300);
    await leftDaysAgo(recent, 1);
    const students = await everyone();
    const requests = await ctx.db.selectFrom('njit_reveal_requests').selectAll().execute();

    const preview = await previewAll(admin);
    expect(preview).toMatchObject({ success: true, total: due.length, dueCount: due.length, retentionDays: DAYS });
    expect(preview.data.map((r: { id: number }) => r.id).sort((a: number, b: number) => a - b)).toEqual(
      [...due].sort((a, b) => a - b),
    );
    const first = preview.data[0];
    const row = students.find((s) => s.id === first.id)!;
    expect(first).toEqual({
      id: row.id,
      studentNo: row.student_no,
      name: row.name,
      status: row.status,
      college: row.college,
      className: row.class_name,
      leftAt: row.left_at!.toISOString(),
      dueAt: new Date(row.left_at!.getTime() + DAYS * 86_400_000).toISOString(),
    });
    // Earliest leaver first, every page audited with the ids it showed.
    const order = preview.data.map((r: { leftAt: string; id: number }) => [r.leftAt, r.id]);
    expect(order).toEqual([...order].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1)));
    const shown = await latest('purge_preview', 2);
    expect(shown.flatMap((r) => r.record_ids).length).toBe(due.length);

    const res = await admin.post('/api/njit/retention/purge', { cutoff: preview.cutoff });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ purged: due.length, cutoff: preview.cutoff });

    // Every other row is exactly as it was, down to its timestamps.
    expect(await everyone()).toEqual(students.filter((s) => !due.includes(s.id)));
    expect(await ctx.db.selectFrom('njit_reveal_requests').selectAll().execute()).toEqual(requests);
    const [audit] = await latest('purge', 1);
    expect(audit).toMatchObject({
      result_count: due.length,
      record_ids: [...due].sort((a, b) => a - b),
      criteria: { cutoff: preview.cutoff, retentionDays: DAYS, trigger: 'manual' },
    });
    expect((await previewAll(admin)).total).toBe(0);
  });

  it('shows each student as the caller’s field policy does: masked, or left out when hidden; audited as before', async () => {
    const ids = await roster();
    await setStatus([ids[0]], '毕业');
    await leftDaysAgo([ids[0]], DAYS + 3);
    const row = (await everyone()).find((s) => s.id === ids[0])!;
    const { client: teacherAdmin } = await loggedInClient(ctx, ['njit_teacher', 'admin']);
    const put = (fields: Record<string, string>) =>
      admin.request({
        method: 'PUT',
        url: '/api/njit/policy',
        payload: {
          roles: NJIT_ROLES.map((role) => ({
            role,
            fields: { ...DEFAULT_FIELD_LEVELS, ...(role === 'njit' ? fields : {}) },
          })),
        },
      });
    expect((await put({ name: 'hidden', status: 'hidden', studentNo: 'masked', college: 'masked' })).statusCode).toBe(
      200,
    );
    try {
      const res = await admin.get('/api/njit/retention');
      expect(res.statusCode).toBe(200);
      const [shown] = res.json().data;
      expect(shown).toEqual({
        id: row.id,
        studentNo: maskText(row.student_no),
        college: maskText(row.college),
        className: row.class_name,
        leftAt: row.left_at!.toISOString(),
        dueAt: new Date(row.left_at!.getTime() + DAYS * 86_400_000).toISOString(),
      });
      expect(res.body).not.toContain(row.name);
      expect(res.body).not.toContain(row.student_no);
      const [audit] = await latest('purge_preview', 1);
      expect(audit).toMatchObject({ user_name: expect.any(String), result_count: 1, record_ids: [row.id] });
      // An administrator whose NJIT role is another gets that role's levels: everything, in full.
      const full = (await teacherAdmin.get('/api/njit/retention')).json().data[0];
      expect(full).toMatchObject({ studentNo: row.student_no, name: row.name, status: '毕业', college: row.college });
    } finally {
      expect((await put({})).statusCode).toBe(200);
    }
  });

  it('keeps the bare id in the audit: the access report of a purged student still answers', async () => {
    const ids = await roster();
    const [gone] = ids;
    expect((await admin.get(`/api/njit/students/${gone}`)).statusCode).toBe(200);
    await setStatus([gone], '毕业');
    await leftDaysAgo([gone], DAYS + 1);
    const { cutoff } = (await admin.get('/api/njit/retention')).json();
    expect((await admin.post('/api/njit/retention/purge', { cutoff })).json().data.purged).toBe(1);
    expect((await admin.get(`/api/njit/students/${gone}`)).statusCode).toBe(404);
    const report = (await admin.get(`/api/njit/audit?studentId=${gone}&pageSize=100`)).json();
    expect(report.data.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['detail', 'purge_preview', 'purge']),
    );
  });

  it('shows who falls due in the next days, with the day they do, without purging them', async () => {
    const ids = await roster();
    await setStatus([ids[1], ids[2]], '毕业');
    await leftDaysAgo([ids[1]], DAYS + 2);
    await leftDaysAgo([ids[2]], DAYS - 20);
    const now = (await admin.get('/api/njit/retention')).json();
    const month = (await admin.get('/api/njit/retention?withinDays=30')).json();
    expect(now).toMatchObject({ total: 1, dueCount: 1 });
    expect(month).toMatchObject({ total: 2, dueCount: 1, cutoff: expect.any(String) });
    const later = month.data.find((r: { id: number }) => r.id === ids[2]);
    expect(new Date(later.dueAt).getTime()).toBeGreaterThan(new Date(month.cutoff).getTime());
    const res = await admin.post('/api/njit/retention/purge', { cutoff: month.cutoff });
    expect(res.json().data.purged).toBe(1);
    expect((await everyone()).map((r) => r.id)).toContain(ids[2]);
  });

  it('keeps a student who came back between the preview and the purge', async () => {
    const ids = await roster();
    await setStatus([ids[1], ids[2]], '毕业');
    await leftDaysAgo([ids[1], ids[2]], DAYS + 5);
    const { cutoff, dueCount } = (await admin.get('/api/njit/retention')).json();
    expect(dueCount).toBe(2);
    await setStatus([ids[2]], '在读');
    expect((await admin.post('/api/njit/retention/purge', { cutoff })).json().data.purged).toBe(1);
    expect((await everyone()).map((r) => r.id)).toContain(ids[2]);
  });

  it('erases each student once when two purges race, and both callers get an answer', async () => {
    const ids = await roster();
    const due = ids.slice(0, 12);
    await setStatus(due, '退学');
    await leftDaysAgo(due, DAYS + 3);
    const { cutoff } = (await admin.get('/api/njit/retention')).json();
    const [before] = await latest('purge', 1);
    const [a, b, c] = await Promise.all([
      admin.post('/api/njit/retention/purge', { cutoff }),
      other.post('/api/njit/retention/purge', { cutoff }),
      scheduledPurge(ctx.db, DAYS),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const counts = [a.json().data.purged, b.json().data.purged, c];
    expect(counts.reduce((x, y) => x + y, 0)).toBe(due.length);
    // The daily job leaves no row when it found nothing left: only the rows after the race's start.
    const purges = (await latest('purge', 3)).filter((r) => Number(r.id) > Number(before?.id ?? 0));
    const erased = purges.flatMap((p) => p.record_ids).sort((x, y) => x - y);
    expect(erased).toEqual(due);
    expect(await everyone()).toHaveLength(ids.length - due.length);
  });
});

describe('the daily run', () => {
  it('erases exactly who the preview lists at that moment, on record once', async () => {
    const ids = await roster();
    const due = [ids[2], ids[9], ids[15]];
    await setStatus([...due, ids[4]], '毕业');
    await leftDaysAgo(due, DAYS + 1);
    const students = await everyone();
    const listed = (await previewAll(admin)).data
      .map((r: { id: number }) => r.id)
      .sort((a: number, b: number) => a - b);
    expect(listed).toEqual(due);

    const [previous] = await latest('purge', 1);
    expect(await scheduledPurge(ctx.db, DAYS)).toBe(due.length);
    expect(await everyone()).toEqual(students.filter((s) => !due.includes(s.id)));
    // A second instance's run finds nothing and leaves no row; a disabled policy purges nothing.
    expect(await scheduledPurge(ctx.db, DAYS)).toBe(0);
    expect(await scheduledPurge(ctx.db, 0)).toBe(0);
    const runs = (await latest('purge', 5)).filter((r) => Number(r.id) > Number(previous?.id ?? 0));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ user_id: null, user_name: '定时清除', record_ids: due });
  });

  it('is a job of the scheduler', () => {
    expect(ctx.app.scheduler.list().map((j) => j.name)).toContain('njit.student-purge');
  });
});

describe('bad input', () => {
  it.each([
    ['withinDays=-1', 'withinDays'],
    ['withinDays=abc', 'withinDays'],
    ['withinDays=3651', 'withinDays'],
    ['withinDays=1.5', 'withinDays'],
    ['withinDays=%00', 'withinDays'],
    ['pageSize=51', 'pageSize'],
    ['pageSize=0', 'pageSize'],
    ['current=0', 'current'],
    ['current=%7B%22a%22%3A1%7D', 'current'],
  ])('refuses preview %s with a 400 naming the field', async (query, field) => {
    const res = await admin.get(`/api/njit/retention?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, data: { [field]: [expect.any(String)] } });
  });

  it('refuses a purge without a valid, already-due cutoff and erases nothing', async () => {
    const ids = await roster();
    await setStatus([ids[1]], '毕业');
    await leftDaysAgo([ids[1]], DAYS + 1);
    const students = await everyone();
    const bodies: unknown[] = [
      {},
      { cutoff: '' },
      { cutoff: 'yesterday' },
      { cutoff: 12345 },
      { cutoff: '2026-01-01T00:00:00Z\u0000' },
      { cutoff: '{"$gt":"2020-01-01"}' },
      { cutoff: ['2020-01-01T00:00:00Z'] },
      { cutoff: '\ud800' },
    ];
    for (const body of bodies) {
      const res = await admin.post('/api/njit/retention/purge', body);
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
      expect(res.json().data).toHaveProperty('cutoff');
    }
    // A cutoff later than the policy allows would erase students who are not due yet.
    const future = await admin.post('/api/njit/retention/purge', { cutoff: new Date().toISOString() });
    expect(future.statusCode).toBe(400);
    expect(future.json().errorMessage).toContain('保留期限');
    expect(await everyone()).toEqual(students);
  });

  it('answers 409 to a purge and an empty preview when retention is off', async () => {
    const off = await startTestApp({ NJIT_STUDENT_RETENTION_DAYS: '0' }, { db: ctx.db, close: async () => undefined });
    try {
      const { client } = await loggedInClient(off, ['njit', 'admin']);
      expect((await client.get('/api/njit/retention')).json()).toMatchObject({
        total: 0,
        data: [],
        cutoff: null,
        retentionDays: 0,
      });
      const res = await client.post('/api/njit/retention/purge', { cutoff: '2020-01-01T00:00:00Z' });
      expect(res.statusCode).toBe(409);
      expect(res.json().errorMessage).toContain('未启用');
    } finally {
      await off.close();
    }
  });
});
