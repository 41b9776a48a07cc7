/**
 * An oversized body over a real socket: every route answers it with a readable 413 envelope, never a
 * closed connection (which inject() cannot show: it has no socket). The client writes its whole body
 * as curl or Node's http client do, and only then reads the answer.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { allEndpoints } from '../../src/contract/api';
import { pathOf } from '../../src/contract/endpoint';
import { DRAIN_MAX_BYTES } from '../../server/plugins/errors';
import { loggedInClient, startTestApp, type TestContext } from './helpers';

let ctx: TestContext;
let port: number;
let cookie: string;
beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
  ctx.app.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const probe = req.headers['x-probe'];
    if (typeof probe === 'string') serverSide.get(probe)?.(req, res);
  });
  const { client } = await loggedInClient(ctx, ['admin', 'njit']);
  cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
});
afterAll(async () => {
  await ctx.close();
});

interface Answer {
  status?: number;
  body?: string;
  error?: string;
}

/** The server's side of each probe request, by its x-probe header. */
const serverSide = new Map<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>();
let probes = 0;

/**
 * A client on a slow link: it sends the request head, and the body only once the server has decided
 * what to do with it (answered, or started reading the body); it reads the answer once it has sent
 * everything, as curl and Node's http client do. Whether the answer arrives then does not depend on
 * how fast either side is.
 */
async function send(method: string, path: string, contentType: string, payload: Buffer): Promise<Answer> {
  const id = String((probes += 1));
  const seen = new Promise<[http.IncomingMessage, http.ServerResponse]>((resolve) =>
    serverSide.set(id, (req, res) => resolve([req, res])),
  );
  const socket = net.connect(port, '127.0.0.1');
  socket.pause();
  let error: string | undefined;
  socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${contentType}\r\n` +
      `Content-Length: ${payload.length}\r\nOrigin: http://127.0.0.1:${port}\r\nCookie: ${cookie}\r\n` +
      `X-Probe: ${id}\r\nConnection: close\r\n\r\n`,
  );
  const [req, res] = await seen;
  serverSide.delete(id);
  while (!res.writableFinished && !req.readableFlowing) await new Promise((r) => setImmediate(r));
  // 64 KiB at a time, waiting whenever the socket is full.
  for (let offset = 0; offset < payload.length && !error && !socket.destroyed; offset += 64 * 1024) {
    if (!socket.write(payload.subarray(offset, offset + 64 * 1024)))
      await new Promise((r) => socket.once('drain', r).once('close', r));
  }
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.resume();
  await new Promise((r) => (socket.destroyed ? r(null) : socket.once('close', r)));
  const text = Buffer.concat(chunks).toString('utf8');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
  if (!status) return { error: error ?? 'no answer' };
  return { status: Number(status), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

const MB = 1024 * 1024;

test('a 6 MB JSON body gets a 413 envelope in Chinese on every route that takes a body (the scripts’ routes in their own shape)', async () => {
  const wrong: string[] = [];
  for (const [name, e] of allEndpoints()) {
    if (e.method === 'GET') continue;
    const path = pathOf(e, Object.fromEntries([...e.path.matchAll(/:(\w+)/g)].map((m) => [m[1], '1'])));
    const answer = await send(e.method, path, 'application/json', Buffer.alloc(6 * MB, 0x20));
    const envelope = answer.body?.startsWith('{') ? (JSON.parse(answer.body) as Record<string, unknown>) : {};
    const readable =
      e.access === 'ocs-token' && e.method !== 'OPTIONS'
        ? // The OCS script's fixed shape: HTTP 200, code 0 and the reason.
          answer.status === 200 && envelope.code === 0 && envelope.msg === '请求体过大'
        : !e.path.startsWith('/api')
          ? // ServerChan's and PushPlus's own shapes, for scripts written for them.
            answer.status === 413 && /请求体过大/.test(answer.body ?? '')
          : answer.status === 413 &&
            envelope.success === false &&
            typeof envelope.errorCode === 'string' &&
            /[\u4e00-\u9fff]/.test(String(envelope.errorMessage));
    if (!readable) wrong.push(`${name} ${e.method} ${path}: ${answer.error ?? `${answer.status} ${answer.body}`}`);
  }
  expect(wrong).toEqual([]);
});

test('the drop-in send endpoints and a 404 answer an oversized form or JSON body with a readable answer', async () => {
  const wrong: string[] = [];
  for (const path of ['/send', '/SCT1.send', '/api/ums/send', '/api/nowhere', '/nowhere']) {
    for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
      const answer = await send('POST', path, type, Buffer.alloc(6 * MB, 0x20));
      if (answer.status !== 413) wrong.push(`${path} ${type}: ${answer.error ?? `${answer.status} ${answer.body}`}`);
    }
  }
  expect(wrong).toEqual([]);
});

test('an upload over its route’s limit is a 413 envelope naming the limit', async () => {
  const boundary = 'portalbodylimit';
  const file = (size: number, name: string) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
          `Content-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.alloc(size, 0x61),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  const type = `multipart/form-data; boundary=${boundary}`;
  const wrong: string[] = [];
  for (const [path, size] of [
    ['/api/user/avatar', 6 * MB],
    ['/api/njit/imports', 21 * MB],
    ['/api/ocs/admin/bank/imports', 51 * MB],
  ] as const) {
    const answer = await send('POST', path, type, file(size, 'big.xlsx'));
    const envelope = answer.body?.startsWith('{') ? (JSON.parse(answer.body) as Record<string, unknown>) : {};
    if (answer.status !== 413 || envelope.success !== false || !/MB/.test(String(envelope.errorMessage)))
      wrong.push(`${path}: ${answer.error ?? `${answer.status} ${answer.body}`}`);
  }
  expect(wrong).toEqual([]);
});

test('the connection stays usable after a drained 413 (keep-alive)', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const ask = (size: number) =>
    new Promise<[number, boolean]>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/user/login',
          agent,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve([res.statusCode!, req.reusedSocket]));
        },
      );
      req.on('error', reject);
      req.end(size ? Buffer.alloc(size, 0x20) : JSON.stringify({ username: 'nobody', password: 'x' }));
    });
  try {
    expect(await ask(2 * MB)).toEqual([413, false]);
    expect(await ask(0)).toEqual([401, true]); // a wrong password, on the same connection
  } finally {
    agent.destroy();
  }
});

test('a body declared larger than the server ever drains is answered at once, and its connection closed', async () => {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  socket.write(
    `POST /api/user/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${DRAIN_MAX_BYTES + 1}\r\n\r\n`,
  );
  await new Promise((r) => socket.once('close', r));
  const text = Buffer.concat(chunks).toString('utf8');
  expect(text).toMatch(/^HTTP\/1\.1 413 /);
  expect(text).toMatch(/connection: close/i);
  expect(text).toContain('请求体过大');
});
