/**
 * The field policy and row scope through the API: today's behaviour by default, a hidden field absent
 * from every answer (search, detail, the header's search, the audit list and export), filtering by it
 * refused, reveals of a hidden field refused, the most permissive of several roles, a counselor
 * limited to their classes (404 outside), the preview, and bad input changing nothing.
 */
import { DEFAULT_FIELD_LEVELS, NJIT_ROLES, POLICY_FIELDS, type FieldLevels } from '../../../src/contract';
import { notifierOf } from '../../../server/db/notify';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { csv, importFile, PEOPLE, synthetic } from './fixtures';

let ctx: TestContext;
let admin: Client;
let staff: Client;

beforeAll(async () => {
  ctx = await startTestApp({ NJIT_QUERY_RATE_LIMIT: '1000' });
  ({ client: admin } = await loggedInClient(ctx, ['njit', 'admin']));
  ({ client: staff } = await loggedInClient(ctx, ['njit']));
  await importFile(admin, csv([...PEOPLE, ...synthetic(200, 5)]));
});
afterAll(async () => {
  await ctx.close();
});

const put = (client: Client, url: string, payload: unknown) =>
  client.request({ method: 'PUT', url, payload: payload as object });

const allRoles = (change: Partial<FieldLevels> = {}, role: string = 'njit') =>
  NJIT_ROLES.map((r) => ({ role: r, fields: { ...DEFAULT_FIELD_LEVELS, ...(r === role ? change : {}) } }));

async function setPolicy(change: Partial<FieldLevels>, role = 'njit') {
  const res = await put(admin, '/api/njit/policy', { roles: allRoles(change, role) });
  expect(res.statusCode).toBe(200);
}

const idOf = async (studentNo: string) =>
  (await ctx.db.selectFrom('njit_students').select('id').where('student_no', '=', studentNo).executeTakeFirstOrThrow())
    .id;

afterEach(async () => {
  await setPolicy({});
});

describe('defaults', () => {
  it('are today’s behaviour: phone and ID masked, the rest in full, for every NJIT role', async () => {
    const res = await admin.get('/api/njit/policy');
    expect(res.json().data.roles).toEqual(NJIT_ROLES.map((role) => ({ role, fields: DEFAULT_FIELD_LEVELS })));
    const detail = (await staff.get(`/api/njit/students/${await idOf('202101010001')}`)).json().data;
    expect(detail).toMatchObject({
      studentNo: '202101010001',
      name: '张三',
      gender: '男',
      college: '计算机工程学院',
      className: '软件211',
      grade: 2021,
      status: '在读',
      phone: '138****1234',
      idCard: '3201**********123X',
      dormitory: '东区1栋101',
    });
    const mine = (await staff.get('/api/njit/policy/mine')).json().data;
    expect(mine).toEqual({ fields: DEFAULT_FIELD_LEVELS, scoped: false });
  });
});

describe('a hidden field', () => {
  it('is absent from the search, the detail and the header’s search, and filtering by it is refused', async () => {
    await setPolicy({ name: 'hidden', dormitory: 'hidden', college: 'masked' });
    const id = await idOf('202101010001');

    const search = await staff.get('/api/njit/students?studentNo=2021010100');
    expect(search.statusCode).toBe(200);
    const rows = search.json().data;
    expect(rows.length).toBe(2);
    for (const r of rows) {
      expect(r).not.toHaveProperty('name');
      expect(r).not.toHaveProperty('dormitory');
      expect(r.college).toBe('计******');
    }
    expect(search.body).not.toContain('张三');
    expect(search.body).not.toContain('东区1栋');

    const detail = await staff.get(`/api/njit/students/${id}`);
    expect(detail.json().data).not.toHaveProperty('name');
    expect(detail.json().data.studentNo).toBe('202101010001');
    expect(detail.body).not.toContain('张三');

    const quick = await staff.get('/api/njit/search?q=202101010001');
    expect(quick.statusCode).toBe(200);
    expect(quick.json().data[0]).not.toHaveProperty('name');
    expect(quick.body).not.toContain('张三');

    for (const url of [
      `/api/njit/students?name=${encodeURIComponent('张三')}`,
      '/api/njit/search?q=zhangsan',
      `/api/njit/students?college=${encodeURIComponent('计算机工程学院')}`,
    ]) {
      const refused = await staff.get(url);
      expect({ url, status: refused.statusCode }).toEqual({ url, status: 400 });
      expect(refused.json().errorMessage).toMatch(/不能按「(姓名|学院)」查询/);
    }
  });

  it('is absent from the audit list and export of a reader who may not see it', async () => {
    await staff.get(`/api/njit/students?name=${encodeURIComponent('李四')}`);
    await setPolicy({ name: 'hidden' });
    const list = await admin.get('/api/njit/audit?action=search&pageSize=100');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('李四');
    expect(list.json().data.some((e: { criteria: object }) => e.criteria && !('name' in e.criteria))).toBe(true);
    const exported = await admin.get('/api/njit/audit/export?action=search');
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain('李四');
    // The same rows with the name visible again: the export did carry it, the policy took it out.
    await setPolicy({});
    expect((await admin.get('/api/njit/audit/export?action=search')).body).toContain('李四');
  });

  it('cannot be revealed, while a masked one still can', async () => {
    await setPolicy({ phone: 'hidden' });
    const id = await idOf('202101010001');
    const detail = (await admin.get(`/api/njit/students/${id}`)).json().data;
    expect(detail).not.toHaveProperty('phone');
    const phone = await admin.post(`/api/njit/students/${id}/reveal`, { field: 'phone', reason: '核对联系方式' });
    expect(phone.statusCode).toBe(403);
    expect(phone.body).not.toContain('13812341234');
    const idCard = await admin.post(`/api/njit/students/${id}/reveal`, { field: 'idCard', reason: '核对身份' });
    expect(idCard.json().data).toEqual({ field: 'idCard', value: '32010220030101123X' });
  });

  it('is shown to a user who has another NJIT role that may see it (the most permissive wins)', async () => {
    await setPolicy({ name: 'hidden' });
    const { client: both } = await loggedInClient(ctx, ['njit', 'njit_teacher']);
    const row = (await both.get('/api/njit/students?studentNo=202101010001&studentNoMode=exact')).json().data[0];
    expect(row.name).toBe('张三');
    const mine = (await both.get('/api/njit/policy/mine')).json().data;
    expect(mine.fields.name).toBe('full');
  });
});

describe('the filter options and the overview', () => {
  const countWhere = async (className?: string) =>
    Number(
      (
        await ctx.db
          .selectFrom('njit_students')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .$if(className !== undefined, (qb) => qb.where('class_name', '=', className!))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('count and list only the students in a counselor’s scope', async () => {
    const { client: counselor, uid } = await loggedInClient(ctx, ['njit_counselor']);
    const everyone = (await counselor.get('/api/njit/overview')).json().data;
    expect(everyone.total).toBe(await countWhere());
    expect((await counselor.get('/api/njit/options')).json().data.colleges.length).toBeGreaterThan(1);

    expect((await put(admin, `/api/njit/scopes/${uid}`, { colleges: [], classes: ['软件211'] })).statusCode).toBe(200);
    const inClass = await ctx.db
      .selectFrom('njit_students')
      .select(['college', 'major', 'grade', 'status'])
      .where('class_name', '=', '软件211')
      .execute();
    const distinct = <T>(xs: T[]) => [...new Set(xs)].sort();

    const options = (await counselor.get('/api/njit/options')).json().data;
    expect(options.colleges).toEqual(distinct(inClass.map((s) => s.college)));
    expect(options.colleges).toEqual(['计算机工程学院']);
    expect(distinct(options.majors.map((m: { major: string }) => m.major))).toEqual(
      distinct(inClass.map((s) => s.major)),
    );
    expect(distinct(options.grades)).toEqual(distinct(inClass.map((s) => s.grade)));

    const o = (await counselor.get('/api/njit/overview')).json().data;
    expect(o.total).toBe(await countWhere('软件211'));
    expect(o.total).toBeLessThan(everyone.total);
    const sum = (bs: { count: number }[]) => bs.reduce((n, b) => n + b.count, 0);
    expect(o.byCollege).toEqual([{ name: '计算机工程学院', count: o.total }]);
    expect(sum(o.byGrade)).toBe(o.total);
    expect(sum(o.byStatus)).toBe(o.total);
    expect(o.byStatus.map((b: { name: string }) => b.name).sort()).toEqual(distinct(inClass.map((s) => s.status)));

    // Plain njit still counts everyone.
    expect((await staff.get('/api/njit/overview')).json().data.total).toBe(everyone.total);
  });

  it('leave out a field the role does not see in full: no choices, no distribution', async () => {
    // A masked field cannot be filtered on either: no choices.
    await setPolicy({ major: 'masked' });
    expect((await staff.get('/api/njit/options')).json().data.majors).toEqual([]);

    await setPolicy({ college: 'hidden', grade: 'hidden' });
    const options = (await staff.get('/api/njit/options')).json().data;
    expect(options.colleges).toEqual([]);
    expect(options.grades).toEqual([]);
    // Majors still offered, without the college that would tell what is hidden.
    expect(options.majors.length).toBeGreaterThan(1);
    expect(options.majors.every((m: { college: string | null }) => m.college === null)).toBe(true);
    expect(new Set(options.majors.map((m: { major: string }) => m.major)).size).toBe(options.majors.length);
    expect(JSON.stringify(options)).not.toContain('计算机工程学院');

    const o = (await staff.get('/api/njit/overview')).json().data;
    expect(o.total).toBe(await countWhere());
    expect(o).not.toHaveProperty('byCollege');
    expect(o).not.toHaveProperty('byGrade');
    expect(o.byStatus.reduce((n: number, b: { count: number }) => n + b.count, 0)).toBe(o.total);
    expect(JSON.stringify(o)).not.toContain('计算机工程学院');

    // An administrator holding njit too gets the same: the policy of their NJIT roles.
    expect((await admin.get('/api/njit/options')).json().data.colleges).toEqual([]);
    // Another role keeps what its own policy shows.
    const { client: teacher } = await loggedInClient(ctx, ['njit_teacher']);
    expect((await teacher.get('/api/njit/options')).json().data.colleges).toContain('计算机工程学院');
    expect((await teacher.get('/api/njit/overview')).json().data.byCollege.length).toBeGreaterThan(1);
  });
});

describe('row scope', () => {
  it('limits a counselor to their classes: search, totals, detail (404 outside) and the header’s search', async () => {
    const { client: counselor, uid } = await loggedInClient(ctx, ['njit_counselor']);
    const college = `/api/njit/students?college=${encodeURIComponent('计算机工程学院')}&pageSize=50`;
    // Unlimited at first: the whole college, like plain njit.
    const everyone = (await staff.get(college)).json();
    expect((await counselor.get(college)).json().total).toBe(everyone.total);

    const set = await put(admin, `/api/njit/scopes/${uid}`, { colleges: [], classes: ['软件211'] });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ userId: uid, classes: ['软件211'], colleges: [] });

    const scoped = (await counselor.get(college)).json();
    expect(scoped.total).toBeLessThan(everyone.total);
    expect(scoped.data.length).toBeGreaterThanOrEqual(2);
    expect(scoped.data.every((s: { className: string }) => s.className === '软件211')).toBe(true);
    // Plain njit keeps the whole college (the counted total of one is not the other's).
    expect((await staff.get(college)).json().total).toBe(everyone.total);

    expect((await counselor.get(`/api/njit/students/${await idOf('202101010001')}`)).statusCode).toBe(200);
    const outside = await counselor.get(`/api/njit/students/${await idOf('202101020003')}`);
    expect(outside.statusCode).toBe(404);
    expect(outside.body).not.toContain('李四');
    const quick = await counselor.get('/api/njit/search?q=lisi');
    expect(quick.json().data.map((s: { name: string }) => s.name)).not.toContain('李四');
    expect((await counselor.get('/api/njit/policy/mine')).json().data.scoped).toBe(true);

    // A college as well: the union of both.
    await put(admin, `/api/njit/scopes/${uid}`, { colleges: ['电力工程学院'], classes: ['软件211'] });
    expect((await counselor.get(`/api/njit/students/${await idOf('202202010004')}`)).statusCode).toBe(200);
    expect((await counselor.get(`/api/njit/students/${await idOf('202101020003')}`)).statusCode).toBe(404);

    const listed = (await admin.get('/api/njit/scopes')).json().data;
    expect(listed.find((u: { userId: number }) => u.userId === uid)).toMatchObject({
      colleges: ['电力工程学院'],
      classes: ['软件211'],
    });
  });

  it('is only for counselors and teachers, and refuses bad lists', async () => {
    const { uid: plain } = await loggedInClient(ctx, ['njit']);
    const { uid: teacher } = await loggedInClient(ctx, ['njit_teacher']);
    const refused = await put(admin, `/api/njit/scopes/${plain}`, { colleges: ['电力工程学院'], classes: [] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errorMessage).toContain('辅导员');
    expect((await put(admin, '/api/njit/scopes/999999', { colleges: [], classes: [] })).statusCode).toBe(404);
    for (const body of [
      { colleges: ['a'.repeat(65)], classes: [] },
      { colleges: Array.from({ length: 201 }, (_, i) => `学院${i}`), classes: [] },
      { colleges: [''], classes: [] },
      { colleges: 'x', classes: [] },
      { colleges: ['a\u0000'], classes: [] },
      { colleges: ['\ud800'], classes: [] },
      {},
    ]) {
      const res = await put(admin, `/api/njit/scopes/${teacher}`, body);
      expect({ body, status: res.statusCode }).toEqual({ body, status: 400 });
    }
    const rows = await ctx.db.selectFrom('njit_user_scopes').selectAll().where('user_id', '=', teacher).execute();
    expect(rows).toEqual([]);
  });
});

describe('the policy held in memory', () => {
  it('is dropped when another instance tells of a change', async () => {
    const row = () => staff.get('/api/njit/students?studentNo=202101010001&studentNoMode=exact');
    expect((await row()).json().data[0].name).toBe('张三');
    // What another instance's save does: the table written and the change announced.
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('njit_field_policy')
        .set({ level: 'hidden' })
        .where('role', '=', 'njit')
        .where('field', '=', 'name')
        .execute();
      await notifierOf(ctx.db).notify('portal_njit_policy', 'changed', trx);
    });
    // PostgreSQL delivers the notification after the commit, on its own connection: asked until it has.
    let shown = (await row()).json().data[0];
    for (let i = 0; i < 200 && 'name' in shown; i++) {
      await new Promise((r) => setTimeout(r, 25));
      shown = (await row()).json().data[0];
    }
    expect(shown).not.toHaveProperty('name');
  });
});

describe('the policy grid', () => {
  it('refuses a mask on a field that cannot be masked, unknown fields and levels, duplicate roles, and changes nothing', async () => {
    const before = (await admin.get('/api/njit/policy')).json().data;
    const bad = [
      { roles: allRoles({ grade: 'masked' } as Partial<FieldLevels>) },
      { roles: allRoles({ name: 'secret' } as unknown as Partial<FieldLevels>) },
      { roles: [{ role: 'njit', fields: { ...DEFAULT_FIELD_LEVELS, extra: 'full' } }] },
      { roles: [{ role: 'njit', fields: { name: 'full' } }] },
      { roles: [...allRoles(), allRoles()[0]] },
      { roles: [{ role: 'admin', fields: DEFAULT_FIELD_LEVELS }] },
      { roles: [] },
      { roles: '[{"role":"njit"}]' },
    ];
    for (const body of bad) {
      const res = await put(admin, '/api/njit/policy', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
    const masked = await put(admin, '/api/njit/policy', bad[0]);
    expect(JSON.stringify(masked.json())).toContain('不能脱敏');
    expect((await admin.get('/api/njit/policy')).json().data).toEqual(before);
  });

  it('saves one role without touching the others, and audits the change', async () => {
    const res = await put(admin, '/api/njit/policy', {
      roles: [{ role: 'njit_teacher', fields: { ...DEFAULT_FIELD_LEVELS, idCard: 'hidden' } }],
    });
    expect(res.statusCode).toBe(200);
    const roles = res.json().data.roles as { role: string; fields: FieldLevels }[];
    expect(roles.find((r) => r.role === 'njit_teacher')!.fields.idCard).toBe('hidden');
    expect(roles.find((r) => r.role === 'njit')!.fields.idCard).toBe('masked');
    const audit = await ctx.db
      .selectFrom('njit_audit')
      .selectAll()
      .where('action', '=', 'policy_change')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.criteria).toEqual({
      roles: [{ role: 'njit_teacher', changes: [{ field: 'idCard', from: 'masked', to: 'hidden' }] }],
    });
  });

  it('previews a student as a role sees them, with the same code, audited', async () => {
    await setPolicy({ name: 'hidden', studentNo: 'masked' }, 'njit_counselor');
    const res = await admin.get('/api/njit/policy/preview?role=njit_counselor&studentNo=202101010001');
    expect(res.statusCode).toBe(200);
    const { student } = res.json().data;
    expect(student).not.toHaveProperty('name');
    expect(student.studentNo).toBe('202*********');
    expect(student.phone).toBe('138****1234');
    const asNjit = (await admin.get('/api/njit/policy/preview?role=njit&studentNo=202101010001')).json().data;
    expect(asNjit.student.name).toBe('张三');
    expect((await admin.get('/api/njit/policy/preview?role=njit&studentNo=000000')).statusCode).toBe(404);
    expect((await admin.get('/api/njit/policy/preview?role=admin&studentNo=202101010001')).statusCode).toBe(400);
    // The two records shown are audited; the refused lookups (no such student, not an NJIT role) are not.
    const audited = await ctx.db
      .selectFrom('njit_audit')
      .select(['result_count', 'criteria'])
      .where('action', '=', 'policy_preview')
      .orderBy('id')
      .execute();
    expect(audited.map((a) => [a.result_count, (a.criteria as { role: string }).role])).toEqual([
      [1, 'njit_counselor'],
      [1, 'njit'],
    ]);
  });

  it('is stored for every NJIT role and every field of the roster', async () => {
    const rows = await ctx.db.selectFrom('njit_field_policy').select(['role', 'field']).execute();
    for (const role of NJIT_ROLES) {
      expect(
        rows
          .filter((r) => r.role === role)
          .map((r) => r.field)
          .sort(),
      ).toEqual([...POLICY_FIELDS].sort());
    }
  });
});
