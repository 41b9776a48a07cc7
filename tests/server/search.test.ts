/**
 * The header's search endpoints, one per module: who may call each (anonymous and wrong roles are
 * refused), that personal kinds answer only the caller's own rows, that students come back masked and
 * audited like the NJIT page's search, and that bad input is a 400 naming the field.
 */
import { SEARCH_LIMIT, SearchQuery } from '../../src/contract';
import { BAD_TEXT_MESSAGE } from '../../src/contract/text';
import { prepareQuestion } from '../../server/modules/ocs/bank/question';
import { upsertQuestions } from '../../server/modules/ocs/bank/store';
import { Client, loggedInClient, startTestApp, type TestContext } from './helpers';
import { csv, importFile, PEOPLE } from './njit/fixtures';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  const { client } = await loggedInClient(ctx, ['njit', 'admin']);
  await importFile(client, csv(PEOPLE));
});
afterAll(async () => {
  await ctx.close();
});

const ENDPOINTS = [
  { url: '/api/user/tokens/search', access: 'user' },
  { url: '/api/ums/search', access: 'user' },
  { url: '/api/ocs/search', access: 'user' },
  { url: '/api/user/admin/search', access: 'admin' },
  { url: '/api/ocs/admin/bank/search', access: 'admin' },
  { url: '/api/njit/search', access: 'njit' },
] as const;

describe('access', () => {
  it.each(ENDPOINTS)('$url refuses anonymous callers', async ({ url }) => {
    const res = await new Client(ctx.app).get(`${url}?q=a`);
    expect(res.statusCode).toBe(401);
  });

  it.each(ENDPOINTS.filter((e) => e.access !== 'user'))('$url refuses a user without the role', async ({ url }) => {
    const { client } = await loggedInClient(ctx, []);
    expect((await client.get(`${url}?q=a`)).statusCode).toBe(403);
  });

  it('the admin kinds refuse an njit user, the student kind an admin without njit', async () => {
    const { client: njit } = await loggedInClient(ctx, ['njit']);
    expect((await njit.get('/api/user/admin/search?q=a')).statusCode).toBe(403);
    expect((await njit.get('/api/ocs/admin/bank/search?q=a')).statusCode).toBe(403);
    const { client: admin } = await loggedInClient(ctx, ['admin']);
    expect((await admin.get('/api/njit/search?q=zs')).statusCode).toBe(403);
  });
});

describe('bad input', () => {
  it.each(ENDPOINTS)(
    '$url answers 400 naming q for empty, blank, overlong, NUL and lone surrogates',
    async ({ url }) => {
      const { client } = await loggedInClient(ctx, ['admin', 'njit']);
      for (const q of [null, '', '%20%20%20', 'x'.repeat(65), 'a%00b']) {
        const res = await client.get(q === null ? url : `${url}?q=${q}`);
        expect({ q, status: res.statusCode }).toEqual({ q, status: 400 });
        expect(Object.keys(res.json().data ?? {})).toContain('q');
        expect(res.json().errorMessage).toMatch(/[\u4e00-\u9fff]/);
      }
    },
  );

  it('a lone surrogate is refused by the schema, and its bytes in a URL are no error', async () => {
    const parsed = SearchQuery.safeParse({ q: 'a\ud800b' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['q'], message: BAD_TEXT_MESSAGE });
    // UTF-8 cannot carry a lone surrogate: its bytes decode to U+FFFD, plain text that finds nothing.
    const { client } = await loggedInClient(ctx, ['admin', 'njit']);
    for (const { url } of ENDPOINTS) {
      const res = await client.get(`${url}?q=a%ED%A0%80b`);
      expect({ url, status: res.statusCode, data: res.json().data }).toEqual({ url, status: 200, data: [] });
    }
  });
});

describe('students', () => {
  it('finds by initials, pinyin, Chinese name and student number, masked', async () => {
    const { client } = await loggedInClient(ctx, ['njit']);
    const byInitials = (await client.get('/api/njit/search?q=zs')).json().data;
    expect(byInitials.map((s: { name: string }) => s.name)).toEqual(['张三', '张三丰']);
    expect(byInitials[0].phone).toBe('138****1234');
    expect(byInitials[0].idCard).toMatch(/^3201\*+123X$/);
    expect((await client.get('/api/njit/search?q=zhangsanf')).json().data.map((s: { name: string }) => s.name)).toEqual(
      ['张三丰'],
    );
    expect((await client.get('/api/njit/search?q=李')).json().data.map((s: { name: string }) => s.name)).toEqual([
      '李四',
    ]);
    // A Chinese name is matched from its start, the name itself first.
    const names = async (q: string) =>
      (await client.get(`/api/njit/search?q=${encodeURIComponent(q)}`))
        .json()
        .data.map((s: { name: string }) => s.name);
    expect(await names('张三')).toEqual(['张三', '张三丰']);
    expect(await names('三')).toEqual([]);
    expect(
      (await client.get('/api/njit/search?q=2022020100')).json().data.map((s: { studentNo: string }) => s.studentNo),
    ).toEqual(['202202010004', '202202010005']);
  });

  it('writes an audit row for the search, and opening a hit writes the detail view', async () => {
    const { client, uid } = await loggedInClient(ctx, ['njit']);
    const hits = (await client.get('/api/njit/search?q=ls')).json().data;
    expect(hits).toHaveLength(1);
    const search = await ctx.db
      .selectFrom('njit_audit')
      .select(['action', 'record_ids'])
      .where('user_id', '=', uid)
      .execute();
    expect(search).toEqual([{ action: 'search', record_ids: [hits[0].id] }]);
    // What it showed is what the audit row counts.
    expect(
      (await ctx.db.selectFrom('njit_audit').select('result_count').where('user_id', '=', uid).executeTakeFirst())
        ?.result_count,
    ).toBe(1);
    // Opening a result is the NJIT page's own detail call.
    expect((await client.get(`/api/njit/students/${hits[0].id}`)).statusCode).toBe(200);
    const actions = await ctx.db
      .selectFrom('njit_audit')
      .select(['action', 'record_ids'])
      .where('user_id', '=', uid)
      .orderBy('id')
      .execute();
    expect(actions).toEqual([
      { action: 'search', record_ids: [hits[0].id] },
      { action: 'detail', record_ids: [hits[0].id] },
    ]);
  });
});

describe('personal kinds answer only the caller', () => {
  it('tokens', async () => {
    const a = await loggedInClient(ctx, []);
    const b = await loggedInClient(ctx, []);
    for (const [c, name] of [
      [a.client, '部署脚本'],
      [b.client, '部署机器人'],
    ] as const) {
      const res = await c.post('/api/user/tokens', { name, scopes: ['ums:send'], expiresInDays: null });
      expect(res.statusCode).toBe(200);
    }
    const hits = (await a.client.get(`/api/user/tokens/search?q=${encodeURIComponent('部署')}`)).json().data;
    expect(hits.map((h: { title: string }) => h.title)).toEqual(['部署脚本']);
    expect(hits[0].detail).toMatch(/^pt_.+有效$/);
  });

  it('UMS messages', async () => {
    const a = await loggedInClient(ctx, []);
    const b = await loggedInClient(ctx, []);
    const rows = [a.uid, b.uid].map((user_id, i) => ({
      user_id,
      type: 'text',
      title: `服务器告警 ${i} Disk Full`,
      content: 'x',
      status: 'delivered',
      source: 'ui',
    }));
    await ctx.db.insertInto('ums_messages').values(rows).execute();
    const found = async (q: string) => (await a.client.get(`/api/ums/search?q=${encodeURIComponent(q)}`)).json().data;
    expect(await found('告警')).toEqual([
      { id: expect.any(Number), title: '服务器告警 0 Disk Full', detail: '已送达' },
    ]);
    // Letters match whatever their case; a text without any (Chinese, digits) matches as it is.
    for (const q of ['disk FULL', '警 0 d', '0 Disk']) expect({ q, n: (await found(q)).length }).toEqual({ q, n: 1 });
    expect(await found('告警 1')).toEqual([]);
  });

  it('OCS queries, a handful at most', async () => {
    const a = await loggedInClient(ctx, []);
    const b = await loggedInClient(ctx, []);
    const row = (user_id: number, n: number) => ({
      user_id,
      title: `牛顿第${n}定律`,
      title_hash: `h${n}`,
      type: 'single',
      outcome: 'miss' as const,
      answer: null,
      cost: 0,
    });
    await ctx.db
      .insertInto('ocs_queries')
      .values([...Array.from({ length: SEARCH_LIMIT + 2 }, (_, n) => row(a.uid, n)), row(b.uid, 99)])
      .execute();
    const hits = (await a.client.get(`/api/ocs/search?q=${encodeURIComponent('牛顿')}`)).json().data;
    expect(hits).toHaveLength(SEARCH_LIMIT);
    expect(hits.every((h: { title: string }) => h.title !== '牛顿第99定律')).toBe(true);
    expect((await b.client.get(`/api/ocs/search?q=${encodeURIComponent('牛顿')}`)).json().data).toHaveLength(1);
  });
});

describe('administrators', () => {
  it('users by username start or nickname', async () => {
    const { client } = await loggedInClient(ctx, ['admin']);
    const other = await loggedInClient(ctx, ['njit']);
    await ctx.db.updateTable('users').set({ nickname: '检索测试员' }).where('id', '=', other.uid).execute();
    const byNick = (await client.get(`/api/user/admin/search?q=${encodeURIComponent('检索测试')}`)).json().data;
    expect(byNick).toEqual([{ id: other.uid, title: `检索测试员（${other.username}）`, detail: 'NJIT' }]);
    const byName = (await client.get(`/api/user/admin/search?q=${other.username}`)).json().data;
    expect(byName.map((h: { id: number }) => h.id)).toEqual([other.uid]);
  });

  it('bank questions by the start of the title (as normalized) or by id', async () => {
    const prepared = ['光合作用发生在哪个细胞器', '光合作用的产物是', '细胞呼吸的场所是'].map((title) => {
      const p = prepareQuestion({ title, type: 'single', options: ['甲', '乙'], answer: ['A'] });
      if ('error' in p) throw new Error(p.error);
      return p;
    });
    await upsertQuestions(ctx.db, prepared, 'import');
    const { client } = await loggedInClient(ctx, ['admin']);
    const hits = (await client.get(`/api/ocs/admin/bank/search?q=${encodeURIComponent('【单选题】光合 作用')}`)).json()
      .data;
    expect(hits.map((h: { title: string }) => h.title).sort()).toEqual([
      '光合作用发生在哪个细胞器',
      '光合作用的产物是',
    ]);
    const id = (
      await ctx.db
        .selectFrom('ocs_questions')
        .select('id')
        .where('title', '=', '细胞呼吸的场所是')
        .executeTakeFirstOrThrow()
    ).id;
    const byId = (await client.get(`/api/ocs/admin/bank/search?q=${id}`)).json().data;
    expect(byId[0]).toEqual({ id: Number(id), title: '细胞呼吸的场所是', detail: `#${id} · 单选题` });
  });
});
