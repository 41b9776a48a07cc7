/**
 * Lookup through the API: pinyin and initials, prefix, filters, masking, reveal, the rate limit,
 * the empty-query refusal and page-size cap, the overview, and an audit row for every action.
 */
import { sql } from 'kysely';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { csv, importFile, PEOPLE, synthetic } from './fixtures';

let ctx: TestContext;
let admin: Client;
let staff: Client;
let staffUid: number;
let staffName: string;

beforeAll(async () => {
  ctx = await startTestApp({ NJIT_QUERY_RATE_LIMIT: '1000' });
  ({ client: admin } = await loggedInClient(ctx, ['njit', 'admin']));
  ({ client: staff, uid: staffUid, username: staffName } = await loggedInClient(ctx, ['njit']));
  await importFile(admin, csv([...PEOPLE, ...synthetic(300, 3)]));
});
afterAll(async () => {
  await ctx.close();
});

async function search(client: Client, query: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return client.get(`/api/njit/students?${qs}`);
}
const names = (res: { json(): { data: { name: string }[] } }) => res.json().data.map((s) => s.name);
const lastAudit = () => ctx.db.selectFrom('njit_audit').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

describe('search', () => {
  it('finds 张三 by full pinyin and by initials, exact matches first', async () => {
    const full = await search(staff, { name: 'zhangsan' });
    expect(full.json()).toMatchObject({ success: true });
    expect(names(full)[0]).toBe('张三');
    expect(names(full)).toContain('张三丰'); // pinyin prefix

    const initials = await search(staff, { name: 'zs' });
    expect(names(initials)[0]).toBe('张三');

    const exact = await search(staff, { name: 'ZhangSan', nameMode: 'exact' });
    expect(names(exact)).toEqual(['张三']);
  });

  it('finds Chinese names exactly or by a part of the name', async () => {
    expect(names(await search(staff, { name: '张三', nameMode: 'exact' }))).toEqual(['张三']);
    const fuzzy = names(await search(staff, { name: '三丰' }));
    expect(fuzzy).toContain('张三丰');
    expect(fuzzy).not.toContain('张三');
  });

  it('searches student numbers by prefix or exactly', async () => {
    const prefix = await search(staff, { studentNo: '2021010100' });
    expect(prefix.json().data.map((s: { studentNo: string }) => s.studentNo)).toEqual(['202101010001', '202101010002']);
    expect(prefix.json().total).toBe(2);
    expect(names(await search(staff, { studentNo: '202101010001', studentNoMode: 'exact' }))).toEqual(['张三']);
    expect((await search(staff, { studentNo: '2021010100', studentNoMode: 'exact' })).json().total).toBe(0);
    // LIKE wildcards are literal characters, not patterns.
    expect((await search(staff, { studentNo: '%' })).json().total).toBe(0);
  });

  it('filters by college, major, class, grade and status, alone or combined', async () => {
    const res = await search(staff, { college: '电力工程学院', grade: 2022, status: '毕业', name: '赵' });
    expect(names(res)).toEqual(['赵六']);
    const cls = await search(staff, { className: '软件211', pageSize: 50 });
    expect(names(cls)).toEqual(expect.arrayContaining(['张三', '张三丰']));
    for (const s of cls.json().data) expect(s.className).toBe('软件211');
    const major = await search(staff, { major: '网络工程', status: '在读', pageSize: 50 });
    for (const s of major.json().data) expect(s).toMatchObject({ major: '网络工程', status: '在读' });
    expect(names(major)).toContain('李四');
  });

  it('pages with total, and the total is right past the first page', async () => {
    const p1 = await search(staff, { college: '计算机工程学院', pageSize: 5 });
    const p2 = await search(staff, { college: '计算机工程学院', pageSize: 5, current: 2 });
    expect(p1.json().total).toBeGreaterThan(10);
    expect(p2.json().total).toBe(p1.json().total);
    expect(p1.json().data).toHaveLength(5);
    expect(p2.json().data[0].studentNo > p1.json().data[4].studentNo).toBe(true);
    expect(p1.json().capped).toBe(false);
  });

  it('lists every match of a filter-only search once, in student-number order, page after page', async () => {
    const combos: Record<string, string | number>[] = [
      { college: '计算机工程学院' },
      { college: '计算机工程学院', grade: 2021, status: '在读' },
      { college: '计算机工程学院', major: '软件工程', grade: 2021, status: '在读' },
      { major: '网络工程' },
      { className: '软件211', status: '在读' },
      { grade: 2022 },
      { status: '在读' },
    ];
    const column = { college: 'college', major: 'major', className: 'class_name', grade: 'grade', status: 'status' };
    for (const combo of combos) {
      let expected = ctx.db.selectFrom('njit_students').select(['id', 'student_no']).orderBy('student_no');
      for (const [k, v] of Object.entries(combo)) {
        expected = expected.where(column[k as keyof typeof column] as 'college', '=', String(v));
      }
      const want = await expected.execute();
      expect(want.length).toBeGreaterThan(0);
      const got: { id: number; studentNo: string }[] = [];
      for (let current = 1; current <= Math.ceil(want.length / 7) + 1; current++) {
        const res = (await search(staff, { ...combo, pageSize: 7, current })).json();
        expect(res).toMatchObject({ success: true, total: want.length, capped: false });
        for (const s of res.data) expect(s).toMatchObject(combo);
        expect((await lastAudit()).record_ids).toEqual(res.data.map((s: { id: number }) => s.id));
        got.push(...res.data);
      }
      expect(got.map((s) => [s.id, s.studentNo])).toEqual(want.map((r) => [r.id, r.student_no]));
    }
  });

  it('refuses an empty query and more than 50 rows per page', async () => {
    const empty = await search(staff, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errorMessage).toMatch(/至少输入一个查询条件/);
    expect((await search(staff, { name: '  ' })).statusCode).toBe(400);
    const big = await search(staff, { college: '计算机工程学院', pageSize: 51 });
    expect(big.statusCode).toBe(400);
    expect(big.json().errorMessage).toMatch(/50/);
    const fifty = await search(staff, { college: '计算机工程学院', pageSize: 50 });
    expect(fifty.json().data.length).toBeLessThanOrEqual(50);
  });
});

describe('masking and reveal', () => {
  it('never sends full phone or ID numbers in search or detail, to anyone', async () => {
    for (const client of [staff, admin]) {
      const res = await search(client, { studentNo: '202101010001', studentNoMode: 'exact' });
      expect(res.json().data[0]).toMatchObject({ phone: '138****1234', idCard: '3201**********123X' });
      expect(res.body).not.toContain('13812341234');
      const detail = await client.get(`/api/njit/students/${res.json().data[0].id}`);
      expect(detail.json().data).toMatchObject({
        name: '张三',
        phone: '138****1234',
        idCard: '3201**********123X',
        dormitory: '东区1栋101',
      });
      expect(detail.body).not.toContain('32010220030101123X');
    }
  });

  it('reveal is for administrators with a reason, and is audited', async () => {
    const id = (await search(admin, { studentNo: '202101010001', studentNoMode: 'exact' })).json().data[0].id;
    const denied = await staff.post(`/api/njit/students/${id}/reveal`, { field: 'phone', reason: '核实联系方式' });
    expect(denied.statusCode).toBe(403);
    const noReason = await admin.post(`/api/njit/students/${id}/reveal`, { field: 'phone', reason: ' ' });
    expect(noReason.statusCode).toBe(400);

    const phone = await admin.post(`/api/njit/students/${id}/reveal`, { field: 'phone', reason: '核实联系方式' });
    expect(phone.json().data).toEqual({ field: 'phone', value: '13812341234' });
    expect(await lastAudit()).toMatchObject({
      action: 'reveal',
      record_ids: [id],
      reason: '核实联系方式',
      criteria: { id, field: 'phone' },
    });
    const idCard = await admin.post(`/api/njit/students/${id}/reveal`, { field: 'idCard', reason: '办理证明' });
    expect(idCard.json().data.value).toBe('32010220030101123X');
    expect(
      (await admin.post('/api/njit/students/999999/reveal', { field: 'phone', reason: '核实联系方式' })).statusCode,
    ).toBe(404);
  });
});

describe('audit', () => {
  it('records user, IP, criteria, result count and the ids of every search and detail view', async () => {
    const res = await search(staff, { name: 'zs', grade: 2021 });
    const ids = res.json().data.map((s: { id: number }) => s.id);
    expect(await lastAudit()).toMatchObject({
      user_id: staffUid,
      user_name: staffName,
      action: 'search',
      ip: '127.0.0.1',
      criteria: { name: 'zs', nameMode: 'fuzzy', grade: 2021, current: 1, pageSize: 10 },
      result_count: res.json().total,
      record_ids: ids,
    });
    await staff.get(`/api/njit/students/${ids[0]}`);
    expect(await lastAudit()).toMatchObject({
      action: 'detail',
      user_id: staffUid,
      record_ids: [ids[0]],
      result_count: 1,
    });
  });

  it('records imports', async () => {
    await importFile(admin, csv(PEOPLE.slice(0, 1)), 'one.csv');
    expect(await lastAudit()).toMatchObject({ action: 'import', criteria: { fileName: 'one.csv' }, result_count: 1 });
  });

  it('lets administrators browse, filter and export the audit log as CSV, which is audited too', async () => {
    await search(staff, { name: 'lisi' });
    const list = await admin.get(`/api/njit/audit?action=search&userName=${staffName}&pageSize=5`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0]).toMatchObject({ userName: staffName, action: 'search', criteria: { name: 'lisi' } });
    for (const e of list.json().data) expect(e).toMatchObject({ action: 'search', userName: staffName });
    expect((await staff.get('/api/njit/audit')).statusCode).toBe(403);

    const from = new Date(Date.now() - 60_000).toISOString();
    const exp = await admin.get(`/api/njit/audit/export?userName=${staffName}&from=${encodeURIComponent(from)}`);
    expect(exp.statusCode).toBe(200);
    expect(exp.headers['content-type']).toMatch(/text\/csv/);
    expect(exp.headers['content-disposition']).toMatch(/attachment; filename="njit-audit-/);
    expect(exp.body.startsWith('\uFEFF编号,时间,用户,操作,IP')).toBe(true);
    expect(exp.body).toContain('lisi');
    expect(exp.body).not.toContain('import');
    expect(await lastAudit()).toMatchObject({ action: 'audit_export', criteria: { userName: staffName } });
  });

  it("gives an administrator one student's access report: what concerned them, never a revealed value", async () => {
    const zhang = (await search(staff, { name: '张三', nameMode: 'exact' })).json().data[0] as { id: number };
    const li = (await search(staff, { name: '李四', nameMode: 'exact' })).json().data[0] as { id: number };
    await staff.get(`/api/njit/students/${zhang.id}`);
    await staff.get(`/api/njit/students/${li.id}`);
    const revealed = await admin.post(`/api/njit/students/${zhang.id}/reveal`, { field: 'idCard', reason: '办理证明' });
    expect(revealed.json().data.value).toBe('32010220030101123X');

    const concerning = await ctx.db
      .selectFrom('njit_audit')
      .select(['id', 'record_ids'])
      .orderBy('id', 'desc')
      .execute();
    const expected = concerning.filter((r) => r.record_ids.includes(zhang.id)).map((r) => Number(r.id));
    expect(expected.length).toBeGreaterThanOrEqual(3);

    const list = await admin.get(`/api/njit/audit?studentId=${zhang.id}&pageSize=100`);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((e: { id: number }) => e.id)).toEqual(expected);
    expect(list.json().total).toBe(expected.length);

    const report = await admin.get(`/api/njit/audit/export?studentId=${zhang.id}`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-disposition']).toMatch(
      new RegExp(`attachment; filename="njit-audit-student-${zhang.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"`),
    );
    const lines = report.body.trim().split('\r\n').slice(1);
    expect(lines.map((l: string) => Number(l.split(',')[0]))).toEqual(expected);
    // The reveal is in the report with its reason, the value revealed is not; nor is 李四's view.
    expect(report.body).toContain('办理证明');
    expect(report.body).not.toContain('32010220030101123X');
    expect(report.body).not.toContain('13812341234');
    // The report itself concerns the student: it is in their next one.
    expect(await lastAudit()).toMatchObject({
      action: 'audit_export',
      criteria: { studentId: zhang.id },
      record_ids: [zhang.id],
    });
    expect((await admin.get(`/api/njit/audit?studentId=${zhang.id}&action=audit_export`)).json().total).toBe(1);

    // Only administrators, and a student id is a positive integer.
    expect((await staff.get(`/api/njit/audit/export?studentId=${zhang.id}`)).statusCode).toBe(403);
    for (const bad of ['0', '-1', 'abc', '1.5', '99999999999', '%00']) {
      const res = await admin.get(`/api/njit/audit/export?studentId=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors?.studentId ?? res.json().errorMessage).toBeTruthy();
    }
  });

  it('prunes audit rows older than the retention period when the app starts', async () => {
    await ctx.db
      .insertInto('njit_audit')
      .values([
        {
          user_id: staffUid,
          user_name: staffName,
          action: 'search',
          created_at: new Date(Date.now() - 400 * 86_400_000),
        },
        {
          user_id: staffUid,
          user_name: staffName,
          action: 'search',
          created_at: new Date(Date.now() - 20 * 86_400_000),
        },
      ])
      .execute();
    const old = () =>
      ctx.db
        .selectFrom('njit_audit')
        .select('id')
        .where('created_at', '<', new Date(Date.now() - 10 * 86_400_000))
        .execute();
    expect(await old()).toHaveLength(2);
    const other = await startTestApp({ NJIT_AUDIT_RETENTION_DAYS: '30' }, { db: ctx.db, close: async () => undefined });
    await other.close();
    expect(await old()).toHaveLength(1);
  });
});

describe('overview and filter options', () => {
  it('shows totals, distributions, the last import and my queries today', async () => {
    const { client, uid } = await loggedInClient(ctx, ['njit']);
    await search(client, { name: 'zs' });
    await search(client, { name: 'ls' });
    const res = await client.get('/api/njit/overview');
    expect(res.statusCode).toBe(200);
    const o = res.json().data;
    const total = Number(
      (
        await ctx.db
          .selectFrom('njit_students')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(o.total).toBe(total);
    expect(o.byCollege.reduce((s: number, b: { count: number }) => s + b.count, 0)).toBe(total);
    expect(o.byStatus.map((b: { name: string }) => b.name)).toEqual(expect.arrayContaining(['在读', '休学', '毕业']));
    expect(o.byGrade.map((b: { name: string }) => b.name)).toEqual(expect.arrayContaining(['2021', '2022']));
    expect(o.lastImport).toMatchObject({ fileName: 'one.csv' });
    expect(o).toMatchObject({ queriesToday: 2, queriesThisMinute: 2, queryLimitPerMinute: 1000 });
    expect(uid).toBeGreaterThan(0);
  });

  it('lists colleges, majors and grades for the search form', async () => {
    const res = await staff.get('/api/njit/options');
    expect(res.json().data.colleges).toEqual(expect.arrayContaining(['计算机工程学院', '电力工程学院']));
    expect(res.json().data.majors).toEqual(expect.arrayContaining([{ college: '计算机工程学院', major: '软件工程' }]));
    expect(res.json().data.grades).toEqual(expect.arrayContaining([2021, 2022]));
  });
});

describe('rate limit', () => {
  it('allows 30 lookups a minute per user by default, then answers 429 with Retry-After in Chinese', async () => {
    const limited = await startTestApp({}, { db: ctx.db, close: async () => undefined });
    try {
      const { client, uid } = await loggedInClient(limited, ['njit']);
      const { client: neighbour } = await loggedInClient(limited, ['njit']);
      for (let i = 0; i < 29; i++) {
        expect((await client.get('/api/njit/students?name=zs')).statusCode).toBe(200);
      }
      expect((await client.get('/api/njit/students/1')).statusCode).not.toBe(429); // detail views count too: 30th
      const over = await client.get('/api/njit/students?name=zs');
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(over.json()).toMatchObject({ success: false, errorCode: 'TOO_MANY_REQUESTS' });
      expect(over.json().errorMessage).toMatch(/每分钟最多 30 次/);
      // A refused query is not audited (it returned nothing), and another user is not affected.
      expect(await ctx.db.selectFrom('njit_audit').select('id').where('user_id', '=', uid).execute()).toHaveLength(30);
      expect((await neighbour.get('/api/njit/students?name=zs')).statusCode).toBe(200);
      // The window slides: once the oldest lookups are a minute old, the user may search again.
      await sql`update njit_audit set created_at = created_at - interval '61 seconds' where user_id = ${uid}`.execute(
        ctx.db,
      );
      expect((await client.get('/api/njit/students?name=zs')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  }, 60_000);
});
