/**
 * Every /api/njit route with anonymous, logged-in-without-njit, admin-without-njit, njit and
 * njit+admin callers. A route added later without an entry here fails the coverage check.
 */
import { DEFAULT_FIELD_LEVELS, type Role } from '../../../src/contract';
import { Client, loggedInClient, multipart, startTestApp, type TestContext } from '../helpers';
import { csv, importFile, PEOPLE } from './fixtures';

let ctx: TestContext;
let studentId: number;

beforeAll(async () => {
  ctx = await startTestApp({ NJIT_STUDENT_RETENTION_DAYS: '365' });
  const { client } = await loggedInClient(ctx, ['njit', 'admin']);
  await importFile(client, csv(PEOPLE));
  studentId = (await ctx.db.selectFrom('njit_students').select('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await ctx.close();
});

interface RouteCase {
  route: string;
  /** Sends the request as this client; may prepare state first. */
  send(client: Client): Promise<{ statusCode: number }>;
  /** Status for a caller with njit only. */
  njit: number;
  /** Status for a caller with njit and admin. */
  both: number;
}

const upload = (client: Client) => {
  const body = multipart('file', 'a.csv', Buffer.from(csv(PEOPLE.slice(0, 1))));
  return client.request({ method: 'POST', url: '/api/njit/imports', payload: body.payload, headers: body.headers });
};

/** The id of a freshly staged import, or 'x' when the caller may not upload. */
const stagedId = async (client: Client) => {
  const up = await upload(client);
  return up.statusCode === 200
    ? (up as unknown as { json(): { data: { importId: string } } }).json().data.importId
    : 'x';
};

const CASES: RouteCase[] = [
  { route: 'GET /api/njit/students', send: (c) => c.get('/api/njit/students?name=zs'), njit: 200, both: 200 },
  { route: 'GET /api/njit/students/:id', send: (c) => c.get(`/api/njit/students/${studentId}`), njit: 200, both: 200 },
  {
    route: 'POST /api/njit/students/:id/reveal',
    send: (c) => c.post(`/api/njit/students/${studentId}/reveal`, { field: 'phone', reason: '核实身份' }),
    njit: 403,
    both: 200,
  },
  {
    route: 'PATCH /api/njit/students/:id',
    send: (c) =>
      c.request({ method: 'PATCH', url: `/api/njit/students/${studentId}`, payload: { dormitory: '东区9栋909' } }),
    njit: 403,
    both: 200,
  },
  { route: 'GET /api/njit/search', send: (c) => c.get('/api/njit/search?q=zs'), njit: 200, both: 200 },
  { route: 'GET /api/njit/options', send: (c) => c.get('/api/njit/options'), njit: 200, both: 200 },
  { route: 'GET /api/njit/overview', send: (c) => c.get('/api/njit/overview'), njit: 200, both: 200 },
  { route: 'POST /api/njit/imports', send: upload, njit: 403, both: 200 },
  {
    route: 'POST /api/njit/imports/:id/commit',
    send: async (c) => c.post(`/api/njit/imports/${await stagedId(c)}/commit`, {}),
    njit: 403,
    both: 200,
  },
  {
    route: 'GET /api/njit/imports/template',
    send: (c) => c.get('/api/njit/imports/template?format=csv'),
    njit: 200,
    both: 200,
  },
  // Four-eyes reveals are off here (NJIT_REVEAL_APPROVAL empty): an administrator's request is a 400,
  // and there is no request to decide or see.
  {
    route: 'POST /api/njit/students/:id/reveal-requests',
    send: (c) => c.post(`/api/njit/students/${studentId}/reveal-requests`, { field: 'idCard', reason: '核实身份' }),
    njit: 403,
    both: 400,
  },
  {
    route: 'GET /api/njit/reveal-requests',
    send: (c) => c.get('/api/njit/reveal-requests?scope=pending'),
    njit: 403,
    both: 200,
  },
  {
    route: 'POST /api/njit/reveal-requests/:id/decision',
    send: (c) => c.post('/api/njit/reveal-requests/1/decision', { decision: 'approve' }),
    njit: 403,
    both: 404,
  },
  {
    route: 'POST /api/njit/reveal-requests/:id/reveal',
    send: (c) => c.post('/api/njit/reveal-requests/1/reveal', {}),
    njit: 403,
    both: 404,
  },
  {
    route: 'GET /api/njit/imports/:id/diff',
    send: async (c) => c.get(`/api/njit/imports/${await stagedId(c)}/diff?kind=changed`),
    njit: 403,
    both: 200,
  },
  { route: 'GET /api/njit/imports', send: (c) => c.get('/api/njit/imports'), njit: 403, both: 200 },
  {
    route: 'GET /api/njit/retention',
    send: (c) => c.get('/api/njit/retention?withinDays=30'),
    njit: 403,
    both: 200,
  },
  {
    route: 'POST /api/njit/retention/purge',
    send: (c) => c.post('/api/njit/retention/purge', { cutoff: '2020-01-01T00:00:00Z' }),
    njit: 403,
    both: 200,
  },
  { route: 'GET /api/njit/audit', send: (c) => c.get('/api/njit/audit'), njit: 403, both: 200 },
  { route: 'GET /api/njit/audit/export', send: (c) => c.get('/api/njit/audit/export'), njit: 403, both: 200 },
  // The field policy: administrators with njit; a caller's own fields: anyone with an NJIT role.
  { route: 'GET /api/njit/policy', send: (c) => c.get('/api/njit/policy'), njit: 403, both: 200 },
  {
    route: 'PUT /api/njit/policy',
    send: (c) =>
      c.request({
        method: 'PUT',
        url: '/api/njit/policy',
        payload: { roles: [{ role: 'njit', fields: DEFAULT_FIELD_LEVELS }] },
      }),
    njit: 403,
    both: 200,
  },
  {
    route: 'GET /api/njit/policy/preview',
    send: (c) => c.get('/api/njit/policy/preview?role=njit&studentNo=202101010001'),
    njit: 403,
    both: 200,
  },
  { route: 'GET /api/njit/policy/mine', send: (c) => c.get('/api/njit/policy/mine'), njit: 200, both: 200 },
  { route: 'GET /api/njit/scopes', send: (c) => c.get('/api/njit/scopes'), njit: 403, both: 200 },
  {
    route: 'PUT /api/njit/scopes/:userId',
    send: (c) => c.request({ method: 'PUT', url: '/api/njit/scopes/999999', payload: { colleges: [], classes: [] } }),
    njit: 403,
    both: 404,
  },
];

it('covers every /api/njit route, and every one requires role njit', () => {
  const njitRoutes = ctx.app.routeAccess.filter((r) => r.url.startsWith('/api/njit'));
  expect(njitRoutes.map((r) => `${r.method} ${r.url}`).sort()).toEqual(CASES.map((c) => c.route).sort());
  for (const r of njitRoutes) expect(r.auth).toBe('njit');
});

const CALLERS: { who: string; roles: Role[] | null; expect(c: RouteCase): number }[] = [
  { who: 'anonymous', roles: null, expect: () => 401 },
  { who: 'logged in without njit', roles: [], expect: () => 403 },
  { who: 'admin without njit', roles: ['admin'], expect: () => 403 },
  { who: 'njit', roles: ['njit'], expect: (c) => c.njit },
  { who: 'njit + admin', roles: ['njit', 'admin'], expect: (c) => c.both },
];

describe.each(CALLERS)('$who', ({ roles, expect: expected }) => {
  it.each(CASES.map((c) => [c.route, c] as const))('%s', async (_route, c) => {
    const client = roles === null ? new Client(ctx.app) : (await loggedInClient(ctx, roles)).client;
    const res = await c.send(client);
    expect({ route: c.route, status: res.statusCode }).toEqual({ route: c.route, status: expected(c) });
  });
});
