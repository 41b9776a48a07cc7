/**
 * The drop-in compatible endpoints: ServerChan's `/<sendkey>.send` (title/text and desp) and PushPlus's
 * `/send` and `/send/<token>` (token, title, content, template, topic) queue a message like
 * /api/ums/send and answer in each service's own JSON shape — refusals included, with truthful HTTP
 * statuses — and the key in the path never reaches the log.
 */
import type { InjectOptions } from 'fastify';
import { loggedInClient, type Client } from '../helpers';
import { addChannel, message, startKindsRig, type KindsRig } from './helpers';

let rig: KindsRig;
beforeAll(async () => {
  rig = await startKindsRig({ UMS_TOKEN_BURST: '5', UMS_TOKEN_PER_MINUTE: '60' });
});
afterAll(async () => {
  await rig.close();
});
const run = () => rig.ctx.app.umsWorker.runOnce();
const inject = (opts: InjectOptions) => rig.ctx.app.inject(opts);
const count = async () =>
  Number(
    (
      await rig.ctx.db
        .selectFrom('ums_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

let n = 0;
async function sender(scopes = ['ums:send']): Promise<{ client: Client; token: string; robot: string }> {
  const { client } = await loggedInClient(rig.ctx);
  n += 1;
  const robot = `compat${process.pid}x${n}`;
  await addChannel(client, { name: '钉钉', webhook: rig.fake.robot(robot) });
  const token = (await client.post('/api/user/tokens', { name: `t${n}`, scopes, expiresInDays: null })).json().data
    .token as string;
  return { client, token, robot };
}

describe('ServerChan: /<sendkey>.send', () => {
  test('GET with title and desp answers in ServerChan’s shape; the message is delivered as markdown', async () => {
    const { client, token, robot } = await sender();
    const res = await inject({
      method: 'GET',
      url: `/${token}.send?title=${encodeURIComponent('构建完成')}&desp=${encodeURIComponent('**全部**通过')}`,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      code: 0,
      message: '',
      data: { pushid: expect.stringMatching(/^\d+$/), readkey: '', error: 'SUCCESS', errno: 0 },
    });
    await run();
    const m = await message(client, Number(body.data.pushid));
    expect(m).toMatchObject({ status: 'delivered', title: '构建完成', content: '**全部**通过', source: 'api' });
    expect(rig.fake.deliveredTo(robot)[0].body).toMatchObject({ msgtype: 'markdown' });
  });

  test('POST with the old text/desp form fields, and JSON; a title alone is the whole message', async () => {
    const { client, token, robot } = await sender();
    const form = await inject({
      method: 'POST',
      url: `/${token}.send`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `text=${encodeURIComponent('旧字段')}&desp=${encodeURIComponent('内容')}`,
    });
    const json = await inject({ method: 'POST', url: `/${token}.send`, payload: { title: '只有标题' } });
    expect([form.statusCode, json.statusCode]).toEqual([200, 200]);
    await run();
    expect((await message(client, Number(form.json().data.pushid))).title).toBe('旧字段');
    expect(await message(client, Number(json.json().data.pushid))).toMatchObject({
      title: '',
      content: '只有标题',
      type: 'text',
    });
    expect(rig.fake.deliveredTo(robot).map((r) => r.text)).toContain('只有标题');
  });

  test('refusals keep the shape: bad key 401, wrong scope 403, nothing to send 400 — nothing stored', async () => {
    const { token } = await sender(['ocs:query']);
    const before = await count();
    const bad = await inject({ method: 'GET', url: '/pt_not-a-real-token.send?title=x' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ code: 401, message: '访问令牌无效', data: null });
    const scope = await inject({ method: 'GET', url: `/${token}.send?title=x` });
    expect(scope.statusCode).toBe(403);
    expect(scope.json()).toMatchObject({ code: 403, message: expect.stringMatching(/ums:send/), data: null });
    const good = (await sender()).token;
    const empty = await inject({ method: 'GET', url: `/${good}.send?desp=%20` });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 400, message: '缺少 title', data: null });
    const tooLong = await inject({ method: 'GET', url: `/${good}.send?title=${'x'.repeat(300)}` });
    expect(tooLong.json()).toMatchObject({ code: 400, message: expect.stringMatching(/256/) });
    const nul = await inject({ method: 'GET', url: `/${good}.send?title=a%00b` });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().code).toBe(400);
    expect(await count()).toBe(before);
  });

  test('the per-token limit holds, answered in ServerChan’s shape with Retry-After', async () => {
    const { token } = await sender();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push((await inject({ method: 'GET', url: `/${token}.send?title=n${i}` })).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await inject({ method: 'GET', url: `/${token}.send?title=more` });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ code: 429, message: expect.stringMatching(/频繁/), data: null });
  });

  test('the key in the path never reaches the log', async () => {
    const { token } = await sender();
    await inject({ method: 'GET', url: `/${token}.send?title=log` });
    expect(rig.ctx.logs.join('\n')).not.toContain(token);
    expect(rig.ctx.logs.join('\n')).toContain('/[REDACTED].send');
  });
});

describe('PushPlus: /send', () => {
  test('GET with token, title, content and template txt answers {code:200,msg:"请求成功",data:id}', async () => {
    const { client, token, robot } = await sender();
    const res = await inject({
      method: 'GET',
      url: `/send?token=${token}&title=${encodeURIComponent('日报')}&content=${encodeURIComponent('完成 3 项')}&template=txt`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: '请求成功', data: expect.stringMatching(/^\d+$/) });
    await run();
    expect(await message(client, Number(res.json().data))).toMatchObject({ status: 'delivered', type: 'text' });
    expect(rig.fake.deliveredTo(robot)[0].body).toEqual({
      msgtype: 'text',
      text: { content: '日报\n完成 3 项' },
      at: { atMobiles: [], isAtAll: false },
    });
  });

  test('the default html template becomes markdown; json is pretty-printed; markdown stays', async () => {
    const { client, token } = await sender();
    const post = (payload: object) => inject({ method: 'POST', url: '/send', payload: { token, ...payload } });
    const html = await post({
      title: 'HTML',
      content:
        '<p>第一段 &amp; <b>加粗</b></p><p>第二段<br>换行 <a href="https://example.edu">链接</a></p><script>x()</script>',
    });
    const json = await post({ title: 'JSON', content: '{"a":1,"b":[2]}', template: 'json' });
    const md = await post({ title: 'MD', content: '## 标题', template: 'markdown' });
    const contents = await Promise.all(
      [html, json, md].map(async (r) => (await message(client, Number(r.json().data))).content),
    );
    expect(contents[0]).toBe('第一段 & **加粗**\n\n第二段\n换行 [链接](https://example.edu)');
    expect(contents[1]).toBe('```json\n{\n  "a": 1,\n  "b": [\n    2\n  ]\n}\n```');
    expect(contents[2]).toBe('## 标题');
  });

  test('topic picks one of the sender’s channels by name or id; the token may sit in the path', async () => {
    const { client, token } = await sender();
    const key = `pp${process.pid}-wecom`;
    const wecom = await addChannel(client, { kind: 'wecom', name: '企业微信群', webhook: rig.wecom.robot(key) });
    const byName = await inject({
      method: 'POST',
      url: `/send/${token}`,
      payload: { content: '按名称', topic: '企业微信群', template: 'markdown' },
    });
    const byId = await inject({
      method: 'GET',
      url: `/send/${token}?content=${encodeURIComponent('按编号')}&topic=${wecom}`,
    });
    expect([byName.json().code, byId.json().code]).toEqual([200, 200]);
    await run();
    // Both reach the channel; two messages of one channel may be delivered in either order.
    expect(
      rig.wecom
        .deliveredTo(key)
        .map((r) => r.text)
        .sort(),
    ).toEqual(['按名称', '按编号'].sort());
    const unknown = await inject({
      method: 'GET',
      url: `/send?token=${token}&content=x&topic=${encodeURIComponent('不存在')}`,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ code: 999, msg: '没有名为「不存在」的渠道', data: null });
  });

  test('refusals in PushPlus’s codes: 903 bad token, 401 wrong scope, 999 bad input — nothing stored', async () => {
    const { token: ocsOnly } = await sender(['ocs:query']);
    const { token } = await sender();
    const before = await count();
    const none = await inject({ method: 'GET', url: '/send?content=x' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ code: 903, msg: '缺少访问令牌', data: null });
    expect((await inject({ method: 'GET', url: '/send/pt_bogus?content=x' })).json().code).toBe(903);
    expect((await inject({ method: 'GET', url: `/send?token=${ocsOnly}&content=x` })).json()).toMatchObject({
      code: 401,
      data: null,
    });
    const noContent = await inject({ method: 'GET', url: `/send?token=${token}&title=x` });
    expect(noContent.statusCode).toBe(400);
    expect(noContent.json()).toEqual({ code: 999, msg: '输入有误：缺少 content', data: null });
    const badTemplate = await inject({ method: 'GET', url: `/send?token=${token}&content=x&template=cloudMonitor` });
    expect(badTemplate.json()).toMatchObject({ code: 999, msg: expect.stringMatching(/template/) });
    const huge = await inject({ method: 'POST', url: '/send', payload: { token, content: 'x'.repeat(20_001) } });
    expect(huge.json()).toMatchObject({ code: 999, msg: expect.stringMatching(/20000 字节/) });
    expect(await count()).toBe(before);
  });
});
