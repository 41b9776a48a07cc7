/**
 * Consent: an e-mail channel's address receives nothing until its owner opened the link the portal
 * mailed it (no test, no message through any route); the link works once and for a while; a user may
 * mail only a few new addresses a day. Webhooks and callbacks may not point at the portal itself, and
 * what a webhook target answers is not shown back to the user.
 */
import type { AddressInfo } from 'node:net';
import { CONFIRM_SUBJECT, confirmationToken, pushedTo } from '../../fixtures/ums-client';
import { loggedInClient, startTestApp, type Client } from '../helpers';
import {
  addChannel,
  addConfirmedEmail,
  confirmAddress,
  message,
  messageCount,
  PORTAL_URL,
  sendUi,
  startKindsRig,
  type KindsRig,
} from './helpers';

let rig: KindsRig;
beforeAll(async () => {
  // Nothing here is about timeouts: a loaded machine must not fail a confirmation mail.
  rig = await startKindsRig({ UMS_SEND_TIMEOUT_MS: '10000' });
});
afterAll(async () => {
  await rig.close();
});
const run = () => rig.ctx.app.umsWorker.runOnce();

let n = 0;
const unique = (prefix: string) => `${prefix}${process.pid}x${++n}`;
const newAddress = () => `${unique('stranger')}@example.org`;
const confirmations = (address: string) => rig.smtp.deliveredTo(address).filter((m) => m.subject === CONFIRM_SUBJECT);
const confirm = (token: string) =>
  rig.ctx.app.inject({ method: 'POST', url: '/api/ums/email/confirm', payload: { token } });
/** The next noon in PORTAL_TZ (Asia/Shanghai, UTC+8: 04:00 UTC), so that a test's day does not end midway. */
function middayInShanghai(): void {
  const day = 86_400_000;
  const noon = Math.ceil((rig.clock.t - 4 * 3600_000) / day) * day + 4 * 3600_000;
  rig.clock.t = noon;
}
const channelOf = async (client: Client, id: number) =>
  (await client.get('/api/ums/channels')).json().data.find((c: { id: number }) => c.id === id);

describe('an e-mail channel', () => {
  test('a stranger’s address receives nothing before it confirms: no test, no message by any route', async () => {
    const { client, uid } = await loggedInClient(rig.ctx);
    const address = newAddress();
    const channel = await addChannel(client, { kind: 'email', name: '陌生人', email: address });
    const saved = await channelOf(client, channel);
    expect(saved.emailConsent).toMatchObject({ confirmed: false, confirmedAt: null, sentAt: expect.any(String) });

    const test = await client.post(`/api/ums/channels/${channel}/test`);
    expect(test.statusCode).toBe(409);
    expect(test.json().errorMessage).toMatch(/该邮箱尚未确认/);
    const ui = await client.post('/api/ums/messages', { content: '钓鱼', channel });
    expect(ui.statusCode).toBe(409);
    expect(ui.json().errorMessage).toMatch(/渠道「陌生人」的邮箱尚未确认/);
    // As the default channel (its first), by the token API and ServerChan, and in a fan-out.
    const token = (
      await client.post('/api/user/tokens', { name: 't', scopes: ['ums:send'], expiresInDays: null })
    ).json().data.token as string;
    const api = await rig.ctx.app.inject({ method: 'GET', url: `/api/ums/send?token=${token}&content=x` });
    expect(api.statusCode).toBe(409);
    expect((await rig.ctx.app.inject({ method: 'GET', url: `/${token}.send?title=x` })).statusCode).toBe(409);
    const hook = await addChannel(client, { kind: 'webhook', name: 'h', webhook: rig.hook.endpoint(unique('h')) });
    expect((await client.post('/api/ums/messages', { content: 'x', channels: [hook, channel] })).statusCode).toBe(409);
    expect((await client.post('/api/ums/messages', { content: 'x', fallback: [hook, channel] })).statusCode).toBe(409);
    await run();

    expect(await messageCount(rig, uid)).toBe(0);
    expect(pushedTo(rig.smtp, address)).toHaveLength(0);
    // The one mail it got asks its owner, names who asked, and says ignoring it is enough.
    const [mail] = confirmations(address);
    expect(rig.smtp.deliveredTo(address)).toEqual([mail]);
    expect(mail.text).toContain(`${PORTAL_URL}/UMS/confirmEmail#token=`);
    expect(mail.text).toMatch(/统一门户的用户「user\w+」想通过渠道「陌生人」/);
    expect(mail.text).toMatch(/忽略本邮件即可/);
    process.stdout.write(`\n[consent] before confirming: ${pushedTo(rig.smtp, address).length} mails pushed\n`);
  });

  test('its link confirms, once: then it receives; the link again says it was used, a made-up one that it is invalid', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const address = newAddress();
    const channel = await addChannel(client, { kind: 'email', name: '我的邮箱', email: address });
    const token = confirmationToken(rig.smtp, address);
    const res = await confirm(token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ email: address, channelName: '我的邮箱', owner: expect.stringMatching(/^user/) });
    expect((await channelOf(client, channel)).emailConsent).toMatchObject({
      confirmed: true,
      confirmedAt: expect.any(String),
    });

    const id = await sendUi(client, { content: '同意之后', channel });
    await run();
    expect((await message(client, id)).status).toBe('delivered');
    expect(pushedTo(rig.smtp, address).map((m) => m.text.trim())).toEqual(['同意之后']);
    expect((await client.post(`/api/ums/channels/${channel}/test`)).json().data.ok).toBe(true);

    const again = await confirm(token);
    expect(again.statusCode).toBe(409);
    expect(again.json().errorMessage).toMatch(/这个链接已经用过了/);
    const madeUp = await confirm('x'.repeat(43));
    expect(madeUp.statusCode).toBe(400);
    expect(madeUp.json().errorMessage).toMatch(/确认链接无效/);
    expect((await confirm('')).statusCode).toBe(400);
    // A confirmed channel needs no more mail; nor does another of the user's channels to the address.
    expect((await client.post(`/api/ums/channels/${channel}/confirmation`)).statusCode).toBe(409);
    const second = await addChannel(client, { kind: 'email', name: '同一地址', email: address.toUpperCase() });
    expect((await channelOf(client, second)).emailConsent.confirmed).toBe(true);
    expect(confirmations(address)).toHaveLength(1);
    // Another user's channel to it is another sender: that one is asked again.
    const { client: other } = await loggedInClient(rig.ctx);
    const theirs = await addChannel(other, { kind: 'email', name: '别人的', email: address });
    expect((await channelOf(other, theirs)).emailConsent.confirmed).toBe(false);
    expect(confirmations(address)).toHaveLength(2);
  });

  test('a link past 72 hours, or one a newer mail replaced, says it no longer works', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const address = newAddress();
    const channel = await addChannel(client, { kind: 'email', name: 'e', email: address });
    const first = confirmationToken(rig.smtp, address);
    // Again within a minute: refused, with when.
    const soon = await client.post(`/api/ums/channels/${channel}/confirmation`);
    expect(soon.statusCode).toBe(429);
    expect(soon.json().errorMessage).toMatch(/1 分钟后/);
    rig.clock.advance(60_001);
    const resent = await client.post(`/api/ums/channels/${channel}/confirmation`);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data.emailConsent).toMatchObject({ confirmed: false });
    const second = confirmationToken(rig.smtp, address);
    expect(second).not.toBe(first);
    const replaced = await confirm(first);
    expect(replaced.statusCode).toBe(410);
    expect(replaced.json().errorMessage).toMatch(/确认链接已失效/);

    rig.clock.advance(72 * 3600_000 + 1);
    expect((await confirm(second)).statusCode).toBe(410);
    expect((await channelOf(client, channel)).emailConsent.confirmed).toBe(false);
  });

  test('a new address is unconfirmed again and mailed; the same address typed again is not', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const address = newAddress();
    const channel = await addConfirmedEmail(rig, client, { name: 'e', email: address });
    const patch = (email: string) =>
      client.request({ method: 'PATCH', url: `/api/ums/channels/${channel}`, payload: { email } });
    expect((await patch(address.toUpperCase())).statusCode).toBe(200);
    expect((await channelOf(client, channel)).emailConsent.confirmed).toBe(true);
    const other = newAddress();
    expect((await patch(other)).statusCode).toBe(200);
    expect((await channelOf(client, channel)).emailConsent.confirmed).toBe(false);
    expect(confirmations(other)).toHaveLength(1);
    expect((await client.post('/api/ums/messages', { content: 'x', channel })).statusCode).toBe(409);
    await confirmAddress(rig, other);
    expect((await client.post('/api/ums/messages', { content: 'x', channel })).statusCode).toBe(200);
  });

  test('at most 5 new addresses a day per user: the sixth channel is refused and not made; the next day it may', async () => {
    middayInShanghai();
    const { client, uid } = await loggedInClient(rig.ctx);
    const add = (email: string) => client.post('/api/ums/channels', { kind: 'email', name: 'e', email });
    // The same address again (a second channel to it) is no new address.
    const addresses = Array.from({ length: 5 }, newAddress);
    for (const a of addresses) expect((await add(a)).statusCode).toBe(200);
    rig.clock.advance(60_001); // one address is mailed at most once a minute
    expect((await add(addresses[0])).statusCode).toBe(200);
    const sixth = newAddress();
    const refused = await add(sixth);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errorMessage).toMatch(/今天已向 5 个新邮箱发送过确认邮件/);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    expect(rig.smtp.deliveredTo(sixth)).toHaveLength(0);
    const channels = (await client.get('/api/ums/channels')).json().data;
    expect(channels).toHaveLength(6);
    expect(await messageCount(rig, uid)).toBe(0);

    rig.clock.advance(Number(refused.headers['retry-after']) * 1000);
    expect((await add(sixth)).statusCode).toBe(200);
  });

  test('deleting the channels gives no new addresses back: the cap counts the mails sent', async () => {
    middayInShanghai();
    const { client } = await loggedInClient(rig.ctx);
    for (let i = 0; i < 5; i++) {
      const id = await addChannel(client, { kind: 'email', name: 'e', email: newAddress() });
      expect((await client.request({ method: 'DELETE', url: `/api/ums/channels/${id}` })).statusCode).toBe(200);
    }
    const sixth = newAddress();
    const refused = await client.post('/api/ums/channels', { kind: 'email', name: 'e', email: sixth });
    expect(refused.statusCode).toBe(429);
    expect(rig.smtp.deliveredTo(sixth)).toHaveLength(0);
    expect((await client.get('/api/ums/channels')).json().data).toHaveLength(0);
  });

  test('one address is mailed at most 3 times a day', async () => {
    middayInShanghai();
    const { client } = await loggedInClient(rig.ctx);
    const address = newAddress();
    const channel = await addChannel(client, { kind: 'email', name: 'e', email: address });
    for (let i = 0; i < 2; i++) {
      rig.clock.advance(60_001);
      expect((await client.post(`/api/ums/channels/${channel}/confirmation`)).statusCode).toBe(200);
    }
    rig.clock.advance(60_001);
    const fourth = await client.post(`/api/ums/channels/${channel}/confirmation`);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().errorMessage).toMatch(/今天已向该邮箱发送过 3 次确认邮件/);
    expect(confirmations(address)).toHaveLength(3);
  });

  test('a confirmation mail the server cannot send: 502, the channel kept unconfirmed, no cap used', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const address = newAddress();
    rig.smtp.script(address, 'reject');
    const res = await client.post('/api/ums/channels', { kind: 'email', name: 'e', email: address });
    expect(res.statusCode).toBe(502);
    expect(res.json().errorMessage).toMatch(/确认邮件发送失败/);
    const [channel] = (await client.get('/api/ums/channels')).json().data;
    expect(channel.emailConsent).toMatchObject({ confirmed: false, sentAt: null });
    expect((await client.post(`/api/ums/channels/${channel.id}/confirmation`)).statusCode).toBe(200);
    expect(confirmations(address)).toHaveLength(1);
  });

  test('a channel saved before consent existed is unconfirmed: what waits for it fails with the reason, unsent', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const address = newAddress();
    const channel = await addConfirmedEmail(rig, client, { name: 'e', email: address });
    const id = await sendUi(client, { content: '迁移前排队', channel });
    // What the migration leaves an e-mail channel made before: no consent.
    await rig.ctx.db.updateTable('ums_channels').set({ confirmed_at: null }).where('id', '=', channel).execute();
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('failed');
    expect(m.lastError).toMatch(/收件邮箱尚未确认，未发送/);
    expect(pushedTo(rig.smtp, address)).toHaveLength(0);
    expect((await channelOf(client, channel)).emailConsent.confirmed).toBe(false);
  });
});

describe('webhooks and callbacks at the portal’s own address', () => {
  const own = `${PORTAL_URL}/api/ums/send?token=pt_x`;

  test('a webhook is refused when saved, whether the portal is PUBLIC_URL or the host a request came by', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const res = await client.post('/api/ums/channels', { kind: 'webhook', name: 'h', webhook: own });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorMessage).toBe('不能推送到门户自己的地址');
    const viaHost = await client.request({
      method: 'POST',
      url: '/api/ums/channels',
      headers: { host: 'portal.campus.test' },
      payload: { kind: 'webhook', name: 'h', webhook: 'https://PORTAL.campus.test./x' },
    });
    expect(viaHost.statusCode).toBe(400);
    expect(viaHost.json().errorMessage).toBe('不能推送到门户自己的地址');
    const callback = await client.post('/api/ums/messages', { content: 'x', callbackUrl: `${PORTAL_URL}/cb` });
    expect(callback.statusCode).toBe(400);
    expect(callback.json().data.callbackUrl).toEqual(['不能是门户自己的地址']);
  });

  test('one saved before (or before PUBLIC_URL named it) is not tested, delivered or called back', async () => {
    const { client } = await loggedInClient(rig.ctx);
    const channel = await addChannel(client, { kind: 'webhook', name: 'h', webhook: rig.hook.endpoint(unique('h')) });
    await rig.ctx.db
      .updateTable('ums_channels')
      .set({ webhook_enc: rig.ctx.secrets.encrypt(own) })
      .where('id', '=', channel)
      .execute();
    const test = (await client.post(`/api/ums/channels/${channel}/test`)).json().data;
    expect(test).toMatchObject({ ok: false, httpStatus: null, errmsg: '目标是门户自己的地址，已拒绝发送' });
    const id = await sendUi(client, { content: 'x', channel, callbackUrl: rig.hook.endpoint(unique('cb')) });
    await rig.ctx.db
      .updateTable('ums_messages')
      .set({ callback_url: `${PORTAL_URL}/cb` })
      .where('id', '=', id)
      .execute();
    await run();
    const m = await message(client, id);
    expect(m.status).toBe('failed');
    expect(m.attemptLog[0]).toMatchObject({ outcome: 'permanent', errmsg: '目标是门户自己的地址，已拒绝发送' });
    expect(m.callback).toMatchObject({ status: 'pending', error: '回调地址是门户自己的地址，已拒绝发送' });
  });
});

test('what a webhook target answers is never shown back: the test, the timeline and the unmet condition give its status only', async () => {
  const { client } = await loggedInClient(rig.ctx);
  const name = unique('h');
  const secret = '{"code":7,"internal":"SECRET-CONTENT-42"}';
  rig.hook.always(name, { kind: 'http', status: 200, body: secret });
  const channel = await addChannel(client, {
    kind: 'webhook',
    name: 'h',
    webhook: rig.hook.endpoint(name),
    successPath: '$.internal',
    successValue: 'ok',
  });
  const test = (await client.post(`/api/ums/channels/${channel}/test`)).json().data;
  const id = await sendUi(client, { content: 'x', channel });
  await run();
  const m = await message(client, id);
  rig.hook.reset(name);
  for (const shown of [JSON.stringify(test), JSON.stringify(m)]) {
    expect(shown).not.toContain('SECRET-CONTENT-42');
    expect(shown).not.toContain('internal":');
  }
  expect(test).toMatchObject({ ok: false, httpStatus: 200, errmsg: 'HTTP 200 OK' });
  expect(test.hint).toBe('应答不满足成功条件：$.internal 的值不是 ok');
  expect(m.attemptLog[0]).toMatchObject({ outcome: 'permanent', errmsg: 'HTTP 200 OK' });
});

test('the port the portal listens on is refused even when an allow-list entry covers it; a gateway beside it is not', async () => {
  const own = await startTestApp({ UMS_WEBHOOK_ALLOWLIST: 'http://127.0.0.1:,http://localhost:' });
  try {
    await own.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = own.app.server.address() as AddressInfo;
    const { client } = await loggedInClient(own);
    const add = (webhook: string) => client.post('/api/ums/channels', { kind: 'webhook', name: 'h', webhook });
    for (const url of [`http://127.0.0.1:${port}/api/ums/send?token=x`, `http://LOCALHOST:${port}/x`]) {
      const res = await add(url);
      expect(res.statusCode).toBe(400);
      expect(res.json().errorMessage).toBe('不能推送到门户自己的地址');
    }
    expect((await add(rig.hook.endpoint(unique('beside')))).statusCode).toBe(200);
    // A request that reached the portal at 127.0.0.1:<port> refuses that port only, not the host.
    const beside = await client.request({
      method: 'POST',
      url: '/api/ums/channels',
      headers: { host: `127.0.0.1:${port}` },
      payload: { kind: 'webhook', name: 'h', webhook: rig.hook.endpoint(unique('beside')) },
    });
    expect(beside.statusCode).toBe(200);
    const cb = await client.post('/api/ums/messages', { content: 'x', callbackUrl: `http://127.0.0.1:${port}/cb` });
    expect(cb.statusCode).toBe(400);
    expect(cb.json().data.callbackUrl).toEqual(['不能是门户自己的地址']);
  } finally {
    await own.close();
  }
});

test('a link confirms only the channel it was mailed for; another user cannot resend for a channel not theirs', async () => {
  const { client: alice } = await loggedInClient(rig.ctx);
  const { client: mallory } = await loggedInClient(rig.ctx);
  const address = newAddress();
  const hers = await addChannel(alice, { kind: 'email', name: 'a', email: address });
  const token = confirmationToken(rig.smtp, address);
  rig.clock.advance(60_001);
  const his = await addChannel(mallory, { kind: 'email', name: 'm', email: address });
  // Mallory's resend of Alice's channel: as if it did not exist, and nothing mailed.
  const before = confirmations(address).length;
  const resend = await mallory.post(`/api/ums/channels/${hers}/confirmation`);
  expect(resend.statusCode).toBe(404);
  expect(confirmations(address)).toHaveLength(before);
  // Alice's link, opened, confirms hers only.
  expect((await confirm(token)).statusCode).toBe(200);
  expect((await channelOf(alice, hers)).emailConsent.confirmed).toBe(true);
  expect((await channelOf(mallory, his)).emailConsent.confirmed).toBe(false);
  expect((await mallory.post('/api/ums/messages', { content: 'x', channel: his })).statusCode).toBe(409);
  // Junk in place of a token: refused, nothing confirmed.
  for (const junk of ['a'.repeat(200), 'x\u0000'.repeat(20), '\ud800'.repeat(20), JSON.stringify({ token })]) {
    const res = await confirm(junk);
    expect(res.statusCode).toBe(400);
  }
  expect((await channelOf(mallory, his)).emailConsent.confirmed).toBe(false);
});

test('the audit’s run: 12 outside addresses, 6 messages each — strangers get no pushes, at most 5 confirmation mails', async () => {
  middayInShanghai();
  const { client } = await loggedInClient(rig.ctx);
  const addresses = Array.from({ length: 12 }, newAddress);
  const made: number[] = [];
  for (const email of addresses) {
    const res = await client.post('/api/ums/channels', { kind: 'email', name: 'x', email });
    if (res.statusCode === 200) made.push(res.json().data.id);
  }
  for (const channel of made)
    for (let i = 0; i < 6; i++) await client.post('/api/ums/messages', { content: `钓鱼${i}`, channel });
  await run();
  const pushed = addresses.reduce((n, a) => n + pushedTo(rig.smtp, a).length, 0);
  const asked = addresses.reduce((n, a) => n + confirmations(a).length, 0);
  process.stdout.write(
    `\n[consent] 12 addresses x 6: ${made.length} channels, ${pushed} pushes, ${asked} confirmation mails\n`,
  );
  expect(pushed).toBe(0);
  expect(made).toHaveLength(5);
  expect(asked).toBe(5);
});
