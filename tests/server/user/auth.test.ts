import { sql } from 'kysely';
import { Client, startTestApp, uniqueName, type TestContext } from '../helpers';
import { authCacheOf } from '../../../server/modules/user/auth-cache';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

const userCount = async () =>
  Number(
    (
      await ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('register, login, me, logout', () => {
  test('a new user registers, is logged in, logs out, and logs back in', async () => {
    const c = new Client(ctx.app);
    const username = uniqueName('Alice');
    const reg = await c.post('/api/user/register', { username, password: 'pa55word!', nickname: '爱丽丝' });
    expect(reg.statusCode).toBe(200);
    expect(reg.json()).toMatchObject({ success: true, data: { username, nickname: '爱丽丝', roles: [] } });
    const cookie = reg.cookies.find((x) => x.name === 'portal_sid')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.maxAge).toBeUndefined(); // a browser session

    const me = await c.get('/api/user/me');
    expect(me.json()).toMatchObject({ success: true, data: { username, nickname: '爱丽丝' } });

    const out = await c.post('/api/user/logout');
    expect(out.json()).toEqual({ success: true });
    // Logging out dropped the cookie: a visitor now, answered "nobody", not refused.
    expect(c.cookies.has('portal_sid')).toBe(false);
    expect((await c.get('/api/user/me')).json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });

    const login = await c.post('/api/user/login', { username: username.toUpperCase(), password: 'pa55word!' });
    expect(login.statusCode).toBe(200);
    expect((await c.get('/api/user/me')).json().data.username).toBe(username);
  });

  test('the stored session is gone after logout, so a replayed cookie is refused', async () => {
    const c = new Client(ctx.app);
    await c.post('/api/user/register', { username: uniqueName('bob'), password: 'pa55word!' });
    const stolen = c.cookies.get('portal_sid')!;
    await c.post('/api/user/logout');
    const replay = await ctx.app.inject({
      method: 'GET',
      url: '/api/user/me',
      headers: { cookie: `portal_sid=${stolen}` },
    });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
    // The cookie of a session that ended goes with the answer: the browser's next visit is a visitor's.
    const dropped = replay.cookies.find((x) => x.name === 'portal_sid');
    expect(dropped?.value).toBe('');
    expect(new Date(dropped!.expires!).getTime()).toBeLessThan(Date.now());
  });

  test('me answers a visitor without a session 200 with success:false, not 401 (a browser logs a 401 as an error)', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/user/me' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: false, errorCode: 'UNAUTHORIZED', errorMessage: '请先登录', showType: 0 });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.cookies).toEqual([]);
  });

  test('remember me gives a 30-day cookie', async () => {
    const c = new Client(ctx.app);
    const username = uniqueName('carol');
    await c.post('/api/user/register', { username, password: 'pa55word!' });
    const res = await new Client(ctx.app).post('/api/user/login', { username, password: 'pa55word!', remember: true });
    const cookie = res.cookies.find((x) => x.name === 'portal_sid')!;
    expect(cookie.maxAge).toBe(30 * 86400);
  });

  test('the password is stored as a scrypt hash, never in clear', async () => {
    const username = uniqueName('dave');
    await new Client(ctx.app).post('/api/user/register', { username, password: 'pa55word-secret' });
    const row = await ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(row.password_hash).not.toContain('pa55word-secret');
  });

  test('wrong password and unknown user both get the same 401', async () => {
    const username = uniqueName('erin');
    await new Client(ctx.app).post('/api/user/register', { username, password: 'pa55word!' });
    const wrong = await new Client(ctx.app).post('/api/user/login', { username, password: 'nope-nope' });
    const unknown = await new Client(ctx.app).post('/api/user/login', {
      username: 'nobody_here',
      password: 'nope-nope',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().errorMessage).toBe('用户名或密码错误');
    expect(unknown.json().errorMessage).toBe(wrong.json().errorMessage);
  });
});

describe('duplicates', () => {
  test('a duplicate username, in any case, gets 409 and writes nothing', async () => {
    const username = uniqueName('Frank');
    expect((await new Client(ctx.app).post('/api/user/register', { username, password: 'pa55word!' })).statusCode).toBe(
      200,
    );
    const before = await userCount();
    const dup = await new Client(ctx.app).post('/api/user/register', {
      username: username.toLowerCase(),
      password: 'pa55word!',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ success: false, errorMessage: '该用户名已被注册' });
    expect(await userCount()).toBe(before);
  });

  test('ten concurrent registrations of one name: exactly one wins', async () => {
    const username = uniqueName('race');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        new Client(ctx.app).post('/api/user/register', { username, password: 'pa55word!' }),
      ),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
  });
});

describe('bad input gives 400 with field errors and writes nothing', () => {
  const cases: [string, unknown, string][] = [
    ['missing everything', {}, 'username'],
    ['username too short', { username: 'ab', password: 'pa55word!' }, 'username'],
    ['username too long', { username: 'a'.repeat(33), password: 'pa55word!' }, 'username'],
    ['username with unicode', { username: '张三丰abc', password: 'pa55word!' }, 'username'],
    ['username injection-looking', { username: "x' or 1=1 --", password: 'pa55word!' }, 'username'],
    ['username wrong type', { username: 12345, password: 'pa55word!' }, 'username'],
    ['password too short', { username: 'goodname', password: 'short' }, 'password'],
    ['password too long', { username: 'goodname', password: 'p'.repeat(129) }, 'password'],
    ['password wrong type', { username: 'goodname', password: ['a'] }, 'password'],
    ['nickname too long', { username: 'goodname', password: 'pa55word!', nickname: '长'.repeat(33) }, 'nickname'],
    ['nickname wrong type', { username: 'goodname', password: 'pa55word!', nickname: { a: 1 } }, 'nickname'],
  ];
  test.each(cases)('%s', async (_name, payload, field) => {
    const before = await userCount();
    const res = await new Client(ctx.app).post('/api/user/register', payload);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ success: false, errorCode: 'VALIDATION_FAILED' });
    expect(body.data[field]?.length).toBeGreaterThan(0);
    expect(body.errorMessage).toMatch(/^输入有误/);
    expect(await userCount()).toBe(before);
  });

  test('a huge body is refused without a 500', async () => {
    const res = await new Client(ctx.app).post('/api/user/register', {
      username: 'x'.repeat(2_000_000),
      password: 'pa55word!',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().success).toBe(false);
  });

  test('malformed JSON is a 400 envelope', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false });
  });

  test('login with missing fields is a 400 with field errors', async () => {
    const res = await new Client(ctx.app).post('/api/user/login', { username: '' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().data)).toEqual(expect.arrayContaining(['username', 'password']));
  });
});

describe('cross-site and non-JSON mutations are refused', () => {
  test('a form-encoded login is 415', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=admin&password=x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().success).toBe(false);
  });

  test('a foreign Origin is 403 and nothing is written', async () => {
    const before = await userCount();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/register',
      headers: { origin: 'https://evil.example', host: 'portal.example' },
      payload: { username: uniqueName('csrf'), password: 'pa55word!' },
    });
    expect(res.statusCode).toBe(403);
    expect(await userCount()).toBe(before);
  });

  test('the same Origin is accepted', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/register',
      headers: { origin: 'http://portal.example', host: 'portal.example' },
      payload: { username: uniqueName('same'), password: 'pa55word!' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('login throttling', () => {
  /** A browser at an address: its own cookies (the device cookie among them). */
  const browserAt = (ip: string) => {
    const c = new Client(ctx.app);
    return {
      client: c,
      login: (username: string, password: string) =>
        c.request({ method: 'POST', url: '/api/user/login', remoteAddress: ip, payload: { username, password } }),
    };
  };

  test('failures from elsewhere never lock the owner out: unknown browsers wait a growing delay, a known browser signs in', async () => {
    const username = uniqueName('thr');
    const owner = browserAt('10.1.0.1');
    await owner.client.request({
      method: 'POST',
      url: '/api/user/register',
      remoteAddress: '10.1.0.1',
      payload: { username, password: 'right-password' },
    });
    expect(owner.client.cookies.get('portal_device')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await owner.client.post('/api/user/logout');

    // An attacker spreads guesses over five addresses.
    for (let i = 0; i < 5; i++) {
      expect((await browserAt(`10.2.0.${i}`).login(username, `wrong-${i}-pw`)).statusCode).toBe(401);
    }
    // Any browser the account does not know now waits, even with the right password...
    const stranger = await browserAt('10.3.0.1').login(username, 'right-password');
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json().errorMessage).toMatch(/常用浏览器上登录不受影响/);
    const retryAfter = Number(stranger.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    // ...but never the owner's own browser.
    expect((await owner.login(username, 'right-password')).statusCode).toBe(200);

    // The delay doubles with every further failure, up to five minutes, and then holds there.
    const key = username.toLowerCase();
    const age = () =>
      ctx.db
        .updateTable('login_failures')
        .set({ at: sql`now() - interval '10 minutes'` })
        .where('username', '=', key)
        .execute();
    await age();
    expect((await browserAt('10.2.0.9').login(username, 'wrong-again')).statusCode).toBe(401);
    expect(Number((await browserAt('10.3.0.2').login(username, 'right-password')).headers['retry-after'])).toBe(10);
    for (let i = 0; i < 8; i++) {
      await age();
      await browserAt(`10.2.1.${i}`).login(username, 'wrong-more');
    }
    const capped = await browserAt('10.3.0.3').login(username, 'right-password');
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBe(300);
    expect((await owner.login(username, 'right-password')).statusCode).toBe(200);

    // Once the failures leave the 15-minute window, anyone with the password gets in again.
    await ctx.db
      .updateTable('login_failures')
      .set({ at: sql`now() - interval '16 minutes'` })
      .where('username', '=', key)
      .execute();
    expect((await browserAt('10.3.0.4').login(username, 'right-password')).statusCode).toBe(200);
  });

  test('an address that fails on many usernames waits, whatever name it tries next; other addresses do not', async () => {
    const victim = uniqueName('spray');
    const owner = browserAt('10.4.0.1');
    await owner.client.request({
      method: 'POST',
      url: '/api/user/register',
      remoteAddress: '10.4.0.1',
      payload: { username: victim, password: 'right-password' },
    });
    for (let i = 0; i < 20; i++) {
      expect((await browserAt('10.5.0.1').login(uniqueName('nobody'), 'password123')).statusCode).toBe(401);
    }
    const sprayed = await browserAt('10.5.0.1').login(victim, 'right-password');
    expect(sprayed.statusCode).toBe(429);
    expect(sprayed.json().errorMessage).toMatch(/当前网络登录失败次数过多/);
    expect(Number(sprayed.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Unknown names are throttled the same way, so the answer does not reveal which names exist.
    expect((await browserAt('10.5.0.1').login(uniqueName('nobody'), 'x')).statusCode).toBe(429);
    expect((await browserAt('10.5.0.2').login(victim, 'right-password')).statusCode).toBe(200);
    // The owner's own browser behind the same address is not held back.
    expect((await owner.login(victim, 'right-password')).statusCode).toBe(200);
  });

  test("a known browser's own wrong passwords are capped: the 11th attempt within the window waits", async () => {
    const username = uniqueName('own');
    const owner = browserAt('10.6.0.1');
    await owner.client.request({
      method: 'POST',
      url: '/api/user/register',
      remoteAddress: '10.6.0.1',
      payload: { username, password: 'right-password' },
    });
    for (let i = 0; i < 10; i++) expect((await owner.login(username, 'forgot-it')).statusCode).toBe(401);
    const held = await owner.login(username, 'right-password');
    expect(held.statusCode).toBe(429);
    expect(held.json().errorMessage).toMatch(/密码错误次数过多/);
  });

  test('a forged device cookie is just an unknown browser', async () => {
    const username = uniqueName('forge');
    await browserAt('10.7.0.1').client.request({
      method: 'POST',
      url: '/api/user/register',
      remoteAddress: '10.7.0.1',
      payload: { username, password: 'right-password' },
    });
    for (let i = 0; i < 5; i++) await browserAt(`10.7.1.${i}`).login(username, 'wrong-password');
    const forger = browserAt('10.7.2.1');
    forger.client.cookies.set('portal_device', 'A'.repeat(43));
    expect((await forger.login(username, 'right-password')).statusCode).toBe(429);
    forger.client.cookies.set('portal_device', 'x'.repeat(5000));
    expect((await forger.login(username, 'right-password')).statusCode).toBe(429);
  });

  test('a successful login clears earlier failures', async () => {
    const username = uniqueName('clr');
    await new Client(ctx.app).post('/api/user/register', { username, password: 'right-password' });
    for (let i = 0; i < 4; i++)
      await new Client(ctx.app).post('/api/user/login', { username, password: 'wrong-password' });
    expect(
      (await new Client(ctx.app).post('/api/user/login', { username, password: 'right-password' })).statusCode,
    ).toBe(200);
    for (let i = 0; i < 4; i++)
      await new Client(ctx.app).post('/api/user/login', { username, password: 'wrong-password' });
    expect(
      (await new Client(ctx.app).post('/api/user/login', { username, password: 'right-password' })).statusCode,
    ).toBe(200);
  });
});

describe('sessions', () => {
  test('an expired session is refused', async () => {
    const c = new Client(ctx.app);
    const username = uniqueName('exp');
    await c.post('/api/user/register', { username, password: 'pa55word!' });
    expect((await c.get('/api/user/me')).statusCode).toBe(200);
    const user = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    await ctx.db
      .updateTable('sessions')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('user_id', '=', user.id)
      .execute();
    // A change by hand is not announced: the sign-in cache would keep the session up to 30 s
    // (auth-cache.test.ts checks that a cached session is refused at its own expiry).
    authCacheOf(ctx.db).clear();
    expect((await c.get('/api/user/me')).statusCode).toBe(401);
  });

  test('a disabled user loses access at once', async () => {
    const c = new Client(ctx.app);
    const username = uniqueName('dis');
    await c.post('/api/user/register', { username, password: 'pa55word!' });
    await ctx.db.updateTable('users').set({ status: 'disabled' }).where('username', '=', username).execute();
    expect((await c.get('/api/user/me')).statusCode).toBe(401);
    const login = await new Client(ctx.app).post('/api/user/login', { username, password: 'pa55word!' });
    expect(login.statusCode).toBe(403);
    expect(login.json().errorMessage).toMatch(/停用/);
  });

  test('last seen is refreshed at most once a minute', async () => {
    const c = new Client(ctx.app);
    const username = uniqueName('seen');
    await c.post('/api/user/register', { username, password: 'pa55word!' });
    const user = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    const seen = async () =>
      (
        await ctx.db
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).last_seen_at.getTime();
    const first = await seen();
    await c.get('/api/user/me');
    expect(await seen()).toBe(first);
    await ctx.db
      .updateTable('sessions')
      .set({ last_seen_at: sql`now() - interval '2 minutes'` })
      .where('user_id', '=', user.id)
      .execute();
    authCacheOf(ctx.db).clear(); // the cache remembers when it last wrote; the hand edit is news to it
    const aged = await seen();
    await c.get('/api/user/me');
    expect(await seen()).toBeGreaterThan(aged);
  });
});

describe('closed registration', () => {
  test('REGISTRATION=closed refuses with 403 and writes nothing', async () => {
    const closed = await startTestApp({ REGISTRATION: 'closed' });
    try {
      const settings = await closed.app.inject({ method: 'GET', url: '/api/user/settings' });
      expect(settings.json()).toEqual({
        success: true,
        data: { registration: 'closed', passwordReset: false, sso: { cas: null, oidc: null } },
      });
      const res = await new Client(closed.app).post('/api/user/register', {
        username: uniqueName('closed'),
        password: 'pa55word!',
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().errorMessage).toMatch(/关闭/);
      const n = await closed.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(0);
    } finally {
      await closed.close();
    }
  });
});

describe('registration rate limit', () => {
  test('past REGISTER_RATE_LIMIT per minute an IP gets 429 with Retry-After', async () => {
    const limited = await startTestApp({ REGISTER_RATE_LIMIT: '3' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        codes.push(
          (
            await new Client(limited.app).post('/api/user/register', {
              username: uniqueName('rl'),
              password: 'pa55word!',
            })
          ).statusCode,
        );
      }
      expect(codes).toEqual([200, 200, 200, 429]);
      const res = await new Client(limited.app).post('/api/user/register', {
        username: uniqueName('rl'),
        password: 'pa55word!',
      });
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json()).toMatchObject({ success: false, errorMessage: '请求过于频繁，请稍后再试' });
    } finally {
      await limited.close();
    }
  });
});

describe('logs', () => {
  test('passwords, cookies and tokens never reach a log line', async () => {
    const c = new Client(ctx.app);
    await c.post('/api/user/register', { username: uniqueName('log'), password: 'super-secret-pw-1' });
    const sid = c.cookies.get('portal_sid')!;
    await c.get('/api/user/me');
    await ctx.app.inject({
      method: 'GET',
      url: '/api/nope?token=tok-very-secret',
      headers: { authorization: 'Bearer tok-very-secret' },
    });
    const all = ctx.logs.join('\n');
    expect(all).toContain('/api/nope?token=[REDACTED]');
    expect(all).not.toContain('super-secret-pw-1');
    expect(all).not.toContain(sid);
    expect(all).not.toContain('tok-very-secret');
  });

  test("an OCS question's long query string is logged cut, its token redacted", async () => {
    const title = encodeURIComponent('以下哪一项是正确的说法'.repeat(20));
    await ctx.app.inject({ method: 'GET', url: `/api/ocs/query?title=${title}&type=single&token=tok-long-secret` });
    const line = ctx.logs.find((l) => l.includes('"url":"/api/ocs/query?title='));
    expect(line).toBeDefined();
    expect(line).toMatch(/…\(\+\d+\)"/);
    expect(line).not.toContain('tok-long-secret');
    expect(line!.length).toBeLessThan(600);
  });
});
