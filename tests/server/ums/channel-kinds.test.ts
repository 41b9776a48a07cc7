/**
 * Channels of every kind through the API: what each kind accepts and refuses (with Chinese field
 * errors and nothing stored), secrets that never come back (WeCom keys, Feishu tokens and signing
 * secrets, a webhook's headers) nor sit in the database or the log in clear, the refusal of
 * internal addresses for generic webhooks, the health of each channel, and the test message.
 */
import dns from 'node:dns/promises';
import os from 'node:os';
import { isPrivateAddress } from '../../../server/modules/ums/kinds/webhook';
import { loggedInClient, type Client } from '../helpers';
import { addChannel, confirmAddress, message, sendUi, startKindsRig, startUmsRig, type KindsRig } from './helpers';
import { pushedTo } from '../../fixtures/ums-client';

let rig: KindsRig;
beforeAll(async () => {
  rig = await startKindsRig();
});
afterAll(async () => {
  await rig.close();
});
const run = () => rig.ctx.app.umsWorker.runOnce();

let n = 0;
const unique = (prefix: string) => `${prefix}${process.pid}x${++n}`;
const count = async () =>
  Number(
    (
      await rig.ctx.db
        .selectFrom('ums_channels')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function user(): Promise<Client> {
  return (await loggedInClient(rig.ctx)).client;
}

describe('what each kind accepts', () => {
  test.each([
    [
      'wecom without key',
      { kind: 'wecom', name: 'x', webhook: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send' },
      'webhook',
    ],
    [
      'wecom elsewhere',
      { kind: 'wecom', name: 'x', webhook: 'https://evil.example/cgi-bin/webhook/send?key=abcdefgh' },
      'webhook',
    ],
    [
      'wecom with a secret',
      {
        kind: 'wecom',
        name: 'x',
        webhook: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx',
        secret: 'SECx',
      },
      'secret',
    ],
    ['feishu not a hook', { kind: 'feishu', name: 'x', webhook: 'https://open.feishu.cn/open-apis/other' }, 'webhook'],
    [
      'feishu with a bad secret',
      {
        kind: 'feishu',
        name: 'x',
        webhook: 'https://open.feishu.cn/open-apis/bot/v2/hook/0a1b2c3d-4e5f',
        secret: 'has space',
      },
      'secret',
    ],
    [
      'dingtalk secret without SEC',
      { name: 'x', webhook: 'https://oapi.dingtalk.com/robot/send?access_token=abcdef0123456789', secret: 'nope' },
      'secret',
    ],
    ['email without address', { kind: 'email', name: 'x' }, 'email'],
    ['email malformed', { kind: 'email', name: 'x', email: 'not-an-address' }, 'email'],
    [
      'email with a webhook',
      { kind: 'email', name: 'x', email: 'a@example.edu', webhook: 'https://x.example' },
      'webhook',
    ],
    ['webhook not http', { kind: 'webhook', name: 'x', webhook: 'ftp://example.com/x' }, 'webhook'],
    ['webhook to loopback', { kind: 'webhook', name: 'x', webhook: 'http://127.0.0.1:9/x' }, 'webhook'],
    ['webhook to localhost', { kind: 'webhook', name: 'x', webhook: 'http://localhost:9/x' }, 'webhook'],
    ['webhook to a private network', { kind: 'webhook', name: 'x', webhook: 'http://10.1.2.3/x' }, 'webhook'],
    [
      'webhook to link-local metadata',
      { kind: 'webhook', name: 'x', webhook: 'http://169.254.169.254/latest' },
      'webhook',
    ],
    ['webhook to IPv6 loopback', { kind: 'webhook', name: 'x', webhook: 'http://[::1]:9/x' }, 'webhook'],
    [
      'webhook template not JSON',
      { kind: 'webhook', name: 'x', webhook: 'https://example.com/h', bodyTemplate: '{"c": ${content}}' },
      'bodyTemplate',
    ],
    [
      'webhook bad method',
      { kind: 'webhook', name: 'x', webhook: 'https://example.com/h', method: 'DELETE' },
      'method',
    ],
    [
      'webhook bad status list',
      { kind: 'webhook', name: 'x', webhook: 'https://example.com/h', successStatus: '2xx' },
      'successStatus',
    ],
    [
      'webhook path without $',
      { kind: 'webhook', name: 'x', webhook: 'https://example.com/h', successPath: 'code' },
      'successPath',
    ],
    [
      'webhook value without a path',
      { kind: 'webhook', name: 'x', webhook: 'https://example.com/h', successValue: '0' },
      'successPath',
    ],
    [
      'webhook header with a newline',
      {
        kind: 'webhook',
        name: 'x',
        webhook: 'https://example.com/h',
        headers: [{ name: 'X-A', value: 'a\r\nX-B: b' }],
      },
      'headers.0.value',
    ],
    [
      'webhook header name with a space',
      { kind: 'webhook', name: 'x', webhook: 'https://example.com/h', headers: [{ name: 'X A', value: 'a' }] },
      'headers.0.name',
    ],
    [
      'webhook pacing past 600',
      { kind: 'webhook', name: 'x', webhook: 'https://example.com/h', perMinute: 601 },
      'perMinute',
    ],
    ['an unknown kind', { kind: 'sms', name: 'x', webhook: 'https://example.com/h' }, 'kind'],
  ])('%s: 400 naming the field, nothing stored', async (_name, body, field) => {
    const client = await user();
    const before = await count();
    const res = await client.post('/api/ums/channels', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().data).toHaveProperty([field]);
    expect(res.json().errorMessage).toMatch(/[\u4e00-\u9fa5]/);
    expect(await count()).toBe(before);
  });

  test('an e-mail channel needs SMTP_URL: refused, and the kinds list says why', async () => {
    const plain = await startUmsRig();
    try {
      const { client } = await loggedInClient(plain.ctx);
      const kinds = (await client.get('/api/ums/channel-kinds')).json().data;
      expect(kinds.map((k: { kind: string }) => k.kind)).toEqual(['dingtalk', 'wecom', 'feishu', 'webhook', 'email']);
      expect(kinds.find((k: { kind: string }) => k.kind === 'email')).toMatchObject({
        available: false,
        reason: expect.stringMatching(/SMTP_URL/),
      });
      const res = await client.post('/api/ums/channels', { kind: 'email', name: '邮件', email: 'a@example.edu' });
      expect(res.statusCode).toBe(400);
      expect(res.json().errorMessage).toMatch(/SMTP_URL/);
    } finally {
      await plain.close();
    }
    const here = (await (await user()).get('/api/ums/channel-kinds')).json().data;
    expect(here.every((k: { available: boolean }) => k.available)).toBe(true);
    expect(here.find((k: { kind: string }) => k.kind === 'feishu').pacing).toMatch(/每秒最多 5 条/);
  });

  test('the kind cannot change, and a field of another kind is refused on update', async () => {
    const client = await user();
    const id = await addChannel(client, {
      kind: 'wecom',
      name: 'w',
      webhook: rig.wecom.robot(unique('key-')),
    });
    const patch = (payload: object) => client.request({ method: 'PATCH', url: `/api/ums/channels/${id}`, payload });
    expect((await patch({ secret: 'SECabc' })).statusCode).toBe(400);
    expect((await patch({ email: 'a@example.edu' })).statusCode).toBe(400);
    // `kind` is not a field of an update: it is dropped, the rest applies.
    expect((await patch({ kind: 'email', name: '改名' })).statusCode).toBe(200);
    expect((await client.get('/api/ums/channels')).json().data.find((c: { id: number }) => c.id === id)).toMatchObject({
      kind: 'wecom',
      name: '改名',
    });
  });
});

describe('secrets stay secret', () => {
  test('WeCom keys, Feishu tokens and secrets, webhook header values: masked in answers, sealed in the database, absent from the log', async () => {
    const client = await user();
    const wecomKey = 'a1b2c3d4-e5f6-7a8b-9c0d-e1f2a3b4c5d6';
    const feishuToken = 'f0e1d2c3-b4a5-9687-7869-5a4b3c2d1e0f';
    const feishuSecret = 'feishuSigningSecret0123456789';
    const headerValue = 'Bearer sk-live-0123456789abcdef';
    const queryToken = 'querytoken0123456789abcdef';
    const ids = [
      await addChannel(client, {
        kind: 'wecom',
        name: 'w',
        webhook: `https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=${wecomKey}`,
      }),
      await addChannel(client, {
        kind: 'feishu',
        name: 'f',
        webhook: `https://open.feishu.cn/open-apis/bot/v2/hook/${feishuToken}`,
        secret: feishuSecret,
        keyword: '通知',
      }),
      await addChannel(client, {
        kind: 'webhook',
        name: 'h',
        webhook: `https://hooks.example.com/services/${queryToken}?token=${queryToken}`,
        headers: [{ name: 'Authorization', value: headerValue }],
      }),
    ];
    const listed = await client.get('/api/ums/channels');
    const everything = listed.body;
    for (const secret of [wecomKey, feishuToken, feishuSecret, headerValue, queryToken]) {
      expect(everything).not.toContain(secret);
      expect(rig.ctx.logs.join('\n')).not.toContain(secret);
    }
    const rows = await rig.ctx.db.selectFrom('ums_channels').selectAll().where('id', 'in', ids).execute();
    for (const secret of [wecomKey, feishuToken, feishuSecret, headerValue, queryToken])
      expect(JSON.stringify(rows)).not.toContain(secret);

    const [w, f, h] = ids.map((id) => listed.json().data.find((c: { id: number }) => c.id === id));
    expect(w).toMatchObject({ kind: 'wecom', hasSecret: false, webhookSettings: null });
    expect(w.webhookMasked).toContain('key=a1b2…c5d6');
    expect(f).toMatchObject({ kind: 'feishu', hasSecret: true, secretMasked: 'feis…6789', keyword: '通知' });
    expect(f.webhookMasked).toBe('https://open.feishu.cn/open-apis/bot/v2/hook/f0e1…1e0f');
    expect(h.webhookSettings).toMatchObject({
      method: 'POST',
      headers: [{ name: 'Authorization', valueMasked: 'Bear…cdef' }],
      successStatus: '200-299',
      perMinute: 60,
    });
    expect(h.webhookMasked).toBe('https://hooks.example.com/services/quer…cdef?token=quer…cdef');
  });

  test('a webhook update keeps the headers unless a new list is sent', async () => {
    const client = await user();
    const name = unique('keep');
    const id = await addChannel(client, {
      kind: 'webhook',
      name: 'h',
      webhook: rig.hook.endpoint(name),
      headers: [{ name: 'X-Token', value: 'kept-secret-value' }],
    });
    const patch = (payload: object) => client.request({ method: 'PATCH', url: `/api/ums/channels/${id}`, payload });
    expect((await patch({ name: '改名', successPath: '$.ok' })).statusCode).toBe(200);
    await sendUi(client, { content: 'one', channel: id });
    await run();
    expect(rig.hook.deliveredTo(name)[0].headers['x-token']).toBe('kept-secret-value');
    expect((await patch({ headers: [] })).json().data.webhookSettings.headers).toEqual([]);
    await sendUi(client, { content: 'two', channel: id });
    await run();
    expect(rig.hook.deliveredTo(name)[1].headers['x-token']).toBeUndefined();
  });
});

describe('internal addresses', () => {
  test('a name that resolves inward passes the form but is refused at connection time (permanent)', async () => {
    const host = os.hostname();
    const resolved = await dns.lookup(host);
    expect(isPrivateAddress(resolved.address)).toBe(true); // this machine's name points at itself
    const client = await user();
    const channel = await addChannel(client, { kind: 'webhook', name: 'inward', webhook: `http://${host}:9/hook` });
    const id = await sendUi(client, { content: 'x', channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('failed');
    expect(m.attemptLog[0]).toMatchObject({ outcome: 'permanent', httpStatus: null });
    expect(m.attemptLog[0].errmsg).toMatch(/内网或本机/);
  });
});

describe('health and the test message', () => {
  test('each channel shows its success rate over 7 days', async () => {
    const client = await user();
    const key = unique('health-');
    const channel = await addChannel(client, { kind: 'wecom', name: 'h', webhook: rig.wecom.robot(key) });
    rig.wecom.script(key, { kind: 'code', code: 40058 });
    for (let i = 0; i < 4; i++) await sendUi(client, { content: `m${i}`, channel });
    await run();
    const ch = (await client.get('/api/ums/channels')).json().data.find((c: { id: number }) => c.id === channel);
    expect(ch.health).toEqual({ attempts: 4, delivered: 3, successRate: 0.75 });
    expect(ch.lastSuccessAt).not.toBeNull();
    expect(ch.lastError).toMatch(/40058/);
    const stats = (await client.get('/api/ums/stats')).json().data;
    expect(stats.channels[0]).toMatchObject({ kind: 'wecom', health: { successRate: 0.75 } });
  });

  test('the test message answers with each service’s own code', async () => {
    const client = await user();
    const address = `${unique('t')}@example.edu`;
    const results = [];
    for (const body of [
      { kind: 'wecom', name: 'w', webhook: `${rig.wecom.url}/cgi-bin/webhook/send?key=not-registered-key` },
      { kind: 'feishu', name: 'f', webhook: rig.feishu.bot(unique('tok-'), { secret: 'right' }), secret: 'wrong' },
      { kind: 'webhook', name: 'h', webhook: rig.hook.endpoint(unique('t')) },
      { kind: 'email', name: 'e', email: address },
    ]) {
      const id = await addChannel(client, body);
      if (body.kind === 'email') await confirmAddress(rig, address);
      results.push((await client.post(`/api/ums/channels/${id}/test`)).json().data);
    }
    expect(results[0]).toMatchObject({ ok: false, errcode: 93000, hint: expect.stringMatching(/移出群聊/) });
    expect(results[1]).toMatchObject({ ok: false, errcode: 19021, hint: expect.stringMatching(/签名校验失败/) });
    expect(results[2]).toMatchObject({ ok: true, httpStatus: 200 });
    expect(results[3]).toMatchObject({ ok: true, httpStatus: null, errcode: 250 });
    expect(pushedTo(rig.smtp, address)[0].subject).toBe('统一门户测试消息');
  });
});
