/**
 * A first run: the administrators' setup checklist (bank imported? AI model configured? price set?),
 * what users are told while the portal cannot answer (serviceReady on the overview), and the sample
 * bank imported in one step through the import's own path: every question valid, a second import adds
 * and changes nothing, a sample question is then answered exactly through the OCS API.
 */
import { readSampleBank } from '../../../server/modules/ocs/bank/sample';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';
import { ask, userWithToken } from './admin-fixtures';
import { createModel, createProvider } from './ai-helpers';

let ctx: TestContext;
let admin: Client;
let user: Client;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = (await loggedInClient(ctx, ['admin'])).client;
  user = (await loggedInClient(ctx)).client;
});
afterAll(async () => {
  await ctx.close();
});

const setup = async () => {
  const res = await admin.get('/api/ocs/admin/setup');
  expect(res.statusCode).toBe(200);
  return res.json().data;
};
const serviceReady = async () => (await user.get('/api/ocs/overview')).json().data.serviceReady;
const importSample = () => admin.post('/api/ocs/admin/bank/sample', {});
const bankRows = () =>
  ctx.db.selectFrom('ocs_questions').select(['id', 'title', 'answer', 'status', 'updated_at']).orderBy('id').execute();

describe('the sample bank file', () => {
  it('holds at least 200 valid questions of all four types, none twice', async () => {
    const rows = await readSampleBank();
    expect(rows.length).toBeGreaterThanOrEqual(200);
    const types = new Set(rows.map((q) => q.type));
    expect([...types].sort()).toEqual(['completion', 'judgement', 'multiple', 'single']);
    const ids = new Set(rows.map((q) => `${q.title_hash}|${q.type}|${q.options_hash}`));
    expect(ids.size).toBe(rows.length);
  });
});

describe('a fresh install, set up step by step', () => {
  it('starts with nothing done, and users are told the portal cannot answer yet', async () => {
    expect(await setup()).toEqual({
      bank: { done: false },
      ai: { done: false, models: 0 },
      price: { done: false, bankPrice: 1 },
      complete: false,
    });
    expect(await serviceReady()).toEqual({ bank: false, ai: false });
  });

  it('imports the sample bank once; a second import adds and changes nothing', async () => {
    const total = (await readSampleBank()).length;
    const first = await importSample();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ success: true, data: { total, inserted: total, skipped: 0 } });
    const before = await bankRows();
    expect(before).toHaveLength(total);
    expect(new Set(before.map((r) => r.status))).toEqual(new Set(['verified']));

    const second = await importSample();
    expect(second.json()).toEqual({ success: true, data: { total, inserted: 0, skipped: total } });
    expect(await bankRows()).toEqual(before);

    const audit = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'target_name', 'after'])
      .where('action', '=', 'ocs.bank.import-sample')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.after)).toEqual([
      { total, inserted: total, skipped: 0 },
      { total, inserted: 0, skipped: total },
    ]);
    expect(audit[0]).toMatchObject({ target_name: '示例题库' });

    expect((await setup()).bank).toEqual({ done: true });
    expect(await serviceReady()).toEqual({ bank: true, ai: false });
  });

  it('answers a sample question exactly through /api/ocs/query, charged as any bank answer', async () => {
    const { token } = await userWithToken(ctx, 10);
    // As the OCS script sends it: numbered options in another order.
    const r = await ask(ctx, token, '中华人民共和国的首都是哪座城市？', 'single', 'A. 上海\nB. 北京\nC. 广州\nD. 深圳');
    expect(r).toMatchObject({ code: 1, answer: JSON.stringify(['B. 北京']), source: 'import', cost: 1, balance: 9 });
    expect(await ask(ctx, token, '7 × 8 = ____', 'completion')).toMatchObject({ code: 1, answer: '["56"]' });
    expect(await ask(ctx, token, '蝙蝠是哺乳动物。', 'judgement')).toMatchObject({ code: 1, answer: '正确' });
  });

  it('keeps an administrator’s later mark on a sample question when the sample is imported again', async () => {
    const row = (await bankRows()).find((q) => q.title === '中国最长的河流是')!;
    expect((await admin.post(`/api/ocs/admin/bank/questions/${row.id}/status`, { status: 'wrong' })).statusCode).toBe(
      200,
    );
    expect((await importSample()).json().data.inserted).toBe(0);
    const after = await ctx.db.selectFrom('ocs_questions').select('status').where('id', '=', row.id).execute();
    expect(after).toEqual([{ status: 'wrong' }]);
  });

  it('counts an enabled AI model, and the price once the settings were saved, even unchanged', async () => {
    const providerId = await createProvider(admin, 'https://api.example.com/v1');
    const modelId = await createModel(admin, providerId, { enabled: false });
    expect((await setup()).ai).toEqual({ done: false, models: 0 });
    expect(
      (await admin.request({ method: 'PATCH', url: `/api/ocs/admin/models/${modelId}`, payload: { enabled: true } }))
        .statusCode,
    ).toBe(200);
    expect((await setup()).ai).toEqual({ done: true, models: 1 });
    expect(await serviceReady()).toEqual({ bank: true, ai: true });

    // Saving the defaults as they are confirms them: nothing changed, so nothing is audited.
    const defaults = (await admin.get('/api/ocs/admin/settings')).json().data;
    const saved = await admin.request({ method: 'PUT', url: '/api/ocs/admin/settings', payload: defaults });
    expect(saved.statusCode).toBe(200);
    expect(await setup()).toEqual({
      bank: { done: true },
      ai: { done: true, models: 1 },
      price: { done: true, bankPrice: 1 },
      complete: true,
    });
    const audited = await ctx.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'ocs.settings.update')
      .execute();
    expect(audited).toEqual([]);
    expect((await admin.get('/api/ocs/admin/settings')).json().data).toEqual(defaults);
  });
});

describe('who may call', () => {
  it.each([
    ['GET', '/api/ocs/admin/setup'],
    ['POST', '/api/ocs/admin/bank/sample'],
  ])('%s %s refuses anonymous callers (401) and non-administrators (403)', async (method, url) => {
    const payload = method === 'POST' ? { payload: {} } : {};
    const anonymous = await ctx.app.inject({ method: method as 'GET', url, ...payload });
    expect(anonymous.statusCode).toBe(401);
    const plain = await user.request({ method: method as 'GET', url, ...payload });
    expect(plain.statusCode).toBe(403);
    expect(plain.json()).toMatchObject({ success: false, errorCode: 'FORBIDDEN' });
  });

  it('a non-administrator’s refused sample import wrote nothing', async () => {
    const before = (await bankRows()).length;
    await user.post('/api/ocs/admin/bank/sample', {});
    expect(await bankRows()).toHaveLength(before);
  });
});
