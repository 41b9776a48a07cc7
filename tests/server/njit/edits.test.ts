/**
 * Edits that survive the next import: a correction by hand (validated, audited with masked values,
 * flagged), the import's diff against what is stored (new, changed with the manual flag, missing), and
 * the commit's choices (keep the manual edit or take the roster, per field or in bulk; mark the missing
 * students 离校), each in one transaction.
 */
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { csv, importFile, PEOPLE, upload } from './fixtures';

let ctx: TestContext;
let admin: Client;
let staff: Client;

beforeAll(async () => {
  ctx = await startTestApp();
  ({ client: admin } = await loggedInClient(ctx, ['njit', 'admin']));
  ({ client: staff } = await loggedInClient(ctx, ['njit']));
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await ctx.db.deleteFrom('njit_students').execute();
  await ctx.db.deleteFrom('njit_audit').execute();
  await ctx.db.deleteFrom('njit_import_staging').execute();
  await importFile(admin, csv(PEOPLE));
});

const ZHANG = '202101010001';
const idOf = async (no: string) =>
  (await ctx.db.selectFrom('njit_students').select('id').where('student_no', '=', no).executeTakeFirstOrThrow()).id;
const row = (no: string) =>
  ctx.db.selectFrom('njit_students').selectAll().where('student_no', '=', no).executeTakeFirstOrThrow();
const edits = async () =>
  (
    await ctx.db
      .selectFrom('njit_student_edits as e')
      .innerJoin('njit_students as s', 's.id', 'e.student_id')
      .select(['s.student_no', 'e.field'])
      .orderBy('s.student_no')
      .orderBy('e.field')
      .execute()
  ).map((r) => `${r.student_no}:${r.field}`);
const lastImportAudit = () =>
  ctx.db
    .selectFrom('njit_audit')
    .selectAll()
    .where('action', '=', 'import')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
const patch = (c: Client, id: number, payload: unknown) =>
  c.request({ method: 'PATCH', url: `/api/njit/students/${id}`, payload: payload as object });

/** PEOPLE with some cells changed: rows by student number, columns by header index. */
function roster(changes: Record<string, Record<number, string>>, drop: string[] = [], extra: string[][] = []) {
  return [...PEOPLE.filter((p) => !drop.includes(p[0])).map((p) => p.map((v, i) => changes[p[0]]?.[i] ?? v)), ...extra];
}
const COLLEGE = 3;
const GRADE = 6;

describe('a correction by hand', () => {
  it('writes the changed fields, flags them, answers masked and audits before/after with masked values', async () => {
    const id = await idOf(ZHANG);
    const res = await patch(admin, id, { college: '  信息工程学院 ', phone: '139-0000-2222', name: '张叁' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ college: '信息工程学院', phone: '139****2222', name: '张叁' });
    expect(data.manualEdits.map((e: { field: string }) => e.field).sort()).toEqual(['college', 'name', 'phone']);
    const stored = await row(ZHANG);
    expect(stored).toMatchObject({
      college: '信息工程学院',
      phone: '13900002222',
      name: '张叁',
      name_pinyin: 'zhangsan',
    });
    expect(await edits()).toEqual([`${ZHANG}:college`, `${ZHANG}:name`, `${ZHANG}:phone`]);

    const audit = await ctx.db.selectFrom('njit_audit').selectAll().where('action', '=', 'edit').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].record_ids).toEqual([id]);
    expect(audit[0].criteria).toEqual({
      id,
      changes: {
        name: { before: '张三', after: '张叁' },
        college: { before: '计算机工程学院', after: '信息工程学院' },
        phone: { before: '138****1234', after: '139****2222' },
      },
    });
    const exported = await admin.get(`/api/njit/audit/export?studentId=${id}`);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain('139****2222');
    expect(exported.body).not.toContain('13900002222');
    expect(exported.body).not.toContain('13812341234');

    // The detail shows which fields were corrected by hand.
    const detail = (await admin.get(`/api/njit/students/${id}`)).json().data;
    expect(detail.manualEdits.map((e: { field: string }) => e.field).sort()).toEqual(['college', 'name', 'phone']);
  });

  it('sending the stored value again changes nothing and flags nothing', async () => {
    const id = await idOf(ZHANG);
    const before = await row(ZHANG);
    const res = await patch(admin, id, { college: '计算机工程学院', grade: 2021 });
    expect(res.statusCode).toBe(200);
    expect(await edits()).toEqual([]);
    expect((await row(ZHANG)).updated_at).toEqual(before.updated_at);
    expect(await ctx.db.selectFrom('njit_audit').selectAll().where('action', '=', 'edit').execute()).toEqual([]);
  });

  it('refuses a caller without admin', async () => {
    const res = await patch(staff, await idOf(ZHANG), { college: '信息工程学院' });
    expect(res.statusCode).toBe(403);
    expect((await row(ZHANG)).college).toBe('计算机工程学院');
  });

  it.each([
    ['an empty body', {}],
    ['the student number', { studentNo: '999999' }],
    ['an unknown field', { college: '信息工程学院', hacked: true }],
    ['a blank name', { name: '   ' }],
    ['a huge name', { name: '张'.repeat(33) }],
    ['a name with a line break', { name: '张\n三' }],
    ['a NUL byte', { college: 'a\u0000b' }],
    ['a lone surrogate', { college: 'a\ud800b' }],
    ['a wrong phone', { phone: '12345' }],
    ['a phone as a number', { phone: 13900002222 }],
    ['an ID number with a wrong check character', { idCard: '320102200301011231' }],
    ['a grade as text', { grade: '2021' }],
    ['a grade out of range', { grade: 1800 }],
    ['an unknown status', { status: '失联' }],
    ['a wrong gender', { gender: 'x' }],
    ['JSON text nested in a field', { college: '{"a":"\\u0000"}', phone: '{"x":1}' }],
    ['a huge college', { college: 'x'.repeat(65) }],
    ['an array', [{ college: 'x' }]],
  ])('refuses %s with 400 in Chinese and writes nothing', async (_what, body) => {
    const id = await idOf(ZHANG);
    const before = await row(ZHANG);
    const res = await patch(admin, id, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false });
    expect(res.json().errorMessage).toMatch(/[\u4e00-\u9fa5]/);
    expect(await row(ZHANG)).toEqual(before);
    expect(await edits()).toEqual([]);
    expect(await ctx.db.selectFrom('njit_audit').selectAll().where('action', '=', 'edit').execute()).toEqual([]);
  });

  it('answers 404 for a student that does not exist', async () => {
    const res = await patch(admin, 2_000_000_000, { college: '信息工程学院' });
    expect(res.statusCode).toBe(404);
  });
});

/** Zhang's college and phone corrected by hand; a roster that changes them, changes 张三丰's grade,
 * drops 王五 (在读) and 赵六 (毕业), and brings a new student. */
async function scenario() {
  const zhang = await idOf(ZHANG);
  expect((await patch(admin, zhang, { college: '信息工程学院', phone: '13900002222' })).statusCode).toBe(200);
  const file = roster(
    { [ZHANG]: { [COLLEGE]: '计算机学院' }, '202101010002': { [GRADE]: '2020' } },
    ['202202010004', '202202010005'],
    [['202301010006', '钱七', '女', '计算机工程学院', '软件工程', '软件231', '2023', '在读', '', '', '']],
  );
  const up = await upload(admin, csv(file));
  expect(up.statusCode).toBe(200);
  return { zhang, importId: up.json().data.importId as string };
}

const diff = (importId: string, query: string) => admin.get(`/api/njit/imports/${importId}/diff?${query}`);
const commit = (importId: string, body: unknown) => admin.post(`/api/njit/imports/${importId}/commit`, body);

describe('the diff', () => {
  it('lists exactly the changed, new and missing students, with manual flags and masked phones', async () => {
    const { zhang, importId } = await scenario();
    const changed = await diff(importId, 'kind=changed&pageSize=50');
    expect(changed.statusCode).toBe(200);
    expect(changed.json().counts).toEqual({ new: 1, changed: 2, missing: 1, manualConflicts: 2 });
    expect(changed.json().total).toBe(2);
    expect(changed.json().data).toEqual([
      {
        studentId: zhang,
        studentNo: ZHANG,
        name: '张三',
        status: '在读',
        changes: [
          {
            field: 'college',
            stored: '信息工程学院',
            roster: '计算机学院',
            manual: true,
            editedBy: expect.any(String),
          },
          { field: 'phone', stored: '139****2222', roster: '138****1234', manual: true, editedBy: expect.any(String) },
        ],
      },
      {
        studentId: await idOf('202101010002'),
        studentNo: '202101010002',
        name: '张三丰',
        status: '休学',
        changes: [{ field: 'grade', stored: '2021', roster: '2020', manual: false, editedBy: null }],
      },
    ]);
    expect(changed.body).not.toContain('13900002222');
    const fresh = (await diff(importId, 'kind=new')).json();
    expect(fresh.data).toEqual([
      { studentId: null, studentNo: '202301010006', name: '钱七', status: '在读', changes: [] },
    ]);
    // 赵六 graduated: not missing. 王五 is still 在读 and no longer listed.
    const missing = (await diff(importId, 'kind=missing')).json();
    expect(missing.data.map((d: { studentNo: string }) => d.studentNo)).toEqual(['202202010004']);
  });

  it('pages: one kind at a time, at most a page', async () => {
    const { importId } = await scenario();
    const p2 = (await diff(importId, 'kind=changed&current=2&pageSize=1')).json();
    expect(p2).toMatchObject({ total: 2, current: 2, pageSize: 1 });
    expect(p2.data.map((d: { studentNo: string }) => d.studentNo)).toEqual(['202101010002']);
    expect((await diff(importId, 'pageSize=51')).statusCode).toBe(400);
    expect((await diff(importId, 'kind=all')).statusCode).toBe(400);
  });

  it("is the uploader's own: another administrator gets 404", async () => {
    const { importId } = await scenario();
    const { client: other } = await loggedInClient(ctx, ['njit', 'admin']);
    expect((await other.get(`/api/njit/imports/${importId}/diff`)).statusCode).toBe(404);
  });
});

describe('the commit', () => {
  it('keeps manual edits by default, still flagged, and applies the other changes', async () => {
    const { importId } = await scenario();
    const res = await commit(importId, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ inserted: 1, updated: 3, keptManual: 2, takenRoster: 0, markedLeft: 0 });
    expect(await row(ZHANG)).toMatchObject({ college: '信息工程学院', phone: '13900002222' });
    expect((await row('202101010002')).grade).toBe(2020);
    expect(await edits()).toEqual([`${ZHANG}:college`, `${ZHANG}:phone`]);
    expect((await row('202202010004')).status).toBe('在读');
    const audit = await lastImportAudit();
    expect(audit.criteria).toMatchObject({
      manual: 'keep',
      choices: 0,
      missing: 'leave',
      keptManual: 2,
      takenRoster: 0,
    });
  });

  it('takes the roster per field: that value overwrites and its flag is cleared; the other stays kept', async () => {
    const { importId } = await scenario();
    const res = await commit(importId, { choices: [{ studentNo: ZHANG, field: 'phone', take: 'roster' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ keptManual: 1, takenRoster: 1 });
    expect(await row(ZHANG)).toMatchObject({ college: '信息工程学院', phone: '13812341234' });
    expect(await edits()).toEqual([`${ZHANG}:college`]);
  });

  it('takes the roster in bulk, except where a choice keeps the edit', async () => {
    const { importId } = await scenario();
    const res = await commit(importId, {
      manual: 'roster',
      choices: [{ studentNo: ZHANG, field: 'phone', take: 'keep' }],
    });
    expect(res.statusCode).toBe(200);
    expect(await row(ZHANG)).toMatchObject({ college: '计算机学院', phone: '13900002222' });
    expect(await edits()).toEqual([`${ZHANG}:phone`]);
  });

  it('marks the students the roster misses 离校, with left_at, and leaves leavers alone', async () => {
    const { importId } = await scenario();
    const zhao = await row('202202010005');
    const res = await commit(importId, { missing: 'mark_left' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.markedLeft).toBe(1);
    const wang = await row('202202010004');
    expect(wang.status).toBe('离校');
    expect(wang.left_at).not.toBeNull();
    expect(await row('202202010005')).toMatchObject({ status: '毕业', left_at: zhao.left_at });
    const audit = await lastImportAudit();
    expect(audit.criteria).toMatchObject({ missing: 'mark_left', markedLeft: 1 });
    expect(audit.record_ids).toEqual([wang.id]);
  });

  it('an edit and a commit at once both succeed, and the correction stays, flagged', async () => {
    const { importId } = await scenario();
    const wang = await idOf('202202010004');
    const li = await idOf('202101020003');
    const [edit, done] = await Promise.all([
      patch(admin, li, { college: '人工智能学院' }),
      commit(importId, {}),
      patch(admin, wang, { dormitory: '北区1栋1' }),
    ]);
    expect([edit.statusCode, done.statusCode]).toEqual([200, 200]);
    // Whichever came first, the stored value is the correction, and it is flagged.
    expect((await row('202101020003')).college).toBe('人工智能学院');
    expect(await edits()).toContain('202101020003:college');
  });

  it.each([
    ['a wrong bulk choice', { manual: 'overwrite' }],
    ['a choice on the student number', { choices: [{ studentNo: ZHANG, field: 'studentNo', take: 'roster' }] }],
    ['a bad student number', { choices: [{ studentNo: "1' or 1=1", field: 'phone', take: 'roster' }] }],
    [
      'the same field twice',
      {
        choices: [
          { studentNo: ZHANG, field: 'phone', take: 'roster' },
          { studentNo: ZHANG, field: 'phone', take: 'keep' },
        ],
      },
    ],
    [
      'too many choices',
      {
        choices: Array.from({ length: 10001 }, (_, i) => ({
          studentNo: `S${100000 + i}`,
          field: 'phone',
          take: 'keep',
        })),
      },
    ],
    ['a wrong missing choice', { missing: 'delete' }],
    ['an unknown key', { dropAll: true }],
    ['choices as JSON text', { choices: '[]' }],
  ])('refuses %s with 400 and writes nothing; the import can still be committed', async (_what, body) => {
    const { importId } = await scenario();
    const before = await ctx.db.selectFrom('njit_students').selectAll().orderBy('id').execute();
    const res = await commit(importId, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errorMessage).toMatch(/[\u4e00-\u9fa5]/);
    expect(await ctx.db.selectFrom('njit_students').selectAll().orderBy('id').execute()).toEqual(before);
    expect(await edits()).toEqual([`${ZHANG}:college`, `${ZHANG}:phone`]);
    expect((await commit(importId, {})).statusCode).toBe(200);
  });
});
