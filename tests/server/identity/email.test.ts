/**
 * E-mail and password reset against a real SMTP server on loopback (smtp-server),
 * whose received messages are parsed with mailparser: adding and verifying an address, a reset link
 * that works once and for 30 minutes, an answer that never tells whether an account or an address
 * exists, limits per address and per IP, every session ended by a reset (tokens too unless told not to), and
 * the page's answer when no SMTP server is configured.
 */
import { sql } from 'kysely';
import { linkIn, Mailbox, type ReceivedMail } from '../../fixtures/mailbox';
import { Client, loggedInClient, startTestApp, type TestContext } from '../helpers';
import { MAIL_BASE as BASE, startMailApp } from './helpers';

let mailbox: Mailbox;
let ctx: TestContext;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ ctx, mailbox, close } = await startMailApp());
});
afterAll(async () => {
  await close?.();
});

let ip = 0;
/** Each test's requests from its own address, so the per-IP limit is the tests' own business. */
const nextIp = () => `10.70.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

const forgot = (account: string, remoteAddress = nextIp()) =>
  ctx.app.inject({ method: 'POST', url: '/api/user/password/forgot', payload: { account }, remoteAddress });

const tokenOf = (mail: ReceivedMail) => new URL(linkIn(mail)).hash.replace('#token=', '');

/** A user with a verified address (through the real verification mail). */
async function userWithEmail(address: string) {
  const u = await loggedInClient(ctx);
  const set = await u.client.request({ method: 'PUT', url: '/api/user/email', payload: { email: address } });
  expect(set.statusCode).toBe(200);
  const mail = await mailbox.waitFor((m) => m.to.includes(address) && m.subject.includes('验证'));
  const verified = await new Client(ctx.app).post('/api/user/email/verify', { token: tokenOf(mail) });
  expect(verified.json()).toEqual({ success: true, data: { email: address } });
  return u;
}

const settled = () => new Promise((r) => setTimeout(r, 300));

describe('the address', () => {
  test('a verification mail with a one-time link; the address counts once the link is opened', async () => {
    const u = await loggedInClient(ctx);
    const address = `${u.username}@example.edu`;
    const set = await u.client.request({ method: 'PUT', url: '/api/user/email', payload: { email: ` ${address} ` } });
    expect(set.json().data).toMatchObject({ email: null, pendingEmail: address, mailConfigured: true });

    const mail = await mailbox.waitFor((m) => m.to.includes(address));
    expect(mail.subject).toBe('统一门户：验证你的邮箱');
    expect(mail.from).toContain('portal@example.edu');
    const link = new URL(linkIn(mail));
    expect(`${link.origin}${link.pathname}`).toBe(`${BASE}/user/verifyEmail`);
    expect(link.search).toBe(''); // the secret is in the fragment: never in a server's request log
    expect(link.hash).toMatch(/^#token=[A-Za-z0-9_-]{43}$/);
    expect(mail.html).toContain(link.href.replace(/&/g, '&amp;'));

    const ok = await new Client(ctx.app).post('/api/user/email/verify', { token: tokenOf(mail) });
    expect(ok.json()).toEqual({ success: true, data: { email: address } });
    const status = (await u.client.get('/api/user/email')).json().data;
    expect(status).toMatchObject({ email: address, pendingEmail: null });
    expect(status.verifiedAt).not.toBeNull();

    const again = await new Client(ctx.app).post('/api/user/email/verify', { token: tokenOf(mail) });
    expect(again.statusCode).toBe(400);
    expect(again.json().errorMessage).toContain('验证链接无效、已使用或已过期');
  });

  test('a changed address: the old one keeps working until the new one is verified; an older link dies', async () => {
    const u = await userWithEmail(`keep_${Date.now()}@example.edu`);
    const first = `first_${Date.now()}@example.edu`;
    const second = `second_${Date.now()}@example.edu`;
    await u.client.request({ method: 'PUT', url: '/api/user/email', payload: { email: first } });
    const firstMail = await mailbox.waitFor((m) => m.to.includes(first));
    await u.client.request({ method: 'PUT', url: '/api/user/email', payload: { email: second } });
    const secondMail = await mailbox.waitFor((m) => m.to.includes(second));
    expect((await u.client.get('/api/user/email')).json().data.email).toMatch(/^keep_/);
    expect((await new Client(ctx.app).post('/api/user/email/verify', { token: tokenOf(firstMail) })).statusCode).toBe(
      400,
    );
    expect((await new Client(ctx.app).post('/api/user/email/verify', { token: tokenOf(secondMail) })).statusCode).toBe(
      200,
    );
    expect((await u.client.get('/api/user/email')).json().data.email).toBe(second);
  });

  test('bad addresses are 400 with a field error; an address another account verified is 409; nothing changes', async () => {
    const other = await userWithEmail(`owner_${Date.now()}@example.edu`);
    const owned = (await other.client.get('/api/user/email')).json().data.email;
    const u = await loggedInClient(ctx);
    for (const email of ['', 'not-an-address', 'a@', `${'x'.repeat(250)}@example.edu`, 'a\u0000b@example.edu']) {
      const res = await u.client.request({ method: 'PUT', url: '/api/user/email', payload: { email } });
      expect(res.statusCode).toBe(400);
    }
    const taken = await u.client.request({
      method: 'PUT',
      url: '/api/user/email',
      payload: { email: owned.toUpperCase() },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().data.email).toEqual(['该邮箱已被其他账号使用']);
    expect((await u.client.get('/api/user/email')).json().data).toMatchObject({ email: null, pendingEmail: null });
  });

  test('an expired verification link is refused', async () => {
    const u = await loggedInClient(ctx);
    const address = `late_${u.username}@example.edu`;
    await u.client.request({ method: 'PUT', url: '/api/user/email', payload: { email: address } });
    const mail = await mailbox.waitFor((m) => m.to.includes(address));
    await ctx.db
      .updateTable('email_tokens')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('user_id', '=', u.uid)
      .execute();
    expect((await new Client(ctx.app).post('/api/user/email/verify', { token: tokenOf(mail) })).statusCode).toBe(400);
  });

  test('removing the address', async () => {
    const u = await userWithEmail(`gone_${Date.now()}@example.edu`);
    const res = await u.client.request({ method: 'DELETE', url: '/api/user/email' });
    expect(res.json().data).toMatchObject({ email: null, pendingEmail: null });
  });
});

describe('password reset', () => {
  test('by username or by address: a link valid 30 minutes that resets once and ends every session', async () => {
    const address = `reset_${Date.now()}@example.edu`;
    const u = await userWithEmail(address);
    const other = new Client(ctx.app);
    await other.post('/api/user/login', { username: u.username, password: 'correct-horse-battery' });
    const token = (
      await u.client.post('/api/user/tokens', { name: 'script', scopes: ['ums:send'], expiresInDays: null })
    ).json().data.token;

    const asked = await forgot(u.username.toUpperCase());
    expect(asked.json()).toEqual({ success: true });
    const mail = await mailbox.waitFor((m) => m.to.includes(address) && m.subject === '统一门户：重置密码');
    expect(mail.text).toContain('30 分钟内有效');
    const link = new URL(linkIn(mail));
    expect(`${link.origin}${link.pathname}`).toBe(`${BASE}/user/resetPassword`);
    const row = await ctx.db
      .selectFrom('email_tokens')
      .select(['expires_at', 'token_hash'])
      .where('user_id', '=', u.uid)
      .where('purpose', '=', 'reset')
      .executeTakeFirstOrThrow();
    const minutes = (row.expires_at.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    expect(row.token_hash).not.toContain(tokenOf(mail)); // only the hash is stored

    const check = await new Client(ctx.app).post('/api/user/password/reset/check', { token: tokenOf(mail) });
    expect(check.json()).toEqual({ success: true, data: { username: u.username } });

    const browser = new Client(ctx.app);
    const reset = await browser.post('/api/user/password/reset', {
      token: tokenOf(mail),
      newPassword: 'brand-new-password',
      revokeTokens: false, // the user unticked the box
    });
    expect(reset.json()).toEqual({ success: true, data: { endedSessions: 2, revokedTokens: 0 } });
    expect((await u.client.get('/api/user/me')).statusCode).toBe(401);
    expect((await other.get('/api/user/me')).statusCode).toBe(401);
    const tokenCheck = await ctx.app.inject({
      method: 'GET',
      url: '/api/token/check',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(tokenCheck.statusCode).toBe(200); // kept, as asked

    const old = await new Client(ctx.app).post('/api/user/login', {
      username: u.username,
      password: 'correct-horse-battery',
    });
    expect(old.statusCode).toBe(401);
    const fresh = await new Client(ctx.app).post('/api/user/login', {
      username: u.username,
      password: 'brand-new-password',
    });
    expect(fresh.statusCode).toBe(200);

    const twice = await browser.post('/api/user/password/reset', {
      token: tokenOf(mail),
      newPassword: 'another-password',
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errorMessage).toBe('重置链接无效、已使用或已过期，请重新申请');

    // By address, in any case; unless told not to, the reset revokes the tokens too (a reset often
    // follows a stolen password).
    await forgot(address.toUpperCase());
    const second = await mailbox.waitFor(
      (m) => m.to.includes(address) && m !== mail && m.subject === '统一门户：重置密码',
    );
    const revoking = await browser.post('/api/user/password/reset', {
      token: tokenOf(second),
      newPassword: 'third-password-3',
    });
    expect(revoking.json().data).toMatchObject({ revokedTokens: 1 });
    const revoked = await ctx.app.inject({
      method: 'GET',
      url: '/api/token/check',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(revoked.statusCode).toBe(401);
  });

  test('an expired link is refused, and a new request makes the older links useless once one is used', async () => {
    const address = `exp_${Date.now()}@example.edu`;
    const u = await userWithEmail(address);
    await forgot(u.username);
    const first = await mailbox.waitFor((m) => m.to.includes(address) && m.subject === '统一门户：重置密码');
    await ctx.db
      .updateTable('email_tokens')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('user_id', '=', u.uid)
      .where('purpose', '=', 'reset')
      .execute();
    const expired = await new Client(ctx.app).post('/api/user/password/reset', {
      token: tokenOf(first),
      newPassword: 'new-password-1',
    });
    expect(expired.statusCode).toBe(400);
    expect(
      (await new Client(ctx.app).post('/api/user/password/reset/check', { token: tokenOf(first) })).statusCode,
    ).toBe(400);

    await forgot(u.username);
    await forgot(u.username);
    await settled();
    const links = mailbox.to(address).filter((m) => m.subject === '统一门户：重置密码' && m !== first);
    expect(links).toHaveLength(2);
    expect(
      (
        await new Client(ctx.app).post('/api/user/password/reset', {
          token: tokenOf(links[1]),
          newPassword: 'new-password-2',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await new Client(ctx.app).post('/api/user/password/reset', {
          token: tokenOf(links[0]),
          newPassword: 'new-password-3',
        })
      ).statusCode,
    ).toBe(400);
  });

  test('the answer is the same for an unknown name, an unknown address, an unverified address and a real account; only the real one gets mail', async () => {
    const address = `same_${Date.now()}@example.edu`;
    const u = await userWithEmail(address);
    const unverified = await loggedInClient(ctx);
    const pendingAddress = `pending_${Date.now()}@example.edu`;
    await unverified.client.request({ method: 'PUT', url: '/api/user/email', payload: { email: pendingAddress } });
    await mailbox.waitFor((m) => m.to.includes(pendingAddress));
    const before = mailbox.messages.length;

    const answers = [];
    for (const account of [
      u.username,
      'no_such_user_here',
      'nobody@example.edu',
      pendingAddress,
      unverified.username,
    ]) {
      const res = await forgot(account);
      answers.push({ status: res.statusCode, body: res.body, headers: Object.keys(res.headers).sort().join(',') });
    }
    expect(new Set(answers.map((a) => JSON.stringify({ ...a, headers: undefined }))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 200, body: '{"success":true}' });
    await settled();
    const sent = mailbox.messages.slice(before);
    expect(sent.map((m) => m.to)).toEqual([[address]]);
  });

  test('limited per address (3 an hour) and per IP (10 per 15 minutes), whether the account exists or not', async () => {
    const ghost = `ghost_${Date.now()}@example.edu`;
    for (let i = 0; i < 3; i++) expect((await forgot(ghost)).statusCode).toBe(200);
    const limited = await forgot(ghost);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().errorMessage).toBe('找回密码的请求过于频繁，请稍后再试');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const oneIp = nextIp();
    for (let i = 0; i < 10; i++) expect((await forgot(`name_${i}_${Date.now()}`, oneIp)).statusCode).toBe(200);
    expect((await forgot('yet_another_name', oneIp)).statusCode).toBe(429);
    expect((await forgot('yet_another_name', nextIp())).statusCode).toBe(200);
  });

  test('bad input is a 400 with field errors and writes nothing', async () => {
    const before = await ctx.db
      .selectFrom('email_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const payload of [{}, { account: '' }, { account: '   ' }, { account: 'x'.repeat(300) }, { account: 42 }]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/user/password/forgot',
        payload,
        remoteAddress: nextIp(),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().data.account).toBeDefined();
    }
    for (const payload of [
      { token: 'short', newPassword: 'long-enough-1' },
      { token: 'x'.repeat(43), newPassword: 'short' },
      {},
    ]) {
      const res = await new Client(ctx.app).post('/api/user/password/reset', payload);
      expect(res.statusCode).toBe(400);
    }
    const unknown = await new Client(ctx.app).post('/api/user/password/reset', {
      token: 'x'.repeat(43),
      newPassword: 'long-enough-1',
    });
    expect(unknown.statusCode).toBe(400);
    const after = await ctx.db
      .selectFrom('email_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toEqual(before.n);
  });

  test('a disabled account or one without password sign-in gets no mail', async () => {
    const address = `off_${Date.now()}@example.edu`;
    const u = await userWithEmail(address);
    await ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', u.uid).execute();
    const before = mailbox.to(address).length;
    expect((await forgot(u.username)).statusCode).toBe(200);
    await settled();
    expect(mailbox.to(address)).toHaveLength(before);
  });

  test('the settings tell the login page that reset by e-mail works here', async () => {
    const res = await new Client(ctx.app).get('/api/user/settings');
    expect(res.json().data).toMatchObject({ passwordReset: true });
  });
});

describe('without SMTP', () => {
  let bare: TestContext;
  beforeAll(async () => {
    bare = await startTestApp({ PUBLIC_URL: BASE });
  });
  afterAll(async () => {
    await bare.close();
  });

  test('the page is told to send people to an administrator; nothing pretends to send', async () => {
    expect((await new Client(bare.app).get('/api/user/settings')).json().data.passwordReset).toBe(false);
    const res = await bare.app.inject({
      method: 'POST',
      url: '/api/user/password/forgot',
      payload: { account: 'admin' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errorMessage).toContain('请联系管理员');
    const u = await loggedInClient(bare);
    expect((await u.client.get('/api/user/email')).json().data.mailConfigured).toBe(false);
    const set = await u.client.request({ method: 'PUT', url: '/api/user/email', payload: { email: 'a@example.edu' } });
    expect(set.statusCode).toBe(409);
  });

  test('SMTP without PUBLIC_URL stays off too: links must not take their host from a request', async () => {
    const noBase = await startTestApp({ SMTP_URL: mailbox.url });
    try {
      expect((await new Client(noBase.app).get('/api/user/settings')).json().data.passwordReset).toBe(false);
      const res = await noBase.app.inject({
        method: 'POST',
        url: '/api/user/password/forgot',
        headers: { host: 'evil.example' },
        payload: { account: 'admin' },
      });
      expect(res.statusCode).toBe(409);
    } finally {
      await noBase.close();
    }
  });
});

describe('an SMTP server that is down', () => {
  test('setting an address says the mail could not be sent (502) and a reset request still answers the same', async () => {
    const down = new Mailbox();
    await down.start();
    const url = down.url;
    await down.stop();
    const app = await startTestApp({ SMTP_URL: url, PUBLIC_URL: BASE });
    try {
      const u = await loggedInClient(app);
      const res = await u.client.request({
        method: 'PUT',
        url: '/api/user/email',
        payload: { email: 'x@example.edu' },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().errorMessage).toContain('验证邮件发送失败');
      const asked = await app.app.inject({
        method: 'POST',
        url: '/api/user/password/forgot',
        payload: { account: u.username },
      });
      expect(asked.json()).toEqual({ success: true });
    } finally {
      await app.close();
    }
    expect(true).toBe(true);
  });
});
