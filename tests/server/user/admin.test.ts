import { Client, loggedInClient, startTestApp, type TestContext } from '../helpers';

let ctx: TestContext;
let admin: Client;
let adminUid: number;
beforeAll(async () => {
  ctx = await startTestApp();
  const a = await loggedInClient(ctx, ['admin']);
  admin = a.client;
  adminUid = a.uid;
});
afterAll(async () => {
  await ctx.close();
});

const patch = (c: Client, id: number, payload: unknown) =>
  c.request({ method: 'PATCH', url: `/api/user/admin/users/${id}`, payload: payload as object });
const del = (c: Client, id: number, confirm: string) =>
  c.request({ method: 'DELETE', url: `/api/user/admin/users/${id}`, payload: { confirm } });
const auditCount = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const lastAudit = () => ctx.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

test('create a user with a generated password shown once; it can log in; audited', async () => {
  const res = await admin.post('/api/user/admin/users', {
    username: 'staff_li',
    generatePassword: true,
    nickname: '李老师',
    roles: ['njit'],
  });
  expect(res.statusCode).toBe(200);
  const { generatedPassword, uid, roles } = res.json().data;
  expect(generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);
  expect(roles).toEqual(['njit']);
  expect(
    (await new Client(ctx.app).post('/api/user/login', { username: 'staff_li', password: generatedPassword }))
      .statusCode,
  ).toBe(200);
  const got = await admin.get(`/api/user/admin/users/${uid}`);
  expect(got.json().data).not.toHaveProperty('generatedPassword');
  const audit = await lastAudit();
  expect(audit).toMatchObject({
    action: 'user.create',
    actor_id: adminUid,
    target_id: String(uid),
    target_name: 'staff_li',
    ip: '127.0.0.1',
  });
  expect(JSON.stringify(audit)).not.toContain(generatedPassword);
});

test('create: duplicate username 409, bad input 400, nothing written', async () => {
  await admin.post('/api/user/admin/users', { username: 'dup_user', password: 'pa55word!', roles: [] });
  const before = await auditCount();
  expect((await admin.post('/api/user/admin/users', { username: 'DUP_USER', password: 'pa55word!' })).statusCode).toBe(
    409,
  );
  for (const bad of [
    { username: 'ok_name' },
    { username: 'ok_name', password: 'short' },
    { username: 'x', password: 'pa55word!' },
    { username: 'ok_name', password: 'pa55word!', roles: ['superuser'] },
    { username: 'ok_name', password: 'pa55word!', nickname: 'n'.repeat(40) },
    { username: '<script>', password: 'pa55word!' },
  ]) {
    const res = await admin.post('/api/user/admin/users', bad);
    expect({ bad, status: res.statusCode }).toEqual({ bad, status: 400 });
  }
  expect(await auditCount()).toBe(before);
  const list = await admin.get('/api/user/admin/users?keyword=ok_name');
  expect(list.json().total).toBe(0);
});

test('list: search, filter by role and status, sort, paginate', async () => {
  for (let i = 0; i < 12; i++) {
    await admin.post('/api/user/admin/users', {
      username: `list_${i}`,
      password: 'pa55word!',
      ...(i % 2 ? { nickname: `奇数${i}` } : {}),
      roles: i % 3 === 0 ? ['njit'] : [],
    });
  }
  const page1 = (await admin.get('/api/user/admin/users?keyword=list_&pageSize=5&current=1')).json();
  expect(page1.total).toBe(12);
  expect(page1.data).toHaveLength(5);
  expect(page1.data[0].username).toBe('list_11'); // newest first by default
  const page3 = (await admin.get('/api/user/admin/users?keyword=list_&pageSize=5&current=3')).json();
  expect(page3.data).toHaveLength(2);

  const byNick = (await admin.get(`/api/user/admin/users?keyword=${encodeURIComponent('奇数')}`)).json();
  expect(byNick.total).toBe(6);
  const njit = (await admin.get('/api/user/admin/users?keyword=list_&role=njit')).json();
  expect(njit.total).toBe(4);
  const asc = (await admin.get('/api/user/admin/users?keyword=list_&sortBy=createdAt&order=ascend&pageSize=1')).json();
  expect(asc.data[0].username).toBe('list_0');
  const lastLogin = await admin.get('/api/user/admin/users?sortBy=lastLoginAt&order=descend');
  expect(lastLogin.statusCode).toBe(200);

  const wildcard = (await admin.get(`/api/user/admin/users?keyword=${encodeURIComponent('%')}`)).json();
  expect(wildcard.total).toBe(0); // LIKE wildcards are literal
  const injection = await admin.get(`/api/user/admin/users?keyword=${encodeURIComponent("' or 1=1 --")}`);
  expect(injection.json().total).toBe(0);
  expect((await admin.get('/api/user/admin/users?role=root')).statusCode).toBe(400);
  expect((await admin.get('/api/user/admin/users?sortBy=password')).statusCode).toBe(400);
});

test("disable ends the user's sessions, stops their tokens, and is audited with before/after", async () => {
  const u = await loggedInClient(ctx);
  const { token } = (
    await u.client.post('/api/user/tokens', { name: 'x', scopes: ['ums:send'], expiresInDays: null })
  ).json().data;
  const res = await patch(admin, u.uid, { status: 'disabled' });
  expect(res.json().data).toMatchObject({ status: 'disabled', endedSessions: 1 });
  expect((await u.client.get('/api/user/me')).statusCode).toBe(401);
  const check = await ctx.app.inject({
    method: 'GET',
    url: '/api/token/check',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(check.statusCode).toBe(401);
  expect(
    (await new Client(ctx.app).post('/api/user/login', { username: u.username, password: 'correct-horse-battery' }))
      .statusCode,
  ).toBe(403);
  const audit = await lastAudit();
  expect(audit).toMatchObject({
    action: 'user.update',
    before: { status: 'active' },
    after: { status: 'disabled', endedSessions: 1 },
  });

  // Re-enabling brings the token back; nothing was revoked silently.
  await patch(admin, u.uid, { status: 'active' });
  const again = await ctx.app.inject({
    method: 'GET',
    url: '/api/token/check',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(again.statusCode).toBe(200);
});

test('edit nickname and roles; an empty patch is 400', async () => {
  const u = await loggedInClient(ctx);
  const res = await patch(admin, u.uid, { nickname: '新昵称', roles: ['njit', 'njit'] });
  expect(res.json().data).toMatchObject({ nickname: '新昵称', roles: ['njit'], endedSessions: 0 });
  expect((await u.client.get('/api/user/me')).json().data.roles).toEqual(['njit']);
  expect((await patch(admin, u.uid, {})).statusCode).toBe(400);
  expect((await patch(admin, u.uid, { status: 'deleted' })).statusCode).toBe(400);
  expect((await patch(admin, 987654, { nickname: 'x' })).statusCode).toBe(404);
});

test('reset password ends all sessions; the generated password works once shown', async () => {
  const u = await loggedInClient(ctx);
  const res = await admin.post(`/api/user/admin/users/${u.uid}/reset-password`, { generatePassword: true });
  const { generatedPassword, endedSessions } = res.json().data;
  expect(endedSessions).toBe(1);
  expect((await u.client.get('/api/user/me')).statusCode).toBe(401);
  expect(
    (await new Client(ctx.app).post('/api/user/login', { username: u.username, password: generatedPassword }))
      .statusCode,
  ).toBe(200);
  expect((await admin.post(`/api/user/admin/users/${u.uid}/reset-password`, {})).statusCode).toBe(400);
  const audit = await lastAudit();
  expect(audit.action).toBe('user.reset_password');
  expect(JSON.stringify(audit)).not.toContain(generatedPassword);
});

test('delete needs the typed username; tokens and sessions go; the row stays anonymised', async () => {
  const u = await loggedInClient(ctx);
  await u.client.post('/api/user/tokens', { name: 'x', scopes: ['ocs:query'], expiresInDays: null });
  const wrong = await del(admin, u.uid, 'not-the-name');
  expect(wrong.statusCode).toBe(400);
  expect(wrong.json().data.confirm).toBeDefined();
  expect((await u.client.get('/api/user/me')).statusCode).toBe(200);

  expect((await del(admin, u.uid, u.username)).json()).toEqual({ success: true });
  expect((await u.client.get('/api/user/me')).statusCode).toBe(401);
  const row = await ctx.db.selectFrom('users').selectAll().where('id', '=', u.uid).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ username: `deleted_${u.uid}`, nickname: null, status: 'deleted', roles: [] });
  const tokens = await ctx.db.selectFrom('api_tokens').select('id').where('user_id', '=', u.uid).execute();
  expect(tokens).toHaveLength(0);
  expect((await admin.get(`/api/user/admin/users/${u.uid}`)).statusCode).toBe(404);
  // The name is free again.
  expect(
    (await new Client(ctx.app).post('/api/user/register', { username: u.username, password: 'pa55word!' })).statusCode,
  ).toBe(200);
  const audit = await lastAudit();
  expect(audit).toMatchObject({ action: 'user.delete', target_name: u.username, before: { username: u.username } });
});

describe('self-protection and the last admin', () => {
  test('an admin cannot remove their own admin role, disable or delete themselves', async () => {
    const me = await loggedInClient(ctx, ['admin']);
    const r1 = await patch(me.client, me.uid, { roles: [] });
    expect(r1.statusCode).toBe(403);
    expect(r1.json().errorMessage).toBe('不能移除自己的管理员角色');
    expect((await patch(me.client, me.uid, { status: 'disabled' })).statusCode).toBe(403);
    expect((await del(me.client, me.uid, me.username)).statusCode).toBe(403);
    expect((await patch(me.client, me.uid, { nickname: '我自己', roles: ['admin', 'njit'] })).statusCode).toBe(200);
  });

  test('the last active admin can never be removed, whoever tries', async () => {
    const fresh = await startTestApp();
    try {
      const a = await loggedInClient(fresh, ['admin']);
      const b = await loggedInClient(fresh, ['admin']);
      // b demotes a: fine, b is still an admin.
      expect((await patch(b.client, a.uid, { roles: [] })).statusCode).toBe(200);
      // Now b is the last admin: nobody can remove b (not even via a second path).
      expect((await patch(b.client, b.uid, { roles: [] })).statusCode).toBe(403);
      const c = await loggedInClient(fresh, ['admin']);
      await patch(c.client, c.uid, { nickname: 'c' });
      await fresh.db.updateTable('users').set({ roles: [] }).where('id', '=', c.uid).execute(); // c no longer admin
      const last = await patch(b.client, b.uid, { status: 'disabled' });
      expect(last.statusCode).toBe(403);
    } finally {
      await fresh.close();
    }
  });

  test('two admins demoting each other concurrently: exactly one succeeds, one admin remains', async () => {
    for (let round = 0; round < 3; round++) {
      const fresh = await startTestApp();
      try {
        const a = await loggedInClient(fresh, ['admin']);
        const b = await loggedInClient(fresh, ['admin']);
        const [ra, rb] = await Promise.all([
          patch(a.client, b.uid, { roles: [] }),
          patch(b.client, a.uid, { roles: [] }),
        ]);
        const codes = [ra.statusCode, rb.statusCode].sort();
        // Both passed the role check before either changed anything, so the loser is refused as the
        // last admin (409), or, if it arrived after the winner committed, has lost admin rights (403).
        expect(codes[0]).toBe(200);
        expect([403, 409]).toContain(codes[1]);
        const admins = await fresh.db
          .selectFrom('users')
          .select('id')
          .where((eb) => eb(eb.val('admin'), '=', eb.fn.any('roles')))
          .where('status', '=', 'active')
          .execute();
        expect(admins).toHaveLength(1);
      } finally {
        await fresh.close();
      }
    }
  });

  test('a disabled or demoted admin loses the admin routes at once', async () => {
    const fresh = await startTestApp();
    try {
      const a = await loggedInClient(fresh, ['admin']);
      const b = await loggedInClient(fresh, ['admin']);
      expect((await patch(a.client, b.uid, { status: 'disabled' })).statusCode).toBe(200);
      // a is now the only active admin; b (disabled) cannot act, and a cannot remove itself.
      expect((await del(a.client, a.uid, a.username)).statusCode).toBe(403);
      expect((await patch(a.client, b.uid, { status: 'active' })).statusCode).toBe(200);
      const bAgain = new Client(fresh.app);
      await bAgain.post('/api/user/login', { username: b.username, password: 'correct-horse-battery' });
      expect((await patch(bAgain, a.uid, { roles: [] })).statusCode).toBe(200);
      // b is the last admin; a non-admin cannot reach the route at all.
      expect((await del(a.client, b.uid, b.username)).statusCode).toBe(403);
    } finally {
      await fresh.close();
    }
  });
});

describe('an administrator gives themself the njit role', () => {
  test('in one audited step; their session carries the role at its next request; asking again changes nothing', async () => {
    const self = await loggedInClient(ctx, ['admin']);
    expect((await self.client.get('/api/njit/overview')).statusCode).toBe(403);
    const before = await auditCount();
    const res = await self.client.post('/api/user/admin/self/njit', {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { roles: ['admin', 'njit'], granted: true } });
    expect((await self.client.get('/api/user/me')).json().data.roles).toEqual(['admin', 'njit']);
    expect((await self.client.get('/api/njit/overview')).statusCode).toBe(200);
    expect(await auditCount()).toBe(before + 1);
    expect(await lastAudit()).toMatchObject({
      actor_id: self.uid,
      action: 'user.grant_self_njit',
      target_type: 'user',
      target_id: String(self.uid),
      before: { roles: ['admin'] },
      after: { roles: ['admin', 'njit'] },
    });
    const again = await self.client.post('/api/user/admin/self/njit', {});
    expect(again.json()).toEqual({ success: true, data: { roles: ['admin', 'njit'], granted: false } });
    expect(await auditCount()).toBe(before + 1);
  });

  test('asked twice at once: granted once, recorded once', async () => {
    const self = await loggedInClient(ctx, ['admin']);
    const before = await auditCount();
    const answers = await Promise.all([1, 2, 3].map(() => self.client.post('/api/user/admin/self/njit', {})));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.json().data.granted)).toHaveLength(1);
    expect(await auditCount()).toBe(before + 1);
    const row = await ctx.db.selectFrom('users').select('roles').where('id', '=', self.uid).executeTakeFirstOrThrow();
    expect(row.roles).toEqual(['admin', 'njit']);
  });

  test('only for an administrator, only for themself: a user is refused and nothing changes', async () => {
    const plain = await loggedInClient(ctx, []);
    const before = await auditCount();
    const res = await plain.client.post('/api/user/admin/self/njit', {});
    expect(res.statusCode).toBe(403);
    expect((await plain.client.get('/api/user/me')).json().data.roles).toEqual([]);
    expect(await auditCount()).toBe(before);
    // The endpoint takes no target: a body naming another user changes only the caller.
    const self = await loggedInClient(ctx, ['admin']);
    await self.client.post('/api/user/admin/self/njit', { userId: plain.uid, uid: plain.uid });
    expect((await plain.client.get('/api/user/me')).json().data.roles).toEqual([]);
  });
});

test('the audit log lists every admin action newest first and filters by target', async () => {
  const u = await loggedInClient(ctx);
  await patch(admin, u.uid, { nickname: 'a1' });
  await patch(admin, u.uid, { nickname: 'a2' });
  const res = (await admin.get(`/api/user/admin/audit?targetId=${u.uid}`)).json();
  expect(res.total).toBe(2);
  expect(res.data[0]).toMatchObject({
    action: 'user.update',
    before: { nickname: 'a1' },
    after: { nickname: 'a2' },
    actorId: adminUid,
  });
  expect(res.data[1].after).toEqual({ nickname: 'a1' });
  const all = (await admin.get('/api/user/admin/audit?pageSize=100')).json();
  const ids = all.data.map((e: { id: number }) => e.id);
  expect([...ids].sort((x: number, y: number) => y - x)).toEqual(ids);
});

test('a non-admin gets 403 from every admin route', async () => {
  const plain = await loggedInClient(ctx, ['njit']);
  const routes = ctx.app.routeAccess.filter((r) => r.url.startsWith('/api/user/admin'));
  expect(routes.length).toBeGreaterThanOrEqual(7);
  for (const r of routes) {
    const res = await plain.client.request({
      method: r.method as 'GET',
      url: r.url.replace(':id', String(adminUid)),
      ...(r.method === 'GET' ? {} : { payload: {} }),
    });
    expect({ route: `${r.method} ${r.url}`, status: res.statusCode }).toEqual({
      route: `${r.method} ${r.url}`,
      status: 403,
    });
  }
});
