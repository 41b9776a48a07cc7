import sharp from 'sharp';
import { Client, loggedInClient, multipart, startTestApp, type TestContext } from '../helpers';

let ctx: TestContext;
let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;
beforeAll(async () => {
  ctx = await startTestApp();
  const image = sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 200, g: 30, b: 60 } } });
  png = await image.clone().png().toBuffer();
  jpeg = await image.clone().jpeg().toBuffer();
  webp = await image.clone().webp().toBuffer();
});
afterAll(async () => {
  await ctx.close();
});

const upload = (client: Client, name: string, content: Buffer, type?: string) =>
  client.request({ method: 'POST', url: '/api/user/avatar', ...multipart('file', name, content, type) });

describe('profile', () => {
  test('shows who I am, with creation and last login times', async () => {
    const { client, username } = await loggedInClient(ctx, ['njit']);
    const res = await client.get('/api/user/profile');
    expect(res.json()).toMatchObject({ success: true, data: { username, roles: ['njit'], avatar: null } });
    expect(Date.parse(res.json().data.createdAt)).not.toBeNaN();
    expect(Date.parse(res.json().data.lastLoginAt)).not.toBeNaN();
  });

  test('edits the nickname; bad nicknames are 400 and change nothing', async () => {
    const { client } = await loggedInClient(ctx);
    const res = await client.request({
      method: 'PATCH',
      url: '/api/user/profile',
      payload: { nickname: '  小明 🎉 ' },
    });
    expect(res.json().data.nickname).toBe('小明 🎉');
    for (const bad of [{ nickname: 'x'.repeat(33) }, { nickname: 5 }, {}]) {
      const r = await client.request({ method: 'PATCH', url: '/api/user/profile', payload: bad });
      expect(r.statusCode).toBe(400);
    }
    expect((await client.get('/api/user/me')).json().data.nickname).toBe('小明 🎉');
  });
});

describe('avatar', () => {
  test.each([
    ['PNG', 'a.png', () => png],
    ['JPEG', 'a.jpg', () => jpeg],
    ['WebP', 'a.webp', () => webp],
  ])('a %s becomes a WebP square of at most 256 px under a stable URL', async (_kind, name, file) => {
    const { client, uid } = await loggedInClient(ctx);
    const res = await upload(client, name, file(), 'image/whatever');
    expect(res.statusCode).toBe(200);
    const url = res.json().data.avatar;
    expect(url).toBe(`/api/user/avatar/${uid}?v=1`);
    expect((await client.get('/api/user/me')).json().data.avatar).toBe(url);

    const img = await ctx.app.inject({ method: 'GET', url });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/webp');
    expect(img.headers['cache-control']).toMatch(/immutable/);
    const meta = await sharp(img.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(256);
    expect(meta.height).toBe(256);

    const again = await upload(client, name, file());
    expect(again.json().data.avatar).toBe(`/api/user/avatar/${uid}?v=2`);
  });

  test('bad files get a clear error and the old avatar stays', async () => {
    const { client, uid } = await loggedInClient(ctx);
    const good = (await upload(client, 'ok.png', png)).json().data.avatar;
    const before = (await ctx.app.inject({ method: 'GET', url: good })).rawPayload;

    const renamedText = await upload(
      client,
      'photo.png',
      Buffer.from('this is not an image at all, just text\n'.repeat(10)),
      'image/png',
    );
    expect(renamedText.statusCode).toBe(400);
    expect(renamedText.json().errorMessage).toMatch(/PNG、JPEG 或 WebP/);

    const truncated = await upload(client, 'cut.jpg', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg');
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().errorMessage).toMatch(/损坏|无法识别/);

    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const wrongType = await upload(client, 'a.gif', gif, 'image/gif');
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().errorMessage).toMatch(/只支持/);

    const huge = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024)]);
    const oversized = await upload(client, 'big.png', huge, 'image/png');
    expect(oversized.statusCode).toBe(413);
    expect(oversized.json().errorMessage).toMatch(/2 MB/);

    const empty = await upload(client, 'empty.png', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);

    const notMultipart = await client.post('/api/user/avatar', { file: 'x' });
    expect(notMultipart.statusCode).toBe(400);

    expect((await client.get('/api/user/me')).json().data.avatar).toBe(good);
    const after = (await ctx.app.inject({ method: 'GET', url: `/api/user/avatar/${uid}?v=1` })).rawPayload;
    expect(after.equals(before)).toBe(true);
  });

  test('an avatar that does not exist is a 404 envelope', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/user/avatar/999999' });
    expect(res.statusCode).toBe(404);
    expect(res.json().success).toBe(false);
  });
});

describe('password change', () => {
  test('requires the current password and ends every other session', async () => {
    const { client, username } = await loggedInClient(ctx, [], 'old-password-1');
    const other1 = new Client(ctx.app);
    const other2 = new Client(ctx.app);
    await other1.post('/api/user/login', { username, password: 'old-password-1' });
    await other2.post('/api/user/login', { username, password: 'old-password-1' });
    expect((await other1.get('/api/user/me')).statusCode).toBe(200);

    const wrong = await client.post('/api/user/password', {
      oldPassword: 'not-it-at-all',
      newPassword: 'new-password-1',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().data.oldPassword).toEqual(['当前密码不正确']);
    expect((await other1.get('/api/user/me')).statusCode).toBe(200);

    const short = await client.post('/api/user/password', { oldPassword: 'old-password-1', newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().data.newPassword).toBeDefined();

    const ok = await client.post('/api/user/password', {
      oldPassword: 'old-password-1',
      newPassword: 'new-password-1',
    });
    expect(ok.json()).toEqual({ success: true, data: { endedSessions: 2, revokedTokens: 0 } });
    expect((await client.get('/api/user/me')).statusCode).toBe(200);
    expect((await other1.get('/api/user/me')).statusCode).toBe(401);
    expect((await other2.get('/api/user/me')).statusCode).toBe(401);
    expect(
      (await new Client(ctx.app).post('/api/user/login', { username, password: 'old-password-1' })).statusCode,
    ).toBe(401);
    expect(
      (await new Client(ctx.app).post('/api/user/login', { username, password: 'new-password-1' })).statusCode,
    ).toBe(200);
  });
});

describe('sessions', () => {
  test('lists my sessions, ends one (not the current), then all others', async () => {
    const { client, username } = await loggedInClient(ctx, [], 'pw-sessions-1');
    const phone = new Client(ctx.app, { 'user-agent': 'Phone/1.0' });
    const laptop = new Client(ctx.app, { 'user-agent': 'Laptop/2.0' });
    await phone.post('/api/user/login', { username, password: 'pw-sessions-1' });
    await laptop.post('/api/user/login', { username, password: 'pw-sessions-1' });

    const list = (await client.get('/api/user/sessions')).json().data as {
      id: number;
      userAgent: string;
      current: boolean;
      ip: string;
    }[];
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const current = list.find((s) => s.current)!;
    const phoneSession = list.find((s) => s.userAgent === 'Phone/1.0')!;
    expect(phoneSession.ip).toBe('127.0.0.1');

    const self = await client.request({ method: 'DELETE', url: `/api/user/sessions/${current.id}` });
    expect(self.statusCode).toBe(400);
    expect((await client.get('/api/user/me')).statusCode).toBe(200);

    const end = await client.request({ method: 'DELETE', url: `/api/user/sessions/${phoneSession.id}` });
    expect(end.json()).toEqual({ success: true, data: { ended: 1 } });
    expect((await phone.get('/api/user/me')).statusCode).toBe(401);
    expect((await laptop.get('/api/user/me')).statusCode).toBe(200);

    const others = await client.post('/api/user/sessions/end-others');
    expect(others.json().data.ended).toBe(1);
    expect((await laptop.get('/api/user/me')).statusCode).toBe(401);
    expect((await client.get('/api/user/me')).statusCode).toBe(200);
  });

  test("cannot end someone else's session", async () => {
    const a = await loggedInClient(ctx);
    const b = await loggedInClient(ctx);
    const bSession = (await b.client.get('/api/user/sessions')).json().data[0];
    const res = await a.client.request({ method: 'DELETE', url: `/api/user/sessions/${bSession.id}` });
    expect(res.statusCode).toBe(404);
    expect((await b.client.get('/api/user/me')).statusCode).toBe(200);
  });
});
