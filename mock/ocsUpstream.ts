/**
 * Dev mocks of the OCS upstream banks (`npm run dev`), typed by src/contract/ocsUpstream.ts: two
 * upstreams (one healthy, one whose breaker is open), create / change / delete with the name unique and
 * the secret write-only, and a test call that answers from a tiny table. tests/mock validates them.
 */
import { UpstreamBody, UpstreamPatchBody, UpstreamTestBody, type Upstream } from '../src/contract';
import * as api from '../src/contract/api/ocsUpstream';
import { defineMocks, on } from './_lib/endpoint';
import { fail, parse } from './_lib/http';

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const stats = (over: Partial<Upstream['stats']> = {}): Upstream['stats'] => ({
  calls: 0,
  answered: 0,
  notFound: 0,
  failures: 0,
  successRate: null,
  answerRate: null,
  avgLatencyMs: null,
  lastLatencyMs: null,
  lastError: null,
  lastErrorAt: null,
  lastOkAt: null,
  budgetUsedToday: 0,
  ...over,
});

let upstreams: Upstream[] = [
  {
    id: 1,
    name: 'tiku-adapter',
    enabled: true,
    position: 0,
    url: 'https://tiku.example.com/adapter-service/search',
    method: 'post',
    bodyType: 'json',
    headers: { Authorization: 'Bearer ${secret}' },
    data: { question: '${title}', type: '${type}', options: '${options}' },
    answerPath: '$.answer.allAnswer[0]',
    secretMasked: 'tk-3…9f2a',
    timeoutMs: 5000,
    price: 1,
    dailyBudget: 5000,
    breakerThreshold: 5,
    breakerCooldownSeconds: 30,
    stats: stats({
      calls: 1200,
      answered: 870,
      notFound: 300,
      failures: 30,
      successRate: 0.975,
      answerRate: 0.725,
      avgLatencyMs: 420,
      lastLatencyMs: 380,
      lastError: '超时（5000 毫秒）',
      lastErrorAt: ago(240),
      lastOkAt: ago(2),
      budgetUsedToday: 312,
    }),
    breaker: { state: 'closed', consecutiveFailures: 0, openUntil: null },
    createdAt: ago(20_000),
    updatedAt: ago(3_000),
  },
  {
    id: 2,
    name: '备用题库',
    enabled: true,
    position: 1,
    url: 'http://backup.example.net/api/query',
    method: 'get',
    bodyType: 'json',
    headers: {},
    data: { title: '${title}', token: '${secret}' },
    answerPath: '$.data.answer',
    secretMasked: null,
    timeoutMs: 3000,
    price: 2,
    dailyBudget: null,
    breakerThreshold: 3,
    breakerCooldownSeconds: 60,
    stats: stats({
      calls: 40,
      answered: 10,
      notFound: 5,
      failures: 25,
      successRate: 0.375,
      answerRate: 0.25,
      avgLatencyMs: 2900,
      lastLatencyMs: 3000,
      lastError: 'HTTP 502',
      lastErrorAt: ago(1),
      lastOkAt: ago(600),
      budgetUsedToday: 12,
    }),
    breaker: { state: 'open', consecutiveFailures: 3, openUntil: new Date(Date.now() + 45_000).toISOString() },
    createdAt: ago(9_000),
    updatedAt: ago(900),
  },
];

const mask = (s: string) => (s.length <= 8 ? '…' : `${s.slice(0, 4)}…${s.slice(-4)}`);

export default defineMocks(
  on(api.listUpstreams, (_req, res) => {
    res.json({ success: true, data: [...upstreams].sort((a, b) => a.position - b.position || a.id - b.id) });
  }),
  on(api.createUpstream, (req, res) => {
    const b = parse(UpstreamBody, req.body, res);
    if (!b) return;
    if (upstreams.some((u) => u.name === b.name)) {
      return fail(res, 409, 'CONFLICT', '已有同名的上游题库', { name: ['名称已被使用'] });
    }
    const { secret, ...rest } = b;
    const u: Upstream = {
      ...rest,
      id: Math.max(0, ...upstreams.map((x) => x.id)) + 1,
      secretMasked: secret ? mask(secret) : null,
      stats: stats(),
      breaker: { state: 'closed', consecutiveFailures: 0, openUntil: null },
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    };
    upstreams = [...upstreams, u];
    res.json({ success: true, data: u });
  }),
  on(api.updateUpstream, (req, res) => {
    const id = Number(req.params?.id);
    const b = parse(UpstreamPatchBody, req.body, res);
    if (!b) return;
    const u = upstreams.find((x) => x.id === id);
    if (!u) return fail(res, 404, 'NOT_FOUND', '上游题库不存在');
    if (b.name && upstreams.some((x) => x.name === b.name && x.id !== id)) {
      return fail(res, 409, 'CONFLICT', '已有同名的上游题库', { name: ['名称已被使用'] });
    }
    const { secret, ...rest } = b;
    const updated: Upstream = {
      ...u,
      ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
      ...(secret !== undefined ? { secretMasked: secret ? mask(secret) : null } : {}),
      updatedAt: new Date().toISOString(),
    };
    upstreams = upstreams.map((x) => (x.id === id ? updated : x));
    res.json({ success: true, data: updated });
  }),
  on(api.deleteUpstream, (req, res) => {
    const id = Number(req.params?.id);
    if (!upstreams.some((x) => x.id === id)) return fail(res, 404, 'NOT_FOUND', '上游题库不存在');
    upstreams = upstreams.filter((x) => x.id !== id);
    res.json({ success: true });
  }),
  on(api.testUpstream, (req, res) => {
    const id = Number(req.params?.id);
    const b = parse(UpstreamTestBody, req.body, res);
    if (!b) return;
    const u = upstreams.find((x) => x.id === id);
    if (!u) return fail(res, 404, 'NOT_FOUND', '上游题库不存在');
    if (u.breaker.state === 'open') {
      return res.json({
        success: true,
        data: {
          outcome: 'failed',
          answer: null,
          error: 'HTTP 502',
          status: 502,
          latencyMs: 31,
          body: '<html>Bad Gateway</html>',
        },
      });
    }
    const first = b.options.split('\n').find((o) => o.trim());
    res.json({
      success: true,
      data: first
        ? {
            outcome: 'answered',
            answer: first.replace(/^[A-Z][.、]\s*/, ''),
            error: null,
            status: 200,
            latencyMs: 120,
            body: JSON.stringify({ code: 1, data: { answer: first } }),
          }
        : {
            outcome: 'not_found',
            answer: null,
            error: null,
            status: 200,
            latencyMs: 90,
            body: '{"code":0,"msg":"未找到"}',
          },
    });
  }),
);
