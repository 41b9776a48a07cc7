/**
 * Failures before DingTalk answers (Node's fetch says only "fetch failed") are recorded in Chinese,
 * per kind of failure, with the error code and Node's message kept apart as the detail.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describeFetchError } from '../../../server/modules/ums/kinds/transport';
import { listenOnLoopback } from '../../fixtures/tracked';
import { loggedInClient, type Client } from '../helpers';
import { message, sendUi, startUmsRig, userWithChannel, type UmsRig } from './helpers';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let rig: UmsRig;
let closed: string;
let plainAsHttps: string;
// Speaks plain HTTP: an https:// webhook to it fails in the TLS handshake.
let plain: Awaited<ReturnType<typeof listenOnLoopback>>;
beforeAll(async () => {
  closed = `http://127.0.0.1:${await closedPort()}/robot/send`;
  plain = await listenOnLoopback(
    http.createServer((_req, res) => res.end('plain http')),
    'plain HTTP',
  );
  plainAsHttps = `https://127.0.0.1:${plain.port}/robot/send`;
  rig = await startUmsRig({ UMS_WEBHOOK_ALLOWLIST: [closed, plainAsHttps].join(',') });
});
afterAll(async () => {
  await rig.close();
  await plain?.close();
});
const run = () => rig.ctx.app.umsWorker.runOnce();

async function channelAt(client: Client, webhook: string): Promise<number> {
  const res = await client.post('/api/ums/channels', { name: '断网的机器人', webhook });
  if (res.statusCode !== 200) throw new Error(`channel: ${res.body}`);
  return res.json().data.id;
}

describe('a webhook on a closed loopback port', () => {
  test('the test message says in Chinese that the server cannot be reached, the code is the detail', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const id = await channelAt(client, `${closed}?access_token=closedport0001`);
    const res = await client.post(`/api/ums/channels/${id}/test`, {});
    expect(res.statusCode).toBe(200);
    const result = res.json().data;
    expect(result).toMatchObject({
      ok: false,
      httpStatus: null,
      errcode: null,
      errmsg: '网络错误：无法连接钉钉服务器',
    });
    expect(result.detail).toMatch(/ECONNREFUSED/);
    expect(res.body).not.toMatch(/fetch failed/);
    expect(res.body).not.toContain('closedport0001'); // the webhook's token stays secret
    const channel = (await client.get('/api/ums/channels')).json().data.find((c: { id: number }) => c.id === id);
    expect(channel.lastError).toBe('网络错误：无法连接钉钉服务器');
  });

  test('a queued message records the Chinese error on the message and its attempt, then retries', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const channel = await channelAt(client, `${closed}?access_token=closedport0002`);
    const id = await sendUi(client, { content: '发不出去', channel });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('retrying');
    expect(m.lastError).toBe('网络错误：无法连接钉钉服务器');
    expect(m.attemptLog).toHaveLength(1);
    expect(m.attemptLog[0]).toMatchObject({
      outcome: 'transient',
      httpStatus: null,
      errcode: null,
      errmsg: '网络错误：无法连接钉钉服务器',
    });
    expect(m.attemptLog[0].detail).toMatch(/ECONNREFUSED/);
    expect(JSON.stringify(m)).not.toMatch(/fetch failed/);
  });
});

describe('other failures without a DingTalk answer', () => {
  test('a stall past the timeout is 请求超时 with the limit in seconds', async () => {
    const { client, robotToken } = await userWithChannel(rig);
    rig.fake.script(robotToken, { kind: 'stall' });
    const id = await sendUi(client, { content: '等不到' });
    await run();
    const m = await message(client, id);
    expect(m.lastError).toBe('请求超时（0.5 秒）：钉钉服务器没有及时应答'); // UMS_SEND_TIMEOUT_MS is 500 in the rig
    expect(m.attemptLog[0].detail).toMatch(/timeout/i);
  });

  test('a dropped connection is 连接被中断', async () => {
    const { client, robotToken } = await userWithChannel(rig);
    rig.fake.script(robotToken, { kind: 'drop' });
    const id = await sendUi(client, { content: '断了' });
    await run();
    expect((await message(client, id)).attemptLog[0].errmsg).toBe('网络错误：与钉钉服务器的连接被中断');
  });

  test('HTTP 502 with an error page is 钉钉服务器出错, the page is the detail', async () => {
    const { client, robotToken } = await userWithChannel(rig);
    rig.fake.script(robotToken, { kind: 'http', status: 502 });
    const id = await sendUi(client, { content: '网关坏了' });
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('retrying');
    expect(m.attemptLog[0]).toMatchObject({ httpStatus: 502, errmsg: '钉钉服务器出错（HTTP 502）' });
    expect(m.attemptLog[0].detail).toBe('HTTP 502 Bad Gateway：upstream error');
    expect(m.lastError).toMatch(/^钉钉服务暂时不可用/);
  });

  test('a TLS handshake failure is 安全连接失败', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const id = await channelAt(client, `${plainAsHttps}?access_token=tlsrobot0001`);
    const result = (await client.post(`/api/ums/channels/${id}/test`, {})).json().data;
    expect(result.errmsg).toBe('安全连接失败：钉钉服务器的证书无效或 TLS 握手失败');
    expect(result.detail).toMatch(/SSL|TLS/);
  });

  test.each([
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND oapi.dingtalk.com', '域名解析失败：找不到钉钉服务器的地址'],
    ['EAI_AGAIN', 'getaddrinfo EAI_AGAIN oapi.dingtalk.com', '域名解析失败：找不到钉钉服务器的地址'],
    ['CERT_HAS_EXPIRED', 'certificate has expired', '安全连接失败：钉钉服务器的证书无效或 TLS 握手失败'],
    ['UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error', '网络错误：连接钉钉服务器超时'],
    ['ESOMETHINGNEW', 'never seen before', '网络错误：无法连接钉钉服务器'],
  ])('undici cause %s becomes Chinese, the code stays in the detail', (code, text, expected) => {
    const err = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(text), { code }) });
    const failure = describeFetchError(err, 10_000);
    expect(failure.message).toBe(expected);
    expect(failure.detail).toContain(code);
    expect(failure.detail).not.toContain('fetch failed');
  });
});
