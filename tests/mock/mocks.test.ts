/**
 * Every umi dev mock answers with the same shapes the server promises (src/contract).
 * A mock route without an entry in CASES fails this test.
 */
import fs from 'fs';
import path from 'path';
import type { z } from 'zod';
import { AuthSettings, ErrorEnvelope, Health, LoginResponse, LogoutResponse, MeResponse, RegisterResponse } from '@/contract';

interface Case {
  schema: z.ZodTypeAny;
  /** Requests to replay, in order, with the status each must get. */
  calls: { body?: unknown; status: number; error?: boolean; retryAfter?: boolean }[];
}

const CASES: Record<string, Case> = {
  'GET /api/user/me': { schema: MeResponse, calls: [{ status: 200 }] },
  'POST /api/user/login': {
    schema: LoginResponse,
    calls: [
      { body: { username: 'admin', password: 'admin123456' }, status: 200 },
      { body: { username: 'admin', password: 'wrong' }, status: 401, error: true },
      { body: { username: '' }, status: 400, error: true },
    ],
  },
  'POST /api/user/register': {
    schema: RegisterResponse,
    calls: [
      { body: { username: 'admin', password: 'password123' }, status: 409, error: true },
      { body: { username: 'a b', password: 'password123' }, status: 400, error: true },
      { body: { username: 'newbie', password: 'password123', nickname: '新人' }, status: 200 },
    ],
  },
  'POST /api/user/logout': { schema: LogoutResponse, calls: [{ status: 200 }] },
  'GET /api/user/settings': { schema: AuthSettings, calls: [{ status: 200 }] },
  'GET /api/health': { schema: Health, calls: [{ status: 200 }] },
};

function fakeRes() {
  const res = {
    statusCode: 200,
    headers: {} as Record<string, string>,
    body: undefined as unknown,
    status(code: number) {
      res.statusCode = code;
      return res;
    },
    setHeader(name: string, value: string) {
      res.headers[name.toLowerCase()] = value;
    },
    json(body: unknown) {
      res.body = body;
    },
  };
  return res;
}

type Handler = (req: { body?: unknown; query: object; headers: object }, res: ReturnType<typeof fakeRes>) => void;

const mockDir = path.join(__dirname, '../../mock');
const handlers: Record<string, Handler> = {};
for (const file of fs.readdirSync(mockDir).filter((f) => /\.[jt]s$/.test(f))) {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  Object.assign(handlers, require(path.join(mockDir, file)).default);
}

function call(route: string, body?: unknown) {
  const res = fakeRes();
  (handlers[route] as Handler)({ body, query: {}, headers: {} }, res);
  return res;
}

describe('umi mocks match the contract', () => {
  it('every mock route has a schema mapping', () => {
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(Object.entries(CASES))('%s', (route, { schema, calls }) => {
    for (const c of calls) {
      const res = call(route, c.body);
      expect(res.statusCode).toBe(c.status);
      const parsed = (c.error ? ErrorEnvelope : schema).safeParse(res.body);
      if (!parsed.success) throw new Error(`${route} ${JSON.stringify(res.body)}: ${parsed.error.message}`);
    }
  });

  it('logout ends the mock session: /me then answers 401 with an error envelope', () => {
    call('POST /api/user/logout');
    const me = call('GET /api/user/me');
    expect(me.statusCode).toBe(401);
    expect(ErrorEnvelope.parse(me.body).errorMessage).toBe('请先登录');
    call('POST /api/user/login', { username: 'admin', password: 'admin123456' });
    expect(MeResponse.parse(call('GET /api/user/me').body).data.username).toBe('admin');
  });

  it('throttles repeated failed logins with 429 and Retry-After', () => {
    let res = call('POST /api/user/login', { username: 'admin', password: 'bad' });
    for (let i = 0; i < 6 && res.statusCode !== 429; i++) res = call('POST /api/user/login', { username: 'admin', password: 'bad' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('900');
    expect(ErrorEnvelope.parse(res.body).errorMessage).toMatch(/次数过多/);
  });
});
