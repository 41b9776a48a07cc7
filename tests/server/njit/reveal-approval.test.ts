/**
 * Four-eyes reveals (NJIT_REVEAL_APPROVAL=idCard): an administrator asks, another approves or refuses,
 * the requester sees the value while the approval lasts; nobody decides their own request, a refused or
 * expired request shows nothing, and every step is in the audit trail without the value.
 */
import { DEFAULT_FIELD_LEVELS, NJIT_ROLES } from '../../../src/contract';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { csv, importFile, PEOPLE } from './fixtures';

let ctx: TestContext;
let alice: Client;
let bob: Client;
let staff: Client;
let aliceName: string;
let bobName: string;
let zhang: number;

beforeAll(async () => {
  ctx = await startTestApp({ NJIT_REVEAL_APPROVAL: 'idCard', NJIT_REVEAL_APPROVAL_MINUTES: '10' });
  ({ client: alice, username: aliceName } = await loggedInClient(ctx, ['njit', 'admin']));
  ({ client: bob, username: bobName } = await loggedInClient(ctx, ['njit', 'admin']));
  ({ client: staff } = await loggedInClient(ctx, ['njit']));
  await importFile(alice, csv(PEOPLE));
  zhang = (await ctx.db.selectFrom('njit_students').select('id').where('name', '=', '张三').executeTakeFirstOrThrow())
    .id;
});
afterAll(async () => {
  await ctx.close();
});

const ask = (c: Client, field = 'idCard', reason = '办理学籍证明') =>
  c.post(`/api/njit/students/${zhang}/reveal-requests`, { field, reason });
const decide = (c: Client, id: number, decision: string) =>
  c.post(`/api/njit/reveal-requests/${id}/decision`, { decision });
const see = (c: Client, id: number) => c.post(`/api/njit/reveal-requests/${id}/reveal`, {});
const audits = (action: string) =>
  ctx.db.selectFrom('njit_audit').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();

it('tells the search form which fields need approval, and refuses the direct reveal of those', async () => {
  expect((await alice.get('/api/njit/options')).json().data.approval).toEqual({ fields: ['idCard'], minutes: 10 });
  const direct = await alice.post(`/api/njit/students/${zhang}/reveal`, { field: 'idCard', reason: '办理学籍证明' });
  expect(direct.statusCode).toBe(403);
  expect(direct.json().errorMessage).toMatch(/另一位管理员批准/);
  // A field outside the list is revealed with a reason, as before; it needs no request.
  expect(
    (await alice.post(`/api/njit/students/${zhang}/reveal`, { field: 'phone', reason: '核实联系方式' })).json(),
  ).toMatchObject({ data: { value: '13812341234' } });
  expect((await ask(alice, 'phone')).statusCode).toBe(400);
});

it('lets another administrator approve; the requester then sees the value, the approver does not', async () => {
  const made = await ask(alice);
  expect(made.statusCode).toBe(200);
  const request = made.json().data;
  expect(request).toMatchObject({ studentName: '张三', field: 'idCard', status: 'pending', requesterName: aliceName });
  // Asking again while it waits is the same request.
  expect((await ask(alice)).json().data.id).toBe(request.id);
  expect((await audits('reveal_request')).filter((a) => a.criteria?.request === request.id)).toHaveLength(1);

  // Not yet approved: nothing to see.
  expect((await see(alice, request.id)).statusCode).toBe(409);
  // The requester cannot approve their own request, and it is not in their queue.
  const own = await decide(alice, request.id, 'approve');
  expect(own.statusCode).toBe(403);
  expect(own.json().errorMessage).toMatch(/不能审批自己的申请/);
  const aliceQueue = (await alice.get('/api/njit/reveal-requests?scope=pending')).json().data;
  expect(aliceQueue.map((r: { id: number }) => r.id)).not.toContain(request.id);
  const bobQueue = (await bob.get('/api/njit/reveal-requests?scope=pending')).json().data;
  expect(bobQueue.map((r: { id: number }) => r.id)).toContain(request.id);

  const approved = await decide(bob, request.id, 'approve');
  expect(approved.statusCode).toBe(200);
  expect(approved.json().data).toMatchObject({ status: 'approved', deciderName: bobName });
  const minutes = (Date.parse(approved.json().data.expiresAt) - Date.parse(approved.json().data.decidedAt)) / 60_000;
  expect(minutes).toBeCloseTo(10, 5);
  // Decided once: a second decision is refused.
  expect((await decide(bob, request.id, 'refuse')).statusCode).toBe(409);

  const value = await see(alice, request.id);
  expect(value.json()).toMatchObject({ success: true, data: { field: 'idCard', value: '32010220030101123X' } });
  // Only the requester: the approver or anyone else gets nothing, not even that the request exists.
  expect((await see(bob, request.id)).statusCode).toBe(404);
  expect((await see(staff, request.id)).statusCode).toBe(403);

  const [reveal] = await audits('reveal');
  expect(reveal).toMatchObject({ user_name: aliceName, record_ids: [zhang], reason: '办理学籍证明' });
  expect(reveal!.criteria).toEqual({ id: zhang, field: 'idCard', request: request.id });
  const [decision] = await audits('reveal_decide');
  expect(decision).toMatchObject({ user_name: bobName, record_ids: [zhang] });
  expect(decision!.criteria).toMatchObject({ request: request.id, decision: 'approve' });
  // The value is nowhere in the trail.
  const trail = JSON.stringify(await ctx.db.selectFrom('njit_audit').selectAll().execute());
  expect(trail).not.toContain('32010220030101123X');

  const mine = (await alice.get('/api/njit/reveal-requests?scope=mine')).json();
  expect(mine.data[0]).toMatchObject({ id: request.id, status: 'approved' });
});

it('shows nothing once the approval has run out, or for a refused request', async () => {
  const request = (await ask(alice, 'idCard', '核对身份信息')).json().data;
  await decide(bob, request.id, 'approve');
  await ctx.db
    .updateTable('njit_reveal_requests')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('id', '=', request.id)
    .execute();
  const late = await see(alice, request.id);
  expect(late.statusCode).toBe(409);
  expect(late.json().errorMessage).toMatch(/已过期/);

  const refusedOne = (await ask(alice, 'idCard', '再次核对身份')).json().data;
  expect((await decide(bob, refusedOne.id, 'refuse')).json().data).toMatchObject({ status: 'refused' });
  expect((await see(alice, refusedOne.id)).json().errorMessage).toMatch(/已被拒绝/);
});

it('lets only one of two simultaneous decisions through', async () => {
  const { client: carol } = await loggedInClient(ctx, ['njit', 'admin']);
  const request = (await ask(alice, 'idCard', '并发审批')).json().data;
  const results = await Promise.all([decide(bob, request.id, 'approve'), decide(carol, request.id, 'refuse')]);
  expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  expect((await audits('reveal_decide')).filter((a) => a.criteria?.request === request.id)).toHaveLength(1);
});

it('refuses bad input with 400 and staff without admin with 403', async () => {
  for (const body of [{ field: 'idCard', reason: '' }, { field: 'name', reason: '办理证明' }, { field: 'idCard' }]) {
    expect((await alice.post(`/api/njit/students/${zhang}/reveal-requests`, body)).statusCode).toBe(400);
  }
  expect((await ask(alice, 'idCard', '\u0000\u0000')).statusCode).toBe(400);
  expect(
    (await alice.post('/api/njit/students/999999/reveal-requests', { field: 'idCard', reason: '办理证明' })).statusCode,
  ).toBe(404);
  expect((await decide(bob, 1, 'maybe')).statusCode).toBe(400);
  expect((await decide(bob, 99999999999, 'approve')).statusCode).toBe(400);
  expect((await alice.get('/api/njit/reveal-requests?scope=everyone')).statusCode).toBe(400);
  expect((await ask(staff)).statusCode).toBe(403);
  expect((await staff.get('/api/njit/reveal-requests?scope=pending')).statusCode).toBe(403);
});

it('goes with the student and with the requester', async () => {
  const { client: dave, uid: daveId } = await loggedInClient(ctx, ['njit', 'admin']);
  await ask(dave, 'idCard', '离职前核对');
  const count = () =>
    ctx.db
      .selectFrom('njit_reveal_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('requester_id', '=', daveId)
      .executeTakeFirstOrThrow();
  expect(Number((await count()).n)).toBe(1);
  await ctx.db.deleteFrom('users').where('id', '=', daveId).execute();
  expect(Number((await count()).n)).toBe(0);
});

it('names the student as the caller’s field policy shows them: masked, or left out when hidden', async () => {
  const { client: carol } = await loggedInClient(ctx, ['njit_teacher', 'admin']);
  const roles = NJIT_ROLES.map((role) => ({
    role,
    fields: { ...DEFAULT_FIELD_LEVELS, ...(role === 'njit_teacher' ? { name: 'masked', studentNo: 'hidden' } : {}) },
  }));
  expect((await alice.request({ method: 'PUT', url: '/api/njit/policy', payload: { roles } })).statusCode).toBe(200);
  try {
    const asked = await ask(alice, 'idCard', '核对学籍信息');
    expect(asked.statusCode).toBe(200);
    const request = asked.json().data;
    expect(request).toMatchObject({ studentName: '张三', studentNo: '202101010001' });
    const auditsBefore = (await audits('reveal_request')).length;

    const queue = (await carol.get('/api/njit/reveal-requests?scope=pending')).json().data;
    const seen = queue.find((r: { id: number }) => r.id === request.id);
    expect(seen.studentName).toBe('张*');
    expect(seen).not.toHaveProperty('studentNo');
    expect(JSON.stringify(queue)).not.toContain('张三');
    expect(JSON.stringify(queue)).not.toContain('202101010001');
    // The requester, whose njit role sees both in full, still does.
    const own = (await alice.get('/api/njit/reveal-requests?scope=mine')).json().data;
    expect(own.find((r: { id: number }) => r.id === request.id)).toMatchObject({
      studentName: '张三',
      studentNo: '202101010001',
    });

    const decided = (await decide(carol, request.id, 'refuse')).json().data;
    expect(decided).toMatchObject({ status: 'refused', studentName: '张*' });
    expect(decided).not.toHaveProperty('studentNo');
    // Listing writes no audit row, as before; the decision is on record as before.
    expect((await audits('reveal_request')).length).toBe(auditsBefore);
    expect((await audits('reveal_decide'))[0]).toMatchObject({ record_ids: [zhang] });
  } finally {
    const reset = NJIT_ROLES.map((role) => ({ role, fields: DEFAULT_FIELD_LEVELS }));
    await alice.request({ method: 'PUT', url: '/api/njit/policy', payload: { roles: reset } });
  }
});

it('keeps answering a request asked again and again (the embedded database plans it generically after a few runs)', async () => {
  const { client: erin } = await loggedInClient(ctx, ['njit', 'admin']);
  const answers = [];
  for (let i = 0; i < 8; i += 1) answers.push(await ask(erin, 'idCard', '多次提交'));
  expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
  expect(new Set(answers.map((a) => a.json().data.id)).size).toBe(1);
});
