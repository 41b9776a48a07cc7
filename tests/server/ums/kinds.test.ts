/**
 * Every channel kind behind the one outbox and worker: what reaches each fake (WeCom, Feishu with its
 * signature, a webhook receiver, a real SMTP server), and how each service's answers are classified —
 * delivered, permanent (failed at once), rate_limited (the channel pauses, the retry budget is kept)
 * or transient (retried with backoff) — with the per-kind pacing.
 */
import { loggedInClient, type Client } from '../helpers';
import { addChannel, addConfirmedEmail, message, sendUi, startKindsRig, type KindsRig } from './helpers';
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

async function user(): Promise<Client> {
  return (await loggedInClient(rig.ctx)).client;
}

type Attempt = { outcome: string; httpStatus: number | null; errcode: number | null; errmsg: string | null };

async function channelOf(client: Client, id: number) {
  return (await client.get('/api/ums/channels')).json().data.find((c: { id: number }) => c.id === id);
}

describe('WeCom group robot', () => {
  async function wecomUser(config = {}) {
    const client = await user();
    const key = `${unique('k')}-aaaa`;
    const channel = await addChannel(client, {
      kind: 'wecom',
      name: '企业微信',
      webhook: rig.wecom.robot(key, config),
    });
    return { client, key, channel };
  }

  test('markdown leads with the title as a heading; the attempt carries errcode 0 and the kind', async () => {
    const { client, key, channel } = await wecomUser();
    const id = await sendUi(client, { title: '构建完成', content: '**主分支** 全部通过', channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('delivered');
    expect(m.attemptLog).toEqual([
      expect.objectContaining({
        outcome: 'delivered',
        httpStatus: 200,
        errcode: 0,
        channelKind: 'wecom',
        channelId: channel,
      }),
    ]);
    expect(rig.wecom.deliveredTo(key)[0].body).toEqual({
      msgtype: 'markdown',
      markdown: { content: '### 构建完成\n**主分支** 全部通过' },
    });
  });

  test('text mentions mobiles and @all', async () => {
    const { client, key, channel } = await wecomUser();
    await sendUi(client, { type: 'text', content: '值班提醒', atMobiles: ['13800138000'], isAtAll: true, channel });
    await run();
    expect(rig.wecom.deliveredTo(key)[0].body).toEqual({
      msgtype: 'text',
      text: { content: '值班提醒', mentioned_mobile_list: ['13800138000', '@all'] },
    });
  });

  test('markdown past WeCom’s 4096 bytes is cut to fit, and marked, instead of being refused', async () => {
    const { client, key, channel } = await wecomUser();
    const id = await sendUi(client, { content: '长'.repeat(3000), channel });
    await run();
    expect((await message(client, id)).status).toBe('delivered');
    const text = rig.wecom.deliveredTo(key)[0].text;
    expect(Buffer.byteLength(text, 'utf8')).toBeLessThanOrEqual(4096);
    expect(text).toMatch(/内容过长，已截断/);
  });

  test('93000 (a key WeCom does not know) fails at once with the reason', async () => {
    const client = await user();
    const channel = await addChannel(client, {
      kind: 'wecom',
      name: 'gone',
      webhook: `${rig.wecom.url}/cgi-bin/webhook/send?key=unknown-robot-key`,
    });
    const id = await sendUi(client, { content: 'x', channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('failed');
    expect(m.lastError).toMatch(/93000/);
    expect(m.lastError).toMatch(/移出群聊/);
    expect(m.attemptLog[0]).toMatchObject({ outcome: 'permanent', errcode: 93000 });
  });

  test.each([40008, 40058, 44004, 93004])('errcode %i is permanent', async (code) => {
    const { client, key, channel } = await wecomUser();
    rig.wecom.script(key, { kind: 'code', code });
    const id = await sendUi(client, { content: 'x', channel });
    await run();
    expect((await message(client, id)).status).toBe('failed');
  });

  test('45009 pauses the robot for a minute without using up the retry budget, then it goes', async () => {
    const { client, key, channel } = await wecomUser();
    rig.wecom.script(key, { kind: 'code', code: 45009, msg: 'api freq out of limit' });
    const id = await sendUi(client, { content: 'soon', channel });
    await run();
    let m = await message(client, id);
    expect(m).toMatchObject({ status: 'retrying', attempts: 0 });
    expect(m.attemptLog[0].outcome).toBe('rate_limited');
    const ch = await channelOf(client, channel);
    expect(new Date(ch.throttledUntil).getTime() - rig.clock.t).toBe(60_000);
    rig.clock.advance(60_001);
    await run();
    m = await message(client, id);
    expect(m.status).toBe('delivered');
    expect(rig.wecom.deliveredTo(key)).toHaveLength(1);
  });

  test.each([
    ['errcode -1', { kind: 'code', code: -1 }, /企业微信系统繁忙/],
    ['HTTP 502', { kind: 'http', status: 502 }, /企业微信服务暂时不可用/],
    ['a stall past the timeout', { kind: 'stall' }, /请求超时（0\.5 秒）：企业微信服务器没有及时应答/],
    ['a dropped connection', { kind: 'drop' }, /与企业微信服务器的连接被中断/],
  ] as const)('%s is transient: retried with backoff, then delivered', async (_name, behaviour, reason) => {
    const { client, key, channel } = await wecomUser();
    rig.wecom.script(key, behaviour);
    const id = await sendUi(client, { content: 'again', channel });
    await run();
    let m = await message(client, id);
    expect(m.status).toBe('retrying');
    expect(m.lastError).toMatch(reason);
    rig.clock.t = new Date(m.nextAttemptAt).getTime();
    await run();
    m = await message(client, id);
    expect(m.status).toBe('delivered');
    expect(m.attemptLog.map((a: Attempt) => a.outcome)).toEqual(['transient', 'delivered']);
  });

  test('at most 20 a minute per robot: the rest wait for the window, WeCom never has to refuse', async () => {
    const { client, key, channel } = await wecomUser({ perMinute: 20 });
    for (let i = 0; i < 24; i++) await sendUi(client, { content: `burst ${i}`, channel });
    await run();
    expect(rig.wecom.deliveredTo(key)).toHaveLength(20);
    rig.clock.advance(60_001);
    await run();
    expect(rig.wecom.deliveredTo(key)).toHaveLength(20); // a minute is not enough: the margin of a second too
    rig.clock.advance(1_000);
    await run();
    expect(rig.wecom.deliveredTo(key)).toHaveLength(24);
  });
});

describe('Feishu custom bot', () => {
  async function feishuUser(bot: { secret?: string; keyword?: string; perMinute?: number } = {}, channel = bot) {
    const client = await user();
    const token = `${unique('t')}-bbbb`;
    const id = await addChannel(client, {
      kind: 'feishu',
      name: '飞书',
      webhook: rig.feishu.bot(token, bot),
      ...channel,
    });
    return { client, token, channel: id };
  }

  test('markdown becomes an interactive card, signed; the fake checks the signature and the keyword', async () => {
    const { client, token, channel } = await feishuUser({ secret: 'fsSecret0123456789', keyword: '门户' });
    const id = await sendUi(client, { title: '告警', content: '**CPU** 90%', channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('delivered');
    expect(m.attemptLog[0]).toMatchObject({
      outcome: 'delivered',
      errcode: 0,
      errmsg: 'success',
      channelKind: 'feishu',
    });
    const got = rig.feishu.deliveredTo(token)[0];
    expect(got.body).toMatchObject({
      msg_type: 'interactive',
      card: { header: { title: { tag: 'plain_text', content: '告警' } } },
      timestamp: expect.stringMatching(/^\d{10}$/),
      sign: expect.any(String),
    });
    expect(got.text).toContain('**CPU** 90%');
    expect(got.text).toContain('门户');
  });

  test('text without a title is a text message; with a title, a rich post of its lines', async () => {
    const { client, token, channel } = await feishuUser();
    await sendUi(client, { type: 'text', content: '一行', channel });
    await sendUi(client, { type: 'text', title: '日报', content: '第一行\n第二行', channel });
    await run();
    const bodies = rig.feishu.deliveredTo(token).map((r) => r.body);
    expect(bodies).toContainEqual({ msg_type: 'text', content: { text: '一行' } });
    expect(bodies).toContainEqual({
      msg_type: 'post',
      content: {
        post: {
          zh_cn: {
            title: '日报',
            content: [[{ tag: 'text', text: '第一行' }], [{ tag: 'text', text: '第二行' }]],
          },
        },
      },
    });
  });

  test('a wrong signing secret is 19021: permanent, with the reason', async () => {
    const { client, token, channel } = await feishuUser({ secret: 'rightSecret' }, { secret: 'wrongSecret' });
    const id = await sendUi(client, { content: 'x', channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('failed');
    expect(m.lastError).toMatch(/签名校验失败/);
    expect(m.attemptLog[0]).toMatchObject({ outcome: 'permanent', errcode: 19021 });
    expect(rig.feishu.deliveredTo(token)).toHaveLength(0);
  });

  test('a missing keyword is 19024; the channel’s keyword is added so it never happens', async () => {
    const withKeyword = await feishuUser({ keyword: '通知' });
    await sendUi(withKeyword.client, { content: '没有关键词', channel: withKeyword.channel });
    const without = await feishuUser({ keyword: '通知' }, {});
    const id = await sendUi(without.client, { content: '没有关键词', channel: without.channel });
    await run();
    expect(rig.feishu.deliveredTo(withKeyword.token)).toHaveLength(1);
    expect((await message(without.client, id)).attemptLog[0]).toMatchObject({ outcome: 'permanent', errcode: 19024 });
  });

  test('11232 (frequency limited) pauses the bot for a minute; HTTP 500 is retried', async () => {
    const { client, token, channel } = await feishuUser();
    rig.feishu.script(token, { kind: 'code', code: 11232 }, { kind: 'http', status: 500 });
    const id = await sendUi(client, { content: 'x', channel });
    await run();
    expect((await message(client, id)).status).toBe('retrying');
    expect((await channelOf(client, channel)).throttledUntil).not.toBeNull();
    rig.clock.advance(60_001);
    await run();
    let m = await message(client, id);
    expect(m.attemptLog.map((a: Attempt) => a.outcome)).toEqual(['rate_limited', 'transient']);
    rig.clock.t = new Date(m.nextAttemptAt).getTime();
    await run();
    m = await message(client, id);
    expect(m.status).toBe('delivered');
  });

  test('at most 5 a second per bot (Feishu’s own limit): the rest wait a second', async () => {
    const { client, token, channel } = await feishuUser();
    for (let i = 0; i < 7; i++) await sendUi(client, { content: `s${i}`, channel });
    await run();
    expect(rig.feishu.deliveredTo(token)).toHaveLength(5);
    rig.clock.advance(1_017); // a second and its margin
    await run();
    expect(rig.feishu.deliveredTo(token)).toHaveLength(7);
  });
});

describe('generic webhook', () => {
  async function hookUser(settings: Record<string, unknown> = {}) {
    const client = await user();
    const name = unique('h');
    const channel = await addChannel(client, {
      kind: 'webhook',
      name: 'hook',
      webhook: rig.hook.endpoint(name),
      ...settings,
    });
    return { client, name, channel };
  }

  test('the default JSON template carries title, content, time and message id, escaped; headers are sent', async () => {
    const { client, name, channel } = await hookUser({
      headers: [{ name: 'Authorization', value: 'Bearer hook-secret-value-123' }],
    });
    const content = '第一行 "引号"\n第二行 \\ <b>';
    const id = await sendUi(client, { title: '标题', content, channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('delivered');
    expect(m.attemptLog[0]).toMatchObject({ outcome: 'delivered', httpStatus: 200, channelKind: 'webhook' });
    const got = rig.hook.deliveredTo(name)[0];
    expect(got.method).toBe('POST');
    expect(got.headers.authorization).toBe('Bearer hook-secret-value-123');
    expect(got.headers['content-type']).toMatch(/application\/json/);
    expect(got.json).toEqual({ title: '标题', content, time: m.createdAt, messageId: String(id) });
  });

  test('a form template is URL-encoded; a GET puts the variables in the URL', async () => {
    const form = await hookUser({
      headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
      bodyTemplate: 'text=${title}&desp=${content}',
    });
    await sendUi(form.client, { title: 'a&b=c', content: '中 文', channel: form.channel });
    const getter = unique('getter');
    const get = await hookUser({
      method: 'GET',
      webhook: `${rig.hook.url}/hook/${getter}?msg=\${title}&id=\${messageId}`,
    });
    const id = await sendUi(get.client, { title: '标题 & 空格', content: 'x', channel: get.channel });
    await run();
    expect(Object.fromEntries(new URLSearchParams(rig.hook.deliveredTo(form.name)[0].raw))).toEqual({
      text: 'a&b=c',
      desp: '中 文',
    });
    const got = rig.hook.deliveredTo(getter)[0];
    expect(got).toMatchObject({ method: 'GET', raw: '', query: { msg: '标题 & 空格', id: String(id) } });
  });

  test('success by status code: an answer outside the list is a permanent failure', async () => {
    const { client, channel } = await hookUser({ successStatus: '204' });
    const id = await sendUi(client, { content: 'x', channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('failed');
    expect(m.lastError).toMatch(/目标返回 HTTP 200/);
  });

  test('a JSON-path condition: $.code must be 0, else permanent (what the answer held is not shown)', async () => {
    const { client, name, channel } = await hookUser({ successPath: '$.code', successValue: '0' });
    rig.hook.script(name, { kind: 'code', code: 3 });
    const bad = await sendUi(client, { content: 'bad', channel });
    await run();
    const m = await message(client, bad);
    expect(m.status).toBe('failed');
    expect(m.lastError).toMatch(/应答不满足成功条件：\$\.code 的值不是 0/);
    expect(m.lastError).not.toMatch(/3/);
    const good = await sendUi(client, { content: 'good', channel });
    await run();
    expect((await message(client, good)).status).toBe('delivered');
  });

  test('429 with Retry-After pauses the channel that long; 503, stalls and drops are retried', async () => {
    const { client, name, channel } = await hookUser();
    rig.hook.script(
      name,
      { kind: 'http', status: 429, headers: { 'retry-after': '120' } },
      { kind: 'http', status: 503 },
      { kind: 'stall' },
      { kind: 'drop' },
    );
    const id = await sendUi(client, { content: 'x', channel });
    await run();
    expect(new Date((await channelOf(client, channel)).throttledUntil).getTime() - rig.clock.t).toBe(120_000);
    rig.clock.advance(120_001);
    for (let i = 0; i < 3; i++) {
      await run();
      const m = await message(client, id);
      expect(m.status).toBe('retrying');
      rig.clock.t = new Date(m.nextAttemptAt).getTime();
    }
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('delivered');
    expect(m.attemptLog.map((a: Attempt) => a.outcome)).toEqual([
      'rate_limited',
      'transient',
      'transient',
      'transient',
      'delivered',
    ]);
    expect(m.attemptLog[2].errmsg).toBe('请求超时（0.5 秒）：目标服务器没有及时应答');
    expect(m.attemptLog[3].errmsg).toBe('网络错误：与目标服务器的连接被中断');
  });

  test('its own pacing: perMinute 2 sends two a minute', async () => {
    const { client, name, channel } = await hookUser({ perMinute: 2 });
    for (let i = 0; i < 3; i++) await sendUi(client, { content: `p${i}`, channel });
    await run();
    expect(rig.hook.deliveredTo(name)).toHaveLength(2);
    rig.clock.advance(61_001); // a minute and its margin
    await run();
    expect(rig.hook.deliveredTo(name)).toHaveLength(3);
  });
});

describe('e-mail', () => {
  async function mailUser() {
    const client = await user();
    const address = `${unique('m')}@example.edu`;
    const channel = await addConfirmedEmail(rig, client, { name: '邮箱', email: address });
    return { client, address, channel };
  }

  test('markdown becomes HTML with the text beside it; the title is the subject; raw HTML is escaped', async () => {
    const { client, address, channel } = await mailUser();
    const id = await sendUi(client, { title: '周报', content: '## 进展\n**完成** 3 项 <script>x()</script>', channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('delivered');
    expect(m.attemptLog[0]).toMatchObject({
      outcome: 'delivered',
      httpStatus: null,
      errcode: 250,
      channelKind: 'email',
    });
    const mail = pushedTo(rig.smtp, address)[0];
    expect(mail.subject).toBe('周报');
    expect(mail.html).toContain('<h2>进展</h2>');
    expect(mail.html).toContain('<strong>完成</strong>');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.text).toContain('**完成** 3 项');
    expect(mail.headers.get('x-portal-message-id')).toBe(String(id));
  });

  test('550 (no such mailbox) is permanent; 451 is retried; 450 4.7.1 pauses the channel', async () => {
    const { client, address, channel } = await mailUser();
    rig.smtp.script(address, 'reject');
    const rejected = await sendUi(client, { content: 'a', channel });
    await run();
    const r = await message(client, rejected);
    expect(r.status).toBe('failed');
    expect(r.attemptLog[0]).toMatchObject({ outcome: 'permanent', errcode: 550 });
    expect(r.lastError).toMatch(/收件地址不存在/);

    rig.smtp.script(address, 'busy');
    const busy = await sendUi(client, { content: 'b', channel });
    await run();
    let m = await message(client, busy);
    expect(m).toMatchObject({ status: 'retrying' });
    expect(m.attemptLog[0]).toMatchObject({ outcome: 'transient', errcode: 451 });
    rig.clock.t = new Date(m.nextAttemptAt).getTime();
    await run();
    expect((await message(client, busy)).status).toBe('delivered');

    rig.smtp.script(address, 'ratelimit');
    const limited = await sendUi(client, { content: 'c', channel });
    await run();
    m = await message(client, limited);
    expect(m.attemptLog[0]).toMatchObject({ outcome: 'rate_limited', errcode: 450 });
    expect(new Date((await channelOf(client, channel)).throttledUntil).getTime() - rig.clock.t).toBe(5 * 60_000);
  });

  test('a server that stops answering after the data is a timeout, retried', async () => {
    const { client, address, channel } = await mailUser();
    rig.smtp.script(address, 'stall');
    const id = await sendUi(client, { content: 'slow', channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('retrying');
    expect(m.attemptLog[0]).toMatchObject({
      outcome: 'transient',
      errmsg: '请求超时（0.5 秒）：邮件服务器没有及时应答',
    });
  });

  test('pacing is per address: two channels to one inbox share its 10 a minute', async () => {
    const { client, address, channel } = await mailUser();
    // The address agreed to this user's messages already: the second channel needs no confirmation.
    const second = await addChannel(client, { kind: 'email', name: '同一邮箱', email: address.toUpperCase() });
    for (let i = 0; i < 6; i++) {
      await sendUi(client, { content: `a${i}`, channel });
      await sendUi(client, { content: `b${i}`, channel: second });
    }
    await run();
    expect(pushedTo(rig.smtp, address)).toHaveLength(10);
    rig.clock.advance(61_001); // a minute and its margin
    await run();
    expect(pushedTo(rig.smtp, address)).toHaveLength(12);
  });
});
