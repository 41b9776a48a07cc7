/**
 * Administration of AI providers and models (CRUD, validation, audit rows, the key write-only and
 * encrypted, the model test), 403 for non-admins on every admin route, and the user's AI preferences
 * with their validation, the model picker and the prompt defaults and preview.
 */
import { startFakeOpenAi, type FakeOpenAi } from '../../fixtures/fake-openai';
import { loggedInClient, FAKES_ON_LOOPBACK, startTestApp, type Client, type TestContext } from '../helpers';
import { API_KEY, adminClient, createModel, createProvider } from './ai-helpers';

let ctx: TestContext;
let fake: FakeOpenAi;
let admin: Client;
let user: Client;

beforeAll(async () => {
  [ctx, fake] = await Promise.all([startTestApp(FAKES_ON_LOOPBACK), startFakeOpenAi()]);
  admin = await adminClient(ctx);
  user = (await loggedInClient(ctx)).client;
});
afterAll(async () => {
  await fake.close();
  await ctx.close();
});

const send = (c: Client, method: 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  c.request({ method, url, ...(payload ? { payload } : {}) });
const audits = (targetType: string, targetId: number) =>
  ctx.db
    .selectFrom('audit_log')
    .selectAll()
    .where('target_type', '=', targetType)
    .where('target_id', '=', String(targetId))
    .orderBy('id')
    .execute();

describe('providers', () => {
  test('create, update and delete: the key is encrypted, shown masked, and audited without the key', async () => {
    const created = await admin.post('/api/ocs/admin/providers', {
      name: 'DeepSeek',
      baseURL: 'https://api.deepseek.com/v1/',
      apiKey: API_KEY,
    });
    expect(created.statusCode).toBe(200);
    const p = created.json().data;
    expect(p).toMatchObject({
      name: 'DeepSeek',
      baseURL: 'https://api.deepseek.com/v1',
      apiKeyMasked: 'sk-t…cdef',
      modelCount: 0,
    });
    expect(created.body).not.toContain(API_KEY);
    const row = await ctx.db.selectFrom('ocs_providers').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow();
    expect(row.api_key_enc).not.toContain(API_KEY);
    expect(row.api_key_enc).toMatch(/^v1:/);

    // Renaming keeps the key; a new key replaces it.
    const renamed = await send(admin, 'PATCH', `/api/ocs/admin/providers/${p.id}`, { name: 'DeepSeek 官方' });
    expect(renamed.json().data).toMatchObject({ name: 'DeepSeek 官方', apiKeyMasked: 'sk-t…cdef' });
    const rekeyed = await send(admin, 'PATCH', `/api/ocs/admin/providers/${p.id}`, { apiKey: 'sk-another-key-wxyz' });
    expect(rekeyed.json().data.apiKeyMasked).toBe('sk-a…wxyz');

    expect((await admin.get('/api/ocs/admin/providers')).json().data.map((x: { name: string }) => x.name)).toContain(
      'DeepSeek 官方',
    );
    expect((await send(admin, 'DELETE', `/api/ocs/admin/providers/${p.id}`)).json()).toEqual({ success: true });
    expect((await send(admin, 'DELETE', `/api/ocs/admin/providers/${p.id}`)).statusCode).toBe(404);

    const rows = await audits('ocs_provider', p.id);
    expect(rows.map((r) => r.action)).toEqual([
      'ocs.provider.create',
      'ocs.provider.update',
      'ocs.provider.update',
      'ocs.provider.delete',
    ]);
    expect(rows[1]).toMatchObject({ before: { name: 'DeepSeek' }, after: { name: 'DeepSeek 官方' } });
    expect(rows[2]!.after).toMatchObject({ apiKeyMasked: 'sk-a…wxyz', apiKey: '已更换' });
    const all = JSON.stringify(rows);
    expect(all).not.toContain(API_KEY);
    expect(all).not.toContain('sk-another-key-wxyz');
  });

  test.each([
    ['an ftp URL', { name: 'x1', baseURL: 'ftp://example.com/v1', apiKey: 'k' }, 'baseURL'],
    ['credentials in the URL', { name: 'x2', baseURL: 'https://user:pw@example.com/v1', apiKey: 'k' }, 'baseURL'],
    ['not a URL', { name: 'x3', baseURL: 'https://', apiKey: 'k' }, 'baseURL'],
    ['no name', { name: ' ', baseURL: 'https://example.com/v1', apiKey: 'k' }, 'name'],
    ['no key', { name: 'x4', baseURL: 'https://example.com/v1' }, 'apiKey'],
    // addresses inside the server's network, unless allow-listed (ADMIN_URL_ALLOWLIST)
    ['cloud metadata', { name: 'x5', baseURL: 'http://169.254.169.254/v1', apiKey: 'k' }, 'baseURL'],
    ['localhost', { name: 'x6', baseURL: 'http://localhost:11434/v1', apiKey: 'k' }, 'baseURL'],
    ['a private address', { name: 'x7', baseURL: 'http://192.168.1.20:8000/v1', apiKey: 'k' }, 'baseURL'],
    ['IPv6 link-local', { name: 'x8', baseURL: 'http://[fe80::1]/v1', apiKey: 'k' }, 'baseURL'],
  ])('400 for %s', async (_label, body, field) => {
    const res = await admin.post('/api/ocs/admin/providers', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().data).toHaveProperty(field);
  });

  test('409 for a name already taken', async () => {
    await createProvider(admin, fake.url, 'dup');
    const res = await admin.post('/api/ocs/admin/providers', { name: 'dup', baseURL: fake.url, apiKey: 'k' });
    expect(res.statusCode).toBe(409);
  });
});

describe('models', () => {
  let providerId: number;
  beforeAll(async () => {
    providerId = await createProvider(admin, fake.url, 'models-provider');
  });

  test('create with defaults, update, delete, each audited', async () => {
    const created = await admin.post('/api/ocs/admin/models', {
      providerId,
      model: 'deepseek-chat',
      displayName: 'DeepSeek V3',
      price: 2,
    });
    expect(created.statusCode).toBe(200);
    const m = created.json().data;
    expect(m).toMatchObject({
      providerId,
      providerName: 'models-provider',
      price: 2,
      enabled: true,
      timeoutMs: 60_000,
      maxTokens: null,
    });
    const updated = await send(admin, 'PATCH', `/api/ocs/admin/models/${m.id}`, {
      price: 5,
      enabled: false,
      maxTokens: 256,
    });
    expect(updated.json().data).toMatchObject({ price: 5, enabled: false, maxTokens: 256, timeoutMs: 60_000 });
    expect(
      (await admin.get('/api/ocs/admin/models')).json().data.find((x: { id: number }) => x.id === m.id),
    ).toMatchObject({ price: 5 });
    expect((await send(admin, 'DELETE', `/api/ocs/admin/models/${m.id}`)).statusCode).toBe(200);
    expect((await send(admin, 'PATCH', `/api/ocs/admin/models/${m.id}`, { price: 1 })).statusCode).toBe(404);
    const rows = await audits('ocs_model', m.id);
    expect(rows.map((r) => r.action)).toEqual(['ocs.model.create', 'ocs.model.update', 'ocs.model.delete']);
    expect(rows[1]).toMatchObject({
      before: { price: 2, enabled: true, maxTokens: null },
      after: { price: 5, enabled: false, maxTokens: 256 },
    });
  });

  test.each([
    ['a negative price', { price: -1 }, 'price'],
    ['a fractional price', { price: 1.5 }, 'price'],
    ['a timeout under 1 s', { timeoutMs: 500 }, 'timeoutMs'],
    ['a timeout over 300 s', { timeoutMs: 300_001 }, 'timeoutMs'],
    ['zero max tokens', { maxTokens: 0 }, 'maxTokens'],
    ['no model id', { model: '' }, 'model'],
    ['an unknown provider', { providerId: 999_999 }, 'providerId'],
  ])('400 for %s', async (_label, over, field) => {
    const res = await admin.post('/api/ocs/admin/models', {
      providerId,
      model: 'm',
      displayName: '模型',
      price: 1,
      ...over,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data).toHaveProperty(field);
  });

  test('the test button answers with latency, the raw reply and the parsed answer', async () => {
    const id = await createModel(admin, providerId, { enabled: false });
    fake.script({ kind: 'answer', text: 'B' });
    const ok = (await admin.post(`/api/ocs/admin/models/${id}/test`, { type: 'single' })).json().data;
    expect(ok).toMatchObject({ ok: true, raw: 'B', answer: '北京', error: null, latencyMs: expect.any(Number) });
    expect(ok.question.options).toEqual(['上海', '北京', '广州', '深圳']);
    fake.script({ kind: 'status', status: 500 });
    const bad = (await admin.post(`/api/ocs/admin/models/${id}/test`)).json().data;
    expect(bad).toMatchObject({ ok: false, answer: null, error: 'AI 服务出错（500），未扣费' });
    fake.script({ kind: 'auto' });
    expect((await admin.post('/api/ocs/admin/models/999999/test')).statusCode).toBe(404);
  });

  test('deleting a provider deletes its models and resets users who had picked one', async () => {
    const pid = await createProvider(admin, fake.url, 'short-lived');
    const id = await createModel(admin, pid);
    const { client, uid } = await loggedInClient(ctx);
    expect((await send(client, 'PUT', '/api/ocs/preferences', { modelId: id })).statusCode).toBe(200);
    await send(admin, 'DELETE', `/api/ocs/admin/providers/${pid}`);
    expect(await ctx.db.selectFrom('ocs_models').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    const prefs = await ctx.db
      .selectFrom('ocs_preferences')
      .select('model_id')
      .where('user_id', '=', uid)
      .executeTakeFirstOrThrow();
    expect(prefs.model_id).toBeNull();
  });
});

describe('403 for a non-admin on every admin route', () => {
  // Every row has three entries: jest would take a missing third argument for a `done` callback.
  const routes: Array<[string, string, object | null]> = [
    ['GET', '/api/ocs/admin/providers', null],
    ['POST', '/api/ocs/admin/providers', { name: 'n', baseURL: 'https://example.com', apiKey: 'k' }],
    ['PATCH', '/api/ocs/admin/providers/1', { name: 'n' }],
    ['DELETE', '/api/ocs/admin/providers/1', null],
    ['GET', '/api/ocs/admin/models', null],
    ['POST', '/api/ocs/admin/models', { providerId: 1, model: 'm', displayName: 'd', price: 1 }],
    ['PATCH', '/api/ocs/admin/models/1', { price: 1 }],
    ['DELETE', '/api/ocs/admin/models/1', null],
    ['POST', '/api/ocs/admin/models/1/test', {}],
  ];
  test.each(routes)('%s %s', async (method, url, payload) => {
    const res = await user.request({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
    expect(res.statusCode).toBe(403);
  });
});

describe('preferences', () => {
  let enabledId: number;
  let disabledId: number;
  beforeAll(async () => {
    const pid = await createProvider(admin, fake.url, 'prefs-provider');
    enabledId = await createModel(admin, pid, { displayName: '便宜模型', price: 2 });
    disabledId = await createModel(admin, pid, { displayName: '停用模型', enabled: false });
  });
  const put = (body: object) => send(user, 'PUT', '/api/ocs/preferences', body);

  test('defaults, then a full update that reads back', async () => {
    expect((await user.get('/api/ocs/preferences')).json().data).toEqual({
      promptTemplate: null,
      modelId: null,
      strategy: 'bank_ai',
      dailyAiCap: null,
      minConfidence: 0,
      todayAiSpent: 0,
    });
    const res = await put({ promptTemplate: '请回答：${title}', modelId: enabledId, strategy: 'ai', dailyAiCap: 50 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      promptTemplate: '请回答：${title}',
      modelId: enabledId,
      strategy: 'ai',
      dailyAiCap: 50,
    });
    // Absent fields stay; null and an empty template go back to the defaults.
    expect((await put({ strategy: 'bank' })).json().data).toMatchObject({
      promptTemplate: '请回答：${title}',
      strategy: 'bank',
      dailyAiCap: 50,
    });
    expect((await put({ promptTemplate: '  ', dailyAiCap: null, modelId: null })).json().data).toMatchObject({
      promptTemplate: null,
      dailyAiCap: null,
      modelId: null,
    });
    expect((await put({ minConfidence: 0.8 })).json().data).toMatchObject({ minConfidence: 0.8, strategy: 'bank' });
    for (const bad of [-0.1, 1.5, '0.5']) {
      const res = await put({ minConfidence: bad });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.minConfidence).toBeDefined();
    }
    expect((await user.get('/api/ocs/preferences')).json().data.minConfidence).toBeCloseTo(0.8);
  });

  test.each([
    ['a template without ${title}', { promptTemplate: '请回答这道${type}' }, 'promptTemplate', /必须包含/],
    ['a template of 4001 characters', { promptTemplate: '${title}' + '字'.repeat(3993) }, 'promptTemplate', /4000/],
    ['an unknown model', { modelId: 999_999 }, 'modelId', /不存在或已停用/],
    ['a negative cap', { dailyAiCap: -1 }, 'dailyAiCap', /./],
    ['an unknown strategy', { strategy: 'random' }, 'strategy', /./],
  ])('400 for %s', async (_label, body, field, msg) => {
    const res = await put(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().data[field][0]).toMatch(msg);
  });

  test('400 for a disabled model, and a 4000-character template is accepted', async () => {
    const res = await put({ modelId: disabledId });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.modelId).toEqual(['所选模型不存在或已停用']);
    expect((await put({ promptTemplate: '${title}' + '字'.repeat(3992) })).statusCode).toBe(200);
  });

  test('the picker lists enabled models with their price only', async () => {
    const models = (await user.get('/api/ocs/models')).json().data as Array<{
      id: number;
      displayName: string;
      price: number;
    }>;
    expect(models.find((m) => m.id === enabledId)).toEqual({
      id: enabledId,
      displayName: '便宜模型',
      model: 'fake-model',
      price: 2,
    });
    expect(models.find((m) => m.id === disabledId)).toBeUndefined();
  });

  test('prompt defaults and preview', async () => {
    const d = (await user.get('/api/ocs/prompt-defaults')).json().data;
    expect(Object.keys(d.templates).sort()).toEqual(['any', 'completion', 'judgement', 'multiple', 'single']);
    expect(d.templates.judgement).toContain('正确');
    expect(d.variables.map((v: { name: string }) => v.name)).toEqual(['${title}', '${type}', '${options}']);
    expect(d.maxLength).toBe(4000);
    const preview = await user.post('/api/ocs/prompt-preview', {
      template: '${type}：${title}\n${options}',
      type: 'single',
    });
    expect(preview.json().data.prompt).toBe(
      '单选题：中华人民共和国的首都是哪座城市？\nA. 上海\nB. 北京\nC. 广州\nD. 深圳',
    );
    const bad = await user.post('/api/ocs/prompt-preview', { template: '没有题目变量' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.template[0]).toMatch(/\$\{title\}/);
  });
});
