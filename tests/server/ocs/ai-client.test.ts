/**
 * callModel against the fake OpenAI-compatible server: a good answer, each failure kind, a timeout
 * without sleeping, and no secret ever in a user-facing message.
 */
import { callModel, type AiModelConfig } from '../../../server/modules/ocs/ai/client';
import os from 'node:os';
import { startFakeOpenAi, type FakeOpenAi } from '../../fixtures/fake-openai';
import { FAKES_ON_LOOPBACK } from '../helpers';

const API_KEY = 'sk-test-SECRET-0123456789abcdef';
let fake: FakeOpenAi;
let cfg: AiModelConfig;

beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.calls.length = 0;
  fake.script({ kind: 'auto' });
  cfg = {
    baseURL: fake.url,
    apiKey: API_KEY,
    model: 'fake-model',
    timeoutMs: 5000,
    maxTokens: null,
    allowlist: [FAKES_ON_LOOPBACK.ADMIN_URL_ALLOWLIST],
  };
});

function expectNoSecrets(message: string): void {
  expect(message).not.toContain(API_KEY);
  expect(message).not.toContain('SECRET');
  expect(message).not.toContain('127.0.0.1');
  expect(message).toContain('未扣费');
}

test('answers with the model text and sends one temperature-0 completion', async () => {
  fake.script({ kind: 'answer', text: '北京' });
  const r = await callModel(cfg, '中国的首都是？');
  expect(r).toEqual({ ok: true, text: '北京', latencyMs: expect.any(Number) });
  expect(fake.calls).toHaveLength(1);
  const call = fake.calls[0];
  expect(call.model).toBe('fake-model');
  expect(call.authorization).toBe(`Bearer ${API_KEY}`);
  expect(call.temperature).toBe(0);
  expect(call.max_tokens).toBeUndefined();
  expect(call.messages.map((m) => m.role)).toEqual(['system', 'user']);
  expect(call.messages[1].content).toBe('中国的首都是？');
});

test('passes max_tokens when configured', async () => {
  await callModel({ ...cfg, maxTokens: 64 }, 'x');
  expect(fake.calls[0].max_tokens).toBe(64);
});

test('auto mode answers the FAKE_ANSWER line of the prompt, else 正确', async () => {
  const a = await callModel(cfg, '题目：xx\nFAKE_ANSWER: 北京#上海\n选项');
  expect(a).toMatchObject({ ok: true, text: '北京#上海' });
  const b = await callModel(cfg, '题目：地球是圆的');
  expect(b).toMatchObject({ ok: true, text: '正确' });
});

test('a scripting function sees the prompt', async () => {
  fake.script((req) => ({ kind: 'answer', text: req.prompt.includes('单选') ? 'A' : 'B' }));
  expect(await callModel(cfg, '单选题')).toMatchObject({ ok: true, text: 'A' });
  expect(await callModel(cfg, '多选题')).toMatchObject({ ok: true, text: 'B' });
});

test('429 is rate_limited and is not retried', async () => {
  fake.script({ kind: 'status', status: 429, body: { error: { message: `Rate limit for key ${API_KEY}` } } });
  const r = await callModel(cfg, 'x');
  expect(r).toMatchObject({ ok: false, kind: 'rate_limited', status: 429, message: 'AI 服务繁忙（429），未扣费' });
  expect(fake.calls).toHaveLength(1);
  if (!r.ok) expectNoSecrets(r.message);
});

test('500 is a provider error with its status, not retried', async () => {
  fake.script({ kind: 'status', status: 500 });
  const r = await callModel(cfg, 'x');
  expect(r).toMatchObject({ ok: false, kind: 'provider_error', status: 500 });
  expect(fake.calls).toHaveLength(1);
  if (!r.ok) expectNoSecrets(r.message);
});

test('401 echoing the key back never leaks it', async () => {
  fake.script({ kind: 'status', status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } });
  const r = await callModel(cfg, 'x');
  expect(r).toMatchObject({ ok: false, kind: 'provider_error', status: 401 });
  if (!r.ok) {
    expectNoSecrets(r.message);
    expect(r.message).toContain('密钥');
  }
});

test('a missing key or an unusable base URL fails before any request', async () => {
  expect(await callModel({ ...cfg, apiKey: '  ' }, 'x')).toMatchObject({ ok: false, kind: 'provider_error' });
  expect(await callModel({ ...cfg, baseURL: '' }, 'x')).toMatchObject({ ok: false, kind: 'provider_error' });
  expect(await callModel({ ...cfg, baseURL: 'file:///etc/passwd' }, 'x')).toMatchObject({
    ok: false,
    kind: 'provider_error',
  });
  expect(fake.calls).toHaveLength(0);
});

test('the fake refuses a request without a Bearer key, and records it', async () => {
  const res = await fetch(`${fake.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [] }),
  });
  expect(res.status).toBe(401);
  expect(fake.calls).toEqual([expect.objectContaining({ model: 'm', authorization: undefined })]);
});

test('invalid JSON in a 200 answer is a provider error', async () => {
  fake.script({ kind: 'garbage' });
  const r = await callModel(cfg, 'x');
  expect(r).toMatchObject({ ok: false, kind: 'provider_error' });
  if (!r.ok) expectNoSecrets(r.message);
});

test.each([{ kind: 'empty' as const }, { kind: 'answer' as const, text: '  \n ' }])(
  'empty content (%j) is kind empty',
  async (mode) => {
    fake.script(mode);
    const r = await callModel(cfg, 'x');
    expect(r).toMatchObject({ ok: false, kind: 'empty' });
    if (!r.ok) expectNoSecrets(r.message);
  },
);

test('a stalled server times out at the configured timeout', async () => {
  fake.script({ kind: 'stall' });
  const r = await callModel({ ...cfg, timeoutMs: 300 }, 'x');
  fake.release();
  expect(r).toMatchObject({ ok: false, kind: 'timeout', message: 'AI 服务超时，未扣费' });
  expect(r.latencyMs).toBeGreaterThanOrEqual(250);
  expect(r.latencyMs).toBeLessThan(3000);
  expect(fake.calls).toHaveLength(1);
});

test('an unreachable endpoint is a network failure', async () => {
  const other = await startFakeOpenAi();
  const url = other.url;
  await other.close();
  const r = await callModel({ ...cfg, baseURL: url }, 'x');
  expect(r).toMatchObject({ ok: false, kind: 'network' });
  if (!r.ok) expectNoSecrets(r.message);
});

describe('a base URL inside the server’s network, not allow-listed', () => {
  const port = () => new URL(fake.url).port;
  test.each([
    ['loopback', () => fake.url],
    ['cloud metadata (link-local)', () => 'http://169.254.169.254/v1'],
    ['IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port()}/v1`],
    ['a name that resolves to this machine', () => `http://${os.hostname()}:${port()}/v1`],
  ])('%s: refused before anything is sent', async (_what, url) => {
    const r = await callModel({ ...cfg, baseURL: url(), allowlist: [] }, 'x');
    expect(r).toMatchObject({ ok: false, kind: 'provider_error', message: expect.stringContaining('内网') });
    expect(fake.calls).toHaveLength(0);
    if (!r.ok) expectNoSecrets(r.message);
  });
});

test('credentials in the base URL never appear in the message', async () => {
  const withCreds = fake.url.replace('http://', 'http://admin:hunter2@');
  const r = await callModel({ ...cfg, baseURL: withCreds }, 'x');
  expect(r).toMatchObject({ ok: false, kind: 'provider_error' });
  if (!r.ok) {
    expect(r.message).not.toContain('hunter2');
    expect(r.message).not.toContain('admin');
  }
  expect(fake.calls).toHaveLength(0);
});

test('the fake answers 404 to anything but POST /v1/chat/completions', async () => {
  const res = await fetch(fake.url.replace('/v1', '/v1/models'));
  expect(res.status).toBe(404);
  const get = await fetch(`${fake.url}/chat/completions`);
  expect(get.status).toBe(404);
});
