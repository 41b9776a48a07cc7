import { loggedInClient } from '../helpers';
import { message, startUmsRig, userWithChannel, type UmsRig } from './helpers';

let rig: UmsRig;
beforeAll(async () => {
  rig = await startUmsRig({ UMS_TOKEN_BURST: '20', UMS_TOKEN_PER_MINUTE: '60' });
});
afterAll(async () => {
  await rig.close();
});

async function tokenFor(client: Awaited<ReturnType<typeof userWithChannel>>['client'], scopes = ['ums:send']) {
  return (await client.post('/api/user/tokens', { name: `t${Math.random()}`, scopes, expiresInDays: null })).json().data
    .token as string;
}

describe('channels', () => {
  test('webhooks must be DingTalk robot URLs (or allow-listed); secrets never come back', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const bad = [
      'not a url',
      'https://evil.example/robot/send?access_token=abcdef0123456789',
      'https://oapi.dingtalk.com/robot/send',
      'https://oapi.dingtalk.com/robot/send?access_token=short',
      'http://oapi.dingtalk.com.evil.example/robot/send?access_token=abcdef0123456789',
    ];
    for (const webhook of bad) {
      const res = await client.post('/api/ums/channels', { name: 'x', webhook });
      expect({ webhook, status: res.statusCode }).toEqual({ webhook, status: 400 });
    }
    expect(
      (
        await client.post('/api/ums/channels', {
          name: 'x',
          webhook: 'https://oapi.dingtalk.com/robot/send?access_token=abcdef0123456789',
          secret: 'nope',
        })
      ).statusCode,
    ).toBe(400);

    const accessToken = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
    const res = await client.post('/api/ums/channels', {
      name: '工作群',
      webhook: `https://oapi.dingtalk.com/robot/send?access_token=${accessToken}`,
      secret: 'SEC0123456789abcdefXYZ',
      keyword: '通知',
    });
    expect(res.statusCode).toBe(200);
    const ch = res.json().data;
    expect(ch).toMatchObject({ name: '工作群', hasSecret: true, keyword: '通知', isDefault: true });
    expect(ch.webhookMasked).toContain('a1b2…c5d6');
    const everything = res.body + (await client.get('/api/ums/channels')).body;
    expect(everything).not.toContain(accessToken);
    expect(everything).not.toContain('SEC0123456789abcdefXYZ');
    const row = await rig.ctx.db
      .selectFrom('ums_channels')
      .selectAll()
      .where('id', '=', ch.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(accessToken);
    expect(JSON.stringify(row)).not.toContain('SEC0123456789abcdefXYZ');
    expect(rig.ctx.logs.join('\n')).not.toContain(accessToken);
  });

  test('the default channel moves; deleting one with pending messages is refused', async () => {
    const { client, channelId } = await userWithChannel(rig);
    const second = (
      await client.post('/api/ums/channels', { name: 'b', webhook: rig.fake.robot('second-robot'), isDefault: true })
    ).json().data;
    const list = (await client.get('/api/ums/channels')).json().data;
    expect(list.find((c: { id: number }) => c.id === channelId).isDefault).toBe(false);
    expect(second.isDefault).toBe(true);
    await client.post('/api/ums/messages', { content: 'pending' });
    expect((await client.request({ method: 'DELETE', url: `/api/ums/channels/${second.id}` })).statusCode).toBe(409);
    expect((await client.request({ method: 'DELETE', url: `/api/ums/channels/${channelId}` })).statusCode).toBe(200);
  });

  test('"send test message" shows DingTalk\'s real answer', async () => {
    const good = await userWithChannel(rig, { secret: 'SECgood' }, { secret: 'SECgood' });
    const ok = await good.client.post(`/api/ums/channels/${good.channelId}/test`);
    expect(ok.json().data).toMatchObject({ ok: true, errcode: 0, errmsg: 'ok', httpStatus: 200 });
    const bad = await userWithChannel(rig, { secret: 'SECgood' }, { secret: 'SECbad' });
    const res = await bad.client.post(`/api/ums/channels/${bad.channelId}/test`);
    expect(res.json().data).toMatchObject({ ok: false, errcode: 310000, errmsg: 'sign not match' });
    expect(res.json().data.hint).toMatch(/加签/);
  });

  test("one user cannot touch another user's channel or message", async () => {
    const a = await userWithChannel(rig);
    const b = await loggedInClient(rig.ctx);
    const id = (await a.client.post('/api/ums/messages', { content: 'private' })).json().data.id;
    expect((await b.client.get(`/api/ums/messages/${id}`)).statusCode).toBe(404);
    expect(
      (await b.client.request({ method: 'PATCH', url: `/api/ums/channels/${a.channelId}`, payload: { name: 'x' } }))
        .statusCode,
    ).toBe(404);
    expect((await b.client.post(`/api/ums/channels/${a.channelId}/test`)).statusCode).toBe(404);
    expect((await b.client.post('/api/ums/messages', { content: 'x', channel: a.channelId })).statusCode).toBe(400);
  });
});

describe('the token API /api/ums/send', () => {
  test('GET with query parameters, POST with a form, POST with JSON, Bearer or token=', async () => {
    const { client, robotToken } = await userWithChannel(rig);
    const token = await tokenFor(client);
    const viaGet = await rig.ctx.app.inject({
      method: 'GET',
      url: `/api/ums/send?token=${token}&title=${encodeURIComponent('标题')}&content=${encodeURIComponent('来自 curl')}`,
    });
    expect(viaGet.statusCode).toBe(200);
    expect(viaGet.json()).toEqual({ success: true, data: { id: expect.any(Number), status: 'queued' } });
    const viaForm = await rig.ctx.app.inject({
      method: 'POST',
      url: '/api/ums/send',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
      payload: `title=form&content=${encodeURIComponent('表单内容')}&type=text`,
    });
    expect(viaForm.statusCode).toBe(200);
    const viaJson = await rig.ctx.app.inject({
      method: 'POST',
      url: '/api/ums/send',
      payload: { token, content: 'json body' },
    });
    expect(viaJson.statusCode).toBe(200);
    await rig.ctx.app.umsWorker.runOnce();
    expect(rig.fake.deliveredTo(robotToken)).toHaveLength(3);

    // The owner reads the status and attempts with the same token.
    const status = await rig.ctx.app.inject({
      method: 'GET',
      url: `/api/ums/messages/${viaGet.json().data.id}?token=${token}`,
    });
    expect(status.json().data).toMatchObject({
      status: 'delivered',
      source: 'api',
      attemptLog: [{ outcome: 'delivered' }],
    });
    expect((await message(client, viaJson.json().data.id)).status).toBe('delivered');
  });

  test('no token 401, wrong scope 403, bad input 400 with nothing stored', async () => {
    const { client } = await userWithChannel(rig);
    const ocsOnly = await tokenFor(client, ['ocs:query']);
    const good = await tokenFor(client);
    expect((await rig.ctx.app.inject({ method: 'GET', url: '/api/ums/send?content=x' })).statusCode).toBe(401);
    expect(
      (await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/send?content=x&token=${ocsOnly}` })).statusCode,
    ).toBe(403);
    const noContent = await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/send?token=${good}&title=x` });
    expect(noContent.statusCode).toBe(400);
    expect(noContent.json().data.content).toBeDefined();
    const huge = await rig.ctx.app.inject({
      method: 'POST',
      url: '/api/ums/send',
      payload: { token: good, content: 'x'.repeat(20_001) },
    });
    expect(huge.statusCode).toBe(400);
    expect((await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/messages/1?token=${ocsOnly}` })).statusCode).toBe(
      403,
    );
  });

  test('per-token rate limit: a burst of 20, then 429 with Retry-After', async () => {
    const { client } = await userWithChannel(rig);
    const token = await tokenFor(client);
    const codes: number[] = [];
    for (let i = 0; i < 22; i++) {
      codes.push(
        (await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/send?token=${token}&content=n${i}` })).statusCode,
      );
    }
    expect(codes.slice(0, 20).every((c) => c === 200)).toBe(true);
    const limited = await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/send?token=${token}&content=more` });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().errorMessage).toMatch(/频繁/);
    // Another token of the same user has its own budget.
    const other = await tokenFor(client);
    expect(
      (await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/send?token=${other}&content=ok` })).statusCode,
    ).toBe(200);
  });
});

test('stats: counts by status, a 14-day series and channel health', async () => {
  const { client, robotToken } = await userWithChannel(rig);
  await client.post('/api/ums/messages', { content: 'ok' });
  rig.fake.script(robotToken, { kind: 'errcode', errcode: 400102 });
  await client.post('/api/ums/messages', { content: 'bad' });
  await client.post('/api/ums/messages', { content: 'later', sendAt: new Date(rig.clock.t + 86400_000).toISOString() });
  await rig.ctx.app.umsWorker.runOnce();
  const s = (await client.get('/api/ums/stats')).json().data;
  expect(s.total).toBe(3);
  expect(s.byStatus).toMatchObject({ delivered: 1, failed: 1, queued: 1 });
  expect(s.daily).toHaveLength(14);
  const today = s.daily[13];
  expect(today.delivered + today.failed).toBe(2);
  expect(s.channels[0].lastSuccessAt).not.toBeNull();
  expect(s.channels[0].lastError).toMatch(/停用/);
});
