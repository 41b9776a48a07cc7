/**
 * Live delivery of the notification centre (GET /api/notifications/stream, server-sent events) over a
 * real HTTP connection: a stream opens with the caller's unread count; a notification committed for its
 * user reaches every stream of that user (with the new count, id, kind and title) and no one else's; a
 * rolled-back one reaches nobody; marking read in another tab tells the count; an anonymous caller is
 * refused; a stream whose session signed out ends; a dropped connection is forgotten. Runs on PGlite
 * and, under .ci/postgres.sh, on PostgreSQL (where delivery goes through LISTEN on another connection).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_STREAMS_PER_USER } from '../../server/modules/notifications/live';
import { notify, notifyAdmins } from '../../server/modules/notifications/service';
import { loggedInClient, rolledBack, startTestApp, type TestContext } from './helpers';

let ctx: TestContext;
let base: string;
beforeAll(async () => {
  // A heartbeat every second: the round that finds a signed-out stream comes soon (the tests wait for
  // the stream's end, never for a time).
  ctx = await startTestApp({ NOTIFICATIONS_STREAM_HEARTBEAT_SECONDS: '1', METRICS_ALLOW: '127.0.0.1' });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await ctx.close();
});

interface SseEvent {
  event: string;
  data: { unread: number; item?: { id: number; kind: string; title: string } };
}

/** An open event stream, read as a browser's EventSource would: events in order, comments counted. */
class Stream {
  readonly events: SseEvent[] = [];
  comments = 0;
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  ended = false;
  body = '';
  private buffer = '';
  private waiters: Array<() => void> = [];
  private req!: http.ClientRequest;

  static open(cookie: string | undefined): Promise<Stream> {
    const s = new Stream();
    return new Promise((resolve, reject) => {
      s.req = http.get(
        `${base}/api/notifications/stream`,
        { agent: false, headers: cookie ? { cookie } : {} },
        (res) => {
          s.status = res.statusCode!;
          s.headers = res.headers;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => s.feed(chunk));
          res.on('end', () => s.finish());
          res.on('error', () => s.finish());
          resolve(s);
        },
      );
      s.req.on('error', reject);
    });
  }

  private feed(chunk: string): void {
    this.body += chunk;
    this.buffer += chunk;
    let at: number;
    while ((at = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) this.comments++;
        else if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) this.events.push({ event, data: JSON.parse(data) });
    }
    this.wake();
  }

  private finish(): void {
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits (event-driven) until `check` holds; a stream that ends first fails the wait. */
  until(check: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const look = () => {
        if (check()) resolve();
        else if (this.ended) reject(new Error(`stream ended; events so far: ${JSON.stringify(this.events)}`));
        else this.waiters.push(look);
      };
      look();
    });
  }

  /** The n-th event (0 is the count the stream opens with). */
  async event(n: number): Promise<SseEvent> {
    await this.until(() => this.events.length > n);
    return this.events[n]!;
  }

  whenEnded(): Promise<void> {
    return new Promise((resolve) => {
      const look = () => (this.ended ? resolve() : this.waiters.push(look));
      look();
    });
  }

  close(): void {
    this.req.destroy();
  }
}

const streams: Stream[] = [];
async function openStream(cookie: string | undefined): Promise<Stream> {
  const s = await Stream.open(cookie);
  streams.push(s);
  return s;
}
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});

async function signedIn(roles: Array<'admin'> = []) {
  const user = await loggedInClient(ctx, roles);
  return { ...user, cookie: `portal_sid=${user.client.cookies.get('portal_sid')}` };
}

async function openStreams(): Promise<number> {
  const res = await ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  const m = /^portal_notification_streams (\d+)$/m.exec(res.body);
  if (!m) throw new Error(`no stream gauge in /metrics (${res.statusCode})`);
  return Number(m[1]);
}

test('a notification reaches every open tab of its user, with the new count, and no one else', async () => {
  const me = await signedIn();
  const other = await signedIn();
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '旧的一条' });
  const [tab1, tab2, theirs] = await Promise.all([
    openStream(me.cookie),
    openStream(me.cookie),
    openStream(other.cookie),
  ]);
  expect(tab1.status).toBe(200);
  expect(tab1.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(tab1.headers['x-accel-buffering']).toBe('no');
  expect(tab1.body).toMatch(/^retry: \d+\n/);
  expect(await tab1.event(0)).toEqual({ event: 'unread', data: { unread: 1 } });
  expect(await tab2.event(0)).toEqual({ event: 'unread', data: { unread: 1 } });
  expect(await theirs.event(0)).toEqual({ event: 'unread', data: { unread: 0 } });

  await ctx.db
    .transaction()
    .execute((trx) =>
      notify(trx, me.uid, { kind: 'ocs.report.accepted', title: '你的报错已采纳', body: '不在推送里' }),
    );
  const [row] = await ctx.db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', me.uid)
    .orderBy('id', 'desc')
    .limit(1)
    .execute();
  const expected = {
    event: 'notification',
    data: { unread: 2, item: { id: row!.id, kind: 'ocs.report.accepted', title: '你的报错已采纳' } },
  };
  expect(await tab1.event(1)).toEqual(expected);
  expect(await tab2.event(1)).toEqual(expected);

  // The other user's stream hears its own notification next: nothing of mine came before it.
  await notify(ctx.db, other.uid, { kind: 'ums.failed', title: '他的' });
  expect(await theirs.event(1)).toMatchObject({ event: 'notification', data: { unread: 1, item: { title: '他的' } } });
  expect(theirs.events).toHaveLength(2);
  expect(tab1.events).toHaveLength(2);
});

test('a notification whose change rolls back reaches nobody', async () => {
  const me = await signedIn();
  const tab = await openStream(me.cookie);
  await tab.event(0);
  await rolledBack(ctx.db, (trx) => notify(trx, me.uid, { kind: 'ums.failed', title: '回滚了' }));
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '提交了' });
  expect(await tab.event(1)).toMatchObject({ event: 'notification', data: { unread: 1, item: { title: '提交了' } } });
  expect(tab.events).toHaveLength(2);
});

test('a kind its user turned off raises no event; the next one they receive does', async () => {
  const me = await signedIn();
  expect(
    (
      await me.client.request({
        method: 'PUT',
        url: '/api/notifications/preferences',
        payload: { enabled: { 'ums.failed': false } },
      })
    ).statusCode,
  ).toBe(200);
  const tab = await openStream(me.cookie);
  await tab.event(0);
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '已关闭的类型' });
  await notify(ctx.db, me.uid, { kind: 'user.new-browser', title: '仍在接收' });
  expect(await tab.event(1)).toMatchObject({ event: 'notification', data: { unread: 1, item: { title: '仍在接收' } } });
  expect(tab.events).toHaveLength(2);
});

test("administrators' notifications reach each administrator's stream", async () => {
  const admin = await signedIn(['admin']);
  const tab = await openStream(admin.cookie);
  await tab.event(0);
  await notifyAdmins(ctx.db, { kind: 'ocs.report.new', title: '有新的报错待审核' });
  expect(await tab.event(1)).toMatchObject({
    event: 'notification',
    data: { item: { kind: 'ocs.report.new', title: '有新的报错待审核' } },
  });
});

test('marking read in one tab tells the new count to the others', async () => {
  const me = await signedIn();
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '一' });
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '二' });
  const tab = await openStream(me.cookie);
  expect(await tab.event(0)).toEqual({ event: 'unread', data: { unread: 2 } });
  expect((await me.client.post('/api/notifications/read-all', {})).statusCode).toBe(200);
  expect(await tab.event(1)).toEqual({ event: 'unread', data: { unread: 0 } });
  // Nothing left to mark: nothing is told.
  await me.client.post('/api/notifications/read-all', {});
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '三' });
  expect(await tab.event(2)).toMatchObject({ event: 'notification', data: { unread: 1 } });
});

test('an anonymous caller or an unknown session is refused with the 401 envelope', async () => {
  for (const cookie of [undefined, 'portal_sid=not-a-session']) {
    const s = await openStream(cookie);
    await s.whenEnded();
    expect(s.status).toBe(401);
    expect(JSON.parse(s.body)).toMatchObject({ success: false, errorCode: 'UNAUTHORIZED' });
  }
});

test('a stream ends when its session signs out, and sends nothing after', async () => {
  const me = await signedIn();
  const tab = await openStream(me.cookie);
  await tab.event(0);
  expect((await me.client.post('/api/user/logout', {})).statusCode).toBe(200);
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '登出之后' });
  await tab.whenEnded();
  expect(tab.events).toHaveLength(1);
});

test('heartbeat comments keep an idle stream open, and a stream whose session ended elsewhere stops at the next one', async () => {
  const me = await signedIn();
  const tab = await openStream(me.cookie);
  await tab.until(() => tab.comments >= 1);
  // Signed out from another tab: no event for this user follows, only the heartbeat finds it.
  await ctx.app.inject({ method: 'POST', url: '/api/user/logout', headers: { cookie: me.cookie } });
  await tab.whenEnded();
  expect(tab.events).toHaveLength(1);
});

test('a connection the browser drops is forgotten', async () => {
  const before = await openStreams();
  const me = await signedIn();
  const tab = await openStream(me.cookie);
  await tab.event(0);
  expect(await openStreams()).toBe(before + 1);
  tab.close();
  for (let n = await openStreams(); n !== before; n = await openStreams()) {
    await new Promise((r) => setImmediate(r));
  }
  // Telling a user with no open stream does nothing (and fails nothing).
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '没人在看' });
  expect(await openStreams()).toBe(before);
});

test('a user keeps at most MAX_STREAMS_PER_USER streams on an instance: a newer one ends the oldest', async () => {
  const me = await signedIn();
  const first = await openStream(me.cookie);
  await first.event(0);
  const rest: Stream[] = [];
  for (let i = 1; i < MAX_STREAMS_PER_USER; i++) rest.push(await openStream(me.cookie));
  await Promise.all(rest.map((s) => s.event(0)));
  expect(first.ended).toBe(false);
  const newest = await openStream(me.cookie);
  await newest.event(0);
  await first.whenEnded();
  await notify(ctx.db, me.uid, { kind: 'ums.failed', title: '最新' });
  expect(await newest.event(1)).toMatchObject({ event: 'notification' });
  expect(await rest[0]!.event(1)).toMatchObject({ event: 'notification' });
});
