/**
 * Property-based robustness of every JSON endpoint of the contract. Requests are generated
 * from each descriptor's own zod schemas (./arbitraries.ts): shaped values that reach the handlers, and
 * hostile ones (wrong types, missing and extra keys, `__proto__`, NUL, lone surrogates, injection-looking
 * text, huge and negative numbers, deep nesting, 1 MB strings). Each endpoint is called as a plain user
 * and as an administrator (roles admin and njit), each with a session cookie and, for token routes, a
 * personal token. Every answer must:
 *
 * - never be a 5xx, and carry a status from the API's set (400 401 403 404 409 410 413 414 415 429 or 2xx);
 * - be the envelope: `{ success: false, errorCode, errorMessage }` for a refusal (with Retry-After on a
 *   429), `{ success: true, ... }` matching the descriptor's response schema for a JSON success; APIs
 *   whose shape another service fixed (the OCS script's, which always answers HTTP 200, and the
 *   ServerChan/PushPlus-compatible ones) answer in that shape instead; an endpoint without a JSON answer
 *   may redirect (with a Location);
 * - never show a stack frame, a source path, node_modules, a SQL error or a JS runtime error;
 * - on a 4xx, leave the database as it was: a fingerprint (row count and a sum of row hashes of every
 *   table) is compared before and after; what changes by design is left out (SKIPPED_* below);
 * - not answer 401 to a live session on a session route (401 makes the UI log the user out).
 *
 * Runs: PROPERTY_RUNS per endpoint and role (default 10; `npm run test:property` uses 300), and
 * PROPERTY_SEED to replay a failure (fast-check prints the seed and path of a failing run). Actors whose
 * session a generated request ended (logout, ending sessions, an administrator disabling or resetting
 * them, revoking their token) are recreated before the next request, so the rest of the run still tests.
 * Outgoing HTTP (AI providers, upstream banks, DingTalk webhooks the requests configure) fails at once, as
 * an unreachable host would, whether it goes through fetch or through node:http(s) (the outbound guard's
 * path): the run stays hermetic and fast, on a machine with internet or with a gateway that drops packets.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import * as contract from '../../src/contract';
import { allEndpoints } from '../../src/contract/api';
import { keyOf, type Endpoint, type Schemas } from '../../src/contract/endpoint';
import { credit } from '../../server/modules/ocs/wallet/balance';
import { createUser } from '../../server/modules/user/service';
import { createToken } from '../../server/modules/user/tokens';
import {
  arbitraryFor,
  encodeLoose,
  hostileJson,
  objectShape,
  RAW_PATH_PARAMS,
  RAW_QUERY_JUNK,
  toQueryString,
} from './arbitraries';
import { loggedInClient, startTestApp, uniqueName, type TestContext } from './helpers';
import { csv, importFile, PEOPLE } from './njit/fixtures';

const RUNS = Math.max(1, Number(process.env.PROPERTY_RUNS ?? 10));
/** PROPERTY_STATS=1 prints how each endpoint answered (to see that most requests reach the handlers). */
const STATS = process.env.PROPERTY_STATS === '1';
const stats = new Map<string, Map<number, number>>();
/**
 * A fixed seed by default, so a CI run is repeatable (the same requests every time); PROPERTY_SEED=<n>
 * replays a printed failure, PROPERTY_SEED=random explores new requests.
 */
const SEED =
  process.env.PROPERTY_SEED === 'random'
    ? undefined
    : process.env.PROPERTY_SEED
      ? Number(process.env.PROPERTY_SEED)
      : 20261125;
/** A role the endpoint refuses (a plain user on an admin route) is refused before any input is read. */
const REFUSED_RUNS = Math.max(2, Math.ceil(RUNS / 5));

// ---------- what is tested, and what is not ----------

/**
 * Endpoints left out, and why. Multipart uploads are left out as well (`e.multipart` below): their body is
 * a file, which the import, avatar and zip-guard tests feed hostile content.
 */
const EXCLUDED: Record<string, string> = {
  'GET /api/health': 'no input; answers 503 in its own shape when the database is down (health tests)',
  'GET /api/health/live': 'no input; a liveness probe',
  'GET /api/health/ready': 'no input; answers 503 by design here (no UI is built in tests), in its own shape',
  'OPTIONS /api/ocs/query': 'the CORS preflight: no input and no body',
  'GET /api/user/avatar/:id': 'a static image download',
  'GET /api/ocs/userscript.user.js': 'a static script download',
  // inject() resolves when an answer ends, and this one never does while its session holds
  'GET /api/notifications/stream':
    'an endless event stream with no input; read over real HTTP in tests/server/notifications-live.test.ts',
  // SSO: the browser's top-level navigations, answered by redirects (302), never JSON; their bad input
  // (forged state, replayed ticket or code, junk) is tested in tests/server/identity/{cas,oidc}.test.ts
  'GET /api/user/sso/:provider/login': 'a redirect to the identity server (302)',
  'GET /api/user/sso/:provider/link': 'a redirect to the identity server (302)',
  'GET /api/user/sso/cas/callback': 'a redirect onwards from CAS (302)',
  'GET /api/user/sso/oidc/callback': 'a redirect onwards from the OIDC provider (302)',
};

/** A contract schema by name, or undefined (the contract grows while this file stays). */
const named = (name: string) => (contract as unknown as Record<string, Schemas['body']>)[name];

/**
 * Routes that read their input themselves (query, form or JSON), so their descriptor has no input
 * schema: their input schema by path (any method, any token-carrying variant of the path).
 */
const SELF_PARSED: Record<string, string> = {
  '/api/ums/send': 'SendApiInput',
  '/api/ocs/query': 'OcsQueryInput',
  '/:sendkey.send': 'ServerChanInput',
  '/send': 'PushPlusInput',
  '/send/:token': 'PushPlusInput',
};

/**
 * Field values the server's own checks accept (the schema cannot say so), tried now and then so that
 * more requests get past them: a DingTalk webhook, OpenAI-style base URLs, a prompt template with its
 * required variable, the actors' password (a password change can succeed), a signing secret, ids of
 * rows that exist.
 */
const HINTS: Record<string, readonly unknown[]> = {
  webhook: ['https://oapi.dingtalk.com/robot/send?access_token=0123456789abcdef0123'],
  baseURL: ['https://api.example.com/v1', 'http://192.0.2.1/v1/'],
  // an OCS prompt with its required variable; the UMS message template every actor has
  template: ['题目：${title}\n${options}', 'T'],
  promptTemplate: [null, '请回答：${title}'],
  oldPassword: ['correct-horse-battery'],
  secret: ['', 'SEC0123456789abcdef0123456789abcdef'],
  sendAt: [Date.now() + 60_000, new Date(Date.now() + 3_600_000).toISOString()],
  // the default channel (another user's channel id is refused), and no second routing (a message takes
  // one of channel, channels and fallback); the seeded provider and model
  channel: [undefined],
  channels: [undefined],
  fallback: [undefined],
  providerId: [1],
  modelId: [1, null],
};

/**
 * Fields whose legitimate maximum is too expensive to send hundreds of times: a batch of up to 10,000
 * redeem codes would grow the database by millions of rows in a long run (and the fingerprint with it).
 * One over the maximum still comes among the hostile values; the full batch is tested in ocs/redeem.test.ts.
 */
const OVERRIDES: Record<string, fc.Arbitrary<unknown>> = {
  count: fc.integer({ min: 1, max: 20 }),
};

/**
 * Endpoints with a known bug the run would keep stopping at: left out until it is fixed (then delete the
 * entry). Each names the bug.
 */
const KNOWN_BUGS: Record<string, string> = {};

/** The OCS script's API: every answer is HTTP 200 in the script's shape, refusals included. */
const OCS_SCRIPT_API = new Set(['GET /api/ocs/query', 'POST /api/ocs/query']);

/**
 * The OCS subscription URL: the script imports whatever it answers as an array of wrappers, so a refusal
 * is such an array too (one entry naming the problem), with the refusal's status.
 */
const OCS_SUBSCRIPTION = 'GET /api/ocs/config';

/**
 * Endpoints whose answers, refusals included, have a shape fixed by another service: the OCS script's
 * API and subscription, and the drop-in compatible ones outside /api (ServerChan, PushPlus). Their
 * answers must match the descriptor's response schema whatever the status, instead of the envelope.
 */
const ownShape = (e: Endpoint) =>
  OCS_SCRIPT_API.has(keyOf(e)) || keyOf(e) === OCS_SUBSCRIPTION || !e.path.startsWith('/api/');

/** Tables not compared on a 4xx: refusals write to them by design. */
const SKIPPED_TABLES: Record<string, string> = {
  rate_limits: "rate-limiter-flexible's store (PostgreSQL runs): counting a request, refused or not, writes it",
  login_failures: 'a failed login (401) is recorded: the login throttle counts failures',
  ocs_redeem_failures: 'a wrong redeem code (4xx) is recorded: the guessing limit counts failures',
  // like hit counts (below), unanswered questions are gathered in memory and written by a 5-second timer
  // (ocs.miss-flush): a flush lands in whichever request is in flight
  ocs_misses: 'written by the ocs.miss-flush timer, from OCS queries answered before the request in flight',
  ocs_question_hits: 'hit counts are written by a 5-second timer (ocs.hit-flush), not by the request in flight',
};

/** Columns not compared: they change on any request, whatever it answers. */
const SKIPPED_COLUMNS: Record<string, string[]> = {
  // resolving a session slides its expiry every few minutes (the ensure step and every request)
  sessions: ['last_seen_at', 'expires_at'],
  // a verified token is stamped before the handler runs
  api_tokens: ['last_used_at', 'last_used_ip'],
};

/** Endpoints whose refusals write by design, and where. */
const WRITES_ON_REFUSAL: Record<string, string[]> = {
  // viewing a missing student (404) is audited like any lookup: it counts toward the per-minute limit,
  // and enumeration attempts show in the audit trail
  'GET /api/njit/students/:id': ['njit_audit'],
};

const ALLOWED_STATUS = new Set([200, 201, 204, 400, 401, 403, 404, 409, 410, 413, 414, 415, 429]);
/** Endpoints without a JSON answer (sign-in redirects to an identity server) may redirect. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What an answer must never show. */
const LEAK_MARKERS: [string, RegExp][] = [
  ['a stack frame', /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/|node:|\/)[^\s"')]*:\d+:\d+/],
  ['a source path', /\/(?:server|src|tests)\/[\w./-]+\.(?:ts|js|mjs|cjs)\b/],
  ['node_modules', /node_modules/],
  [
    'a SQL error',
    /syntax error at or near|relation "|violates|duplicate key value|invalid input syntax|column "[^"]*" (?:does not exist|of relation)|out of range for type|operator does not exist|current transaction is aborted|null value in column|unterminated quoted/i,
  ],
  ['a JS runtime error', /Cannot read propert|is not a function|is not defined|undefined is not|Maximum call stack/],
];

// ---------- the app, its actors and the database fingerprint ----------

let ctx: TestContext;
let fingerprintSql: string;
/** The fingerprint after the last request, and where the WAL ended just before it was taken. */
let baseline: { tables: Map<string, string>; wal: string } | null = null;
let realFetch: typeof fetch;
const realRequest = { http: http.request, https: https.request };

type Label = 'user' | 'admin';
interface Actor {
  label: Label;
  roles: contract.Role[];
  uid: number;
  cookie: string;
  token: string;
}
const actors = {} as Record<Label, Actor>;
/**
 * Whether a request since the actor was last checked may have changed it: any success may (a logout, an
 * administrator disabling the user); a refusal that wrote nothing cannot.
 */
const unchecked: Record<Label, boolean> = { user: true, admin: true };

/**
 * Actors sign in from an address of their own: the generated logins fail from 127.0.0.1 by the dozen,
 * and the per-address login throttle then (rightly) refuses every login from there for 15 minutes.
 */
const ACTOR_ADDRESS = '192.0.2.10';
const ACTOR_PASSWORD = HINTS.oldPassword[0] as string;

async function makeActor(label: Label): Promise<Actor> {
  const roles: contract.Role[] = label === 'admin' ? ['admin', 'njit'] : [];
  const username = uniqueName(`p${label}`);
  const { id: uid } = await createUser(ctx.db, { username, password: ACTOR_PASSWORD, roles });
  const login = await ctx.app.inject({
    method: 'POST',
    url: '/api/user/login',
    remoteAddress: ACTOR_ADDRESS,
    payload: { username, password: ACTOR_PASSWORD },
  });
  const sid = login.cookies.find((c) => c.name === 'portal_sid')?.value;
  if (login.statusCode !== 200 || !sid) throw new Error(`actor login: ${login.statusCode} ${login.body}`);
  const cookie = `portal_sid=${sid}`;
  const { token } = await createToken(ctx.db, uid, {
    name: 'property',
    scopes: ['ocs:query', 'ums:send'],
    expiresInDays: null,
  });
  await credit(ctx.db, uid, 'topup', 1_000_000, 'property test');
  const channel = await ctx.app.inject({
    method: 'POST',
    url: '/api/ums/channels',
    headers: { cookie },
    payload: {
      name: 'property',
      webhook: 'https://oapi.dingtalk.com/robot/send?access_token=0123456789abcdef0123',
      isDefault: true,
    },
  });
  if (channel.statusCode !== 200) throw new Error(`channel: ${channel.body}`);
  // A message template for sends to name (HINTS.template), so generated variables fill something.
  const template = await ctx.app.inject({
    method: 'POST',
    url: '/api/ums/templates',
    headers: { cookie },
    payload: { name: 'T', content: '{{host}}' },
  });
  if (template.statusCode !== 200) throw new Error(`template: ${template.body}`);
  baseline = null;
  return { label, roles, uid, cookie, token };
}

/** The actor, or a new one when a generated request ended its session, took its role or its token. */
async function ensureActor(label: Label): Promise<Actor> {
  const a = actors[label];
  if (!unchecked[label]) return a;
  unchecked[label] = false;
  const me = await ctx.app.inject({ method: 'GET', url: '/api/user/me', headers: { cookie: a.cookie } });
  let alive = me.statusCode === 200 && [...me.json().data.roles].sort().join() === [...a.roles].sort().join();
  if (alive) {
    try {
      await ctx.app.identity.verifyToken(a.token, undefined, '127.0.0.1');
    } catch {
      alive = false;
    }
  }
  if (!alive) actors[label] = await makeActor(label);
  return actors[label];
}

/**
 * One statement: per table, its row count and the sum of a hash of each row's text (over the compared
 * columns). About 4 ms here; a row's text is cheaper to hash than its jsonb.
 */
async function buildFingerprintSql(): Promise<string> {
  // The WAL shortcut (measured) only sees writes to tables that log them: no compared table may be unlogged.
  const unlogged = await sql<{ relname: string }>`
    select relname from pg_class
     where relkind = 'r' and relpersistence <> 'p' and relnamespace = current_schema()::regnamespace`.execute(ctx.db);
  const compared = unlogged.rows.map((r) => r.relname).filter((t) => !(t in SKIPPED_TABLES));
  if (compared.length > 0) throw new Error(`unlogged tables the fingerprint compares: ${compared.join(', ')}`);
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(ctx.db);
  const columns = new Map<string, string[]>();
  for (const r of rows) {
    if (r.table_name in SKIPPED_TABLES || SKIPPED_COLUMNS[r.table_name]?.includes(r.column_name)) continue;
    columns.set(r.table_name, [...(columns.get(r.table_name) ?? []), `x."${r.column_name}"`]);
  }
  return [...columns]
    .map(
      ([t, cols]) =>
        `select '${t}' as t, count(*)::text || ':' || coalesce(sum(hashtext(row(${cols.join(', ')})::text)::bigint), 0)::text as f from "${t}" x`,
    )
    .join('\nunion all\n');
}

async function fingerprint(): Promise<Map<string, string>> {
  const { rows } = await sql<{ t: string; f: string }>`${sql.raw(fingerprintSql)}`.execute(ctx.db);
  return new Map(rows.map((r) => [r.t, r.f]));
}

/** Where the WAL ends now: any statement that wrote to a logged table since moved it. */
async function walEnd(): Promise<string> {
  const { rows } = await sql<{ lsn: string }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(ctx.db);
  return rows[0]!.lsn;
}

/**
 * The fingerprint now, and the WAL position taken just before it. When the WAL has not moved since
 * `last` was taken, nothing was written, and `last` is still the fingerprint (most refusals: the
 * fingerprint took half of this test's time, ~2.6 ms per request). A read may move the WAL too
 * (page pruning), and then the fingerprint is taken again; on PostgreSQL the other test files' writes
 * move the cluster's WAL all the time, and it is always taken.
 */
async function fingerprintSince(last: { tables: Map<string, string>; wal: string } | null) {
  const wal = await walEnd();
  if (last && wal === last.wal) return last;
  return { tables: await fingerprint(), wal };
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([t, f]) => before.get(t) !== f).map(([t]) => t);
}

/** Outgoing HTTP fails at once, like an unreachable host. */
const unreachable = (async () => {
  throw new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 192.0.2.1:443'), { code: 'ECONNREFUSED' }),
  });
}) as typeof fetch;

/** A socket whose connection is refused at once (`createConnection` stands in for the agent's). */
function refusedSocket(): net.Socket {
  const socket = new net.Socket();
  process.nextTick(() =>
    socket.destroy(Object.assign(new Error('connect ECONNREFUSED 192.0.2.1:443'), { code: 'ECONNREFUSED' })),
  );
  return socket;
}

/** node:http(s) request whose every connection is refused at once. */
function unreachableRequest(real: typeof http.request): typeof http.request {
  return ((...args: unknown[]) => {
    const cb = typeof args[args.length - 1] === 'function' ? (args.pop() as () => void) : undefined;
    const options =
      args.length === 2 ? args[1] : typeof args[0] === 'object' && !(args[0] instanceof URL) ? args[0] : {};
    const refused = { ...(options as object), agent: undefined, createConnection: refusedSocket };
    const call =
      args.length === 2 || args[0] instanceof URL || typeof args[0] === 'string' ? [args[0], refused] : [refused];
    return (real as (...a: unknown[]) => http.ClientRequest)(...call, ...(cb ? [cb] : []));
  }) as typeof http.request;
}

beforeAll(async () => {
  realFetch = globalThis.fetch;
  globalThis.fetch = unreachable;
  http.request = unreachableRequest(realRequest.http);
  https.request = unreachableRequest(realRequest.https);
  ctx = await startTestApp();
  fingerprintSql = await buildFingerprintSql();

  // Rows for generated ids to land on: students, bank questions, an AI provider and model, a redeem batch.
  const seeder = (await loggedInClient(ctx, ['admin', 'njit'])).client;
  await importFile(seeder, csv(PEOPLE));
  const steps: [string, string, unknown][] = [
    ['POST', '/api/ocs/admin/bank/sample', undefined],
    ['POST', '/api/ocs/admin/providers', { name: 'stub', baseURL: 'http://192.0.2.1/v1', apiKey: 'sk-property' }],
    ['POST', '/api/ocs/admin/models', { providerId: 1, model: 'stub-model', displayName: 'Stub', price: 1 }],
    ['POST', '/api/ocs/admin/redeem-batches', { value: 5, count: 3, maxUses: 2 }],
  ];
  for (const [method, url, payload] of steps) {
    const res = await seeder.request({
      method: method as 'POST',
      url,
      ...(payload ? { payload: payload as object } : {}),
    });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  }
  actors.user = await makeActor('user');
  actors.admin = await makeActor('admin');
}, 60_000);

afterAll(async () => {
  if (STATS) {
    const lines = [...stats].map(
      ([k, byStatus]) =>
        `${k}: ${[...byStatus]
          .sort(([a], [b]) => a - b)
          .map(([st, n]) => `${st}×${n}`)
          .join(' ')}`,
    );
    console.log(lines.join('\n'));
  }
  globalThis.fetch = realFetch;
  http.request = realRequest.http;
  https.request = realRequest.https;
  await ctx?.close();
});

// ---------- requests ----------

type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string };

interface GeneratedRequest {
  params: Record<string, string>;
  query: string;
  body: Body;
  bearer: boolean;
}

const deepText = (n: number) => '['.repeat(n) + ']'.repeat(n);

/** Bodies no JSON encoder writes, or not JSON at all. */
const RAW_BODIES: { text: string; contentType: string }[] = [
  ...['{', '', 'null', '[]', '"x"', '0', '{"a":', '1e999', '\u0000', '\ufeff{}', '{"a":1,"a":2}'].map((text) => ({
    text,
    contentType: 'application/json',
  })),
  { text: '{"__proto__":{"admin":true,"roles":["admin"]}}', contentType: 'application/json' },
  { text: '{"constructor":{"prototype":{"admin":true}}}', contentType: 'application/json' },
  { text: '{"a":"\\ud800","b":"\\u0000"}', contentType: 'application/json' },
  { text: deepText(40), contentType: 'application/json' },
  { text: deepText(5000), contentType: 'application/json' },
  { text: '{}', contentType: 'text/plain' },
  { text: 'title=x&content=y', contentType: 'application/x-www-form-urlencoded' },
  { text: '{}', contentType: 'application/json; charset=utf-16' },
  { text: '<a/>', contentType: 'application/xml' },
];

const none: fc.Arbitrary<Body> = fc.constant({ kind: 'none' });
const rawBody: fc.Arbitrary<Body> = fc.constantFrom(...RAW_BODIES).map((b): Body => ({ kind: 'raw', ...b }));
const jsonOf = (arb: fc.Arbitrary<unknown>) => arb.map((value): Body => ({ kind: 'json', value }));

function schemasOf(e: Endpoint): Schemas {
  const s = e.schema(contract);
  const input = SELF_PARSED[e.path] ? named(SELF_PARSED[e.path]) : undefined;
  if (!input || s.query || s.body) return s;
  return e.method === 'GET' ? { ...s, query: input } : { ...s, body: input };
}

function paramsArbitrary(s: Schemas): fc.Arbitrary<Record<string, string>> {
  const shape = s.params ? objectShape(s.params) : null;
  if (!shape) return fc.constant({});
  const fields = Object.fromEntries(
    Object.entries(shape).map(([name, field]) => [
      name,
      fc.oneof(
        {
          weight: 4,
          arbitrary: arbitraryFor(field).map((v) =>
            encodeLoose(typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)),
          ),
        },
        { weight: 1, arbitrary: fc.constantFrom<string>(...RAW_PATH_PARAMS) },
      ),
    ]),
  );
  return fc.record(fields);
}

function requestArbitrary(e: Endpoint): fc.Arbitrary<GeneratedRequest> {
  const s = schemasOf(e);
  const query = fc
    .tuple(
      s.query
        ? arbitraryFor(s.query, { hints: HINTS, overrides: OVERRIDES }).map(toQueryString)
        : fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileJson.map(toQueryString) }),
      fc.option(fc.constantFrom<string>(...RAW_QUERY_JUNK), { freq: 8 }),
    )
    .map(([q, junk]) => [q, junk].filter(Boolean).join('&'));
  let body: fc.Arbitrary<Body> = none;
  if (s.body) {
    body = fc.oneof(
      { weight: 12, arbitrary: jsonOf(arbitraryFor(s.body, { hints: HINTS, overrides: OVERRIDES })) },
      { weight: 1, arbitrary: rawBody },
      { weight: 1, arbitrary: none },
    );
  } else if (e.method !== 'GET') {
    body = fc.oneof(
      { weight: 4, arbitrary: none },
      { weight: 1, arbitrary: jsonOf(hostileJson) },
      { weight: 1, arbitrary: rawBody },
    );
  }
  // for token routes the actor's token goes along 3 times in 4, so refusals of a missing token stay few
  return fc.record({
    params: paramsArbitrary(s),
    query,
    body,
    bearer: e.access === 'token' || e.access === 'ocs-token' ? fc.nat(3).map((n) => n > 0) : fc.constant(false),
  });
}

function urlOf(e: Endpoint, req: GeneratedRequest, actor: Actor): string {
  // a token carried in the path (`/<sendkey>.send`) is the actor's when the request sends its token
  const params = req.bearer && e.tokenParam ? { ...req.params, [e.tokenParam]: actor.token } : req.params;
  const path = e.path.replace(/:(\w+)/g, (_m, name: string) => params[name] ?? '1');
  return req.query ? `${path}?${req.query}` : path;
}

function payloadOf(body: Body): { payload?: string; contentType?: string } {
  if (body.kind === 'raw') return { payload: body.text, contentType: body.contentType };
  if (body.kind === 'json') {
    const text = JSON.stringify(body.value);
    return text === undefined ? {} : { payload: text, contentType: 'application/json' };
  }
  return {};
}

const excerpt = (s: string | undefined, n = 400) =>
  s === undefined ? '(none)' : s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s;

// ---------- the checks ----------

/**
 * A path parameter `..` or `%2e%2e` that fills a whole segment is a dot segment: the URL resolves to
 * another path, not this route (`/:sendkey.send` with `..` is `/...send`, still the route). So does an
 * empty last parameter, since routes answer with or without a trailing slash.
 */
const rerouted = (e: Endpoint, req: GeneratedRequest) =>
  Object.entries(req.params).some(
    ([name, v]) =>
      (/^(?:\.|%2e){1,2}$/i.test(v) && new RegExp(`(?:^|/):${name}(?:/|$)`).test(e.path)) ||
      // An empty last segment leaves a trailing slash, which every route ignores: `/x/:id` with '' is `/x`.
      (v === '' && e.path.endsWith(`/:${name}`)),
  );

function problemsOf(e: Endpoint, res: LightMyRequestResponse, sessionAlive: boolean, elsewhere: boolean): string[] {
  const key = keyOf(e);
  const problems: string[] = [];
  const status = res.statusCode;
  const s = schemasOf(e);
  const redirect = REDIRECTS.has(status) && !s.response;
  if (status >= 500) problems.push(`HTTP ${status}`);
  else if (!ALLOWED_STATUS.has(status) && !redirect) problems.push(`unexpected status ${status}`);
  if (redirect && !res.headers.location) problems.push(`HTTP ${status} without a Location`);
  const shown = `${res.body}\n${String(res.headers.location ?? '')}`;
  for (const [what, re] of LEAK_MARKERS) if (re.test(shown)) problems.push(`the answer shows ${what}`);
  if (redirect) return problems;
  // A dot segment took the request out of /api (`/send/%2e%2e` is `/`): what answers is the UI's, not an API.
  if (elsewhere && !e.path.startsWith('/api/')) return problems;
  // Another API route answered (an empty last parameter): its success is in that route's shape, not this one's.
  if (elsewhere && status < 400) return problems;
  const type = String(res.headers['content-type'] ?? '');
  let json: unknown;
  if (ownShape(e) || status >= 400 || s.response) {
    if (!type.startsWith('application/json')) problems.push(`content-type ${type || '(none)'}, not JSON`);
    try {
      json = JSON.parse(res.body);
    } catch {
      problems.push('the body is not JSON');
      return problems;
    }
  }
  // Fastify's router refuses a malformed path before any route (and its shape) is known: the envelope
  const routerRefusal =
    status >= 400 &&
    /^FST_ERR_(BAD_URL|MAX_PARAM_LENGTH)$/.test(String(json && (json as { errorCode?: unknown }).errorCode));
  if (ownShape(e) && !routerRefusal && !elsewhere) {
    if (OCS_SCRIPT_API.has(key) && status !== 200) problems.push(`the OCS script API answered HTTP ${status}`);
    if (s.response && !s.response.safeParse(json).success) problems.push('an answer not in the shape of its API');
    return problems;
  }
  if (status >= 400) {
    const envelope = contract.ErrorEnvelope.safeParse(json);
    if (!envelope.success) problems.push('a refusal without the error envelope');
    if (status === 429 && !res.headers['retry-after']) problems.push('429 without Retry-After');
    if (status === 401 && sessionAlive && ['user', 'admin', 'njit'].includes(e.access)) {
      problems.push('401 to a live session (the UI would log the user out)');
    }
  } else if (s.response) {
    const ok = s.response.safeParse(json);
    if (!ok.success) problems.push(`a success that does not match its response schema: ${ok.error.message}`);
  }
  return problems;
}

async function runOne(e: Endpoint, label: Label, req: GeneratedRequest): Promise<void> {
  const actor = await ensureActor(label);
  const before = await fingerprintSince(baseline);
  const url = urlOf(e, req, actor);
  const { payload, contentType } = payloadOf(req.body);
  const headers: Record<string, string> = { cookie: actor.cookie };
  if (contentType) headers['content-type'] = contentType;
  if (req.bearer) headers.authorization = `Bearer ${actor.token}`;
  const res = await ctx.app.inject({ method: e.method, url, headers, ...(payload !== undefined ? { payload } : {}) });
  const after = await fingerprintSince(before);
  baseline = after;

  if (STATS) {
    const byStatus = stats.get(`${label} ${keyOf(e)}`) ?? new Map<number, number>();
    byStatus.set(res.statusCode, (byStatus.get(res.statusCode) ?? 0) + 1);
    stats.set(`${label} ${keyOf(e)}`, byStatus);
  }
  const changed = changedTables(before.tables, after.tables);
  if (res.statusCode < 400 || changed.length > 0) unchecked.user = unchecked.admin = true;
  const problems = problemsOf(e, res, true, rerouted(e, req));
  if (res.statusCode >= 400 && res.statusCode < 500) {
    const allowed = WRITES_ON_REFUSAL[keyOf(e)] ?? [];
    const written = changed.filter((t) => !allowed.includes(t));
    if (written.length > 0) problems.push(`HTTP ${res.statusCode} but wrote to ${written.join(', ')}`);
  }
  if (problems.length > 0) {
    throw new Error(
      [
        `${e.method} ${excerpt(url, 300)} as ${label}`,
        `content-type: ${contentType ?? '(none)'}; bearer: ${req.bearer}`,
        `payload: ${excerpt(payload)}`,
        `→ HTTP ${res.statusCode}: ${excerpt(res.body)}`,
        ...problems.map((p) => `  - ${p}`),
      ].join('\n'),
    );
  }
}

// ---------- the properties ----------

const endpoints = allEndpoints()
  .map(([, e]) => e)
  .filter((e) => !e.multipart && !(keyOf(e) in EXCLUDED) && !(keyOf(e) in KNOWN_BUGS));

const refuses = (e: Endpoint, label: Label) => label === 'user' && (e.access === 'admin' || e.access === 'njit');

describe.each<Label>(['user', 'admin'])('as %s', (label) => {
  test.each(endpoints.map((e) => [keyOf(e), e] as const))(
    '%s',
    async (_key, e) => {
      const numRuns = refuses(e, label) ? REFUSED_RUNS : RUNS;
      await fc.assert(
        fc.asyncProperty(fc.limitShrink(requestArbitrary(e), 40), (req) => runOne(e, label, req)),
        { numRuns, ...(SEED !== undefined ? { seed: SEED } : {}) },
      );
    },
    Math.max(30_000, RUNS * 1000),
  );
  if (Object.keys(KNOWN_BUGS).length > 0) {
    test.skip.each(Object.entries(KNOWN_BUGS))('%s (known bug: %s)', () => undefined);
  }
});

test('outgoing HTTP fails at once, by fetch and by node:https alike', async () => {
  await expect(fetch('https://192.0.2.1/v1')).rejects.toThrow('fetch failed');
  // the outbound guard's path (server/lib/outbound.ts): https.request, not fetch
  const viaHttps = new Promise<string>((resolve) => {
    const req = https.request(new URL('https://192.0.2.1/v1'), { method: 'POST' }, () => resolve('answered'));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(String(err.code)));
    req.end();
  });
  await expect(viaHttps).resolves.toBe('ECONNREFUSED');
}, 10_000);

test('every endpoint left out is one of the contract (no stale exclusions)', () => {
  const keys = new Set(allEndpoints().map(([, e]) => keyOf(e)));
  expect([...Object.keys(EXCLUDED), ...Object.keys(KNOWN_BUGS)].filter((k) => !keys.has(k))).toEqual([]);
  expect(endpoints.length).toBeGreaterThan(0);
});

test('no request logged an unhandled error', () => {
  expect(ctx.logs.filter((l) => l.includes('"level":50')).map((l) => excerpt(l, 600))).toEqual([]);
});
