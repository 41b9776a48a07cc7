/**
 * Inputs that reached PostgreSQL in a form it refused, with a 500 (found by tests/server/property.test.ts):
 * a bill filter day that is not a calendar day (2024-13-45, 0000-01-01) and ids beyond PostgreSQL's
 * integer (a model's providerId, the preferred modelId) are now a 400 naming the field, with nothing
 * written; an AI provider's API key with emoji (its mask cut a surrogate pair in half, which the audit
 * row's jsonb refused) is now stored and masked by whole characters; a question type named like an
 * Object property no longer reads Object.prototype.
 */
import { normalizeType } from '../../../server/modules/ocs/bank/normalize';
import { loggedInClient, startTestApp, type Client, type TestContext } from '../helpers';

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

test.each(['2024-13-01', '2024-02-30', '2023-02-29', '0000-01-01', '4128-28-70'])(
  'the bills refuse the day %s with a 400 naming the field',
  async (day) => {
    for (const url of [`/api/ocs/ledger?from=${day}`, `/api/ocs/ledger?to=${day}`, `/api/ocs/ledger.csv?from=${day}`]) {
      const res = await user.get(url);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.json()).toMatchObject({ success: false, errorCode: 'VALIDATION_FAILED' });
      expect(Object.keys(res.json().data)).toEqual([url.includes('from=') ? 'from' : 'to']);
    }
  },
);

test('real days, leap days included, still filter the bills', async () => {
  for (const url of [
    '/api/ocs/ledger?from=2024-02-29&to=2024-03-01',
    '/api/ocs/ledger?from=0001-01-01&to=9999-12-31',
  ]) {
    expect((await user.get(url)).statusCode).toBe(200);
  }
});

test('a providerId or a modelId beyond a PostgreSQL integer is a 400, not a 500', async () => {
  const tooBig = 2_147_483_648;
  const model = await admin.post('/api/ocs/admin/models', {
    providerId: tooBig,
    model: 'm',
    displayName: 'M',
    price: 1,
  });
  expect(model.statusCode).toBe(400);
  expect(Object.keys(model.json().data)).toEqual(['providerId']);
  const patch = await admin.request({
    method: 'PATCH',
    url: '/api/ocs/admin/models/1',
    payload: { providerId: tooBig },
  });
  expect(patch.statusCode).toBe(400);
  const prefs = await user.request({ method: 'PUT', url: '/api/ocs/preferences', payload: { modelId: tooBig } });
  expect(prefs.statusCode).toBe(400);
  expect(Object.keys(prefs.json().data)).toEqual(['modelId']);
  const rows = await ctx.db.selectFrom('ocs_models').select('id').execute();
  expect(rows).toEqual([]);
});

test('an API key with emoji is masked by whole characters, and the provider and its audit row are written', async () => {
  // the old mask kept the last 4 UTF-16 units: the second half of 😀 and "abc"
  const apiKey = 'sk-12345😀abc';
  const res = await admin.post('/api/ocs/admin/providers', {
    name: 'emoji',
    baseURL: 'https://api.example.com/v1',
    apiKey,
  });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.apiKeyMasked).toBe('sk-1…😀abc');
  const longer = await admin.post('/api/ocs/admin/providers', {
    name: 'emoji2',
    baseURL: 'https://api.example.com/v1',
    apiKey: `sk-${'😀'.repeat(6)}`,
  });
  expect(longer.statusCode).toBe(200);
  expect(longer.json().data.apiKeyMasked).toBe('sk-😀…😀😀😀😀');
  const audit = await ctx.db
    .selectFrom('audit_log')
    .select('target_name')
    .where('target_type', '=', 'ocs_provider')
    .execute();
  expect(audit).toHaveLength(2);
});

test("a question type named like an Object property ('constructor', '__proto__') is 'any'", () => {
  // before: Object.prototype's constructor or the prototype itself, which crashed the AI prompt (a
  // TypeError logged on every such OCS query)
  for (const t of ['constructor', '__proto__', 'toString', ' Constructor ', 'hasOwnProperty']) {
    expect(normalizeType(t)).toBe('any');
  }
  expect(normalizeType('单选题')).toBe('single');
});

test('no request logged an unhandled error', () => {
  expect(ctx.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
});
