/**
 * Dev mocks of the portal side of OCS (`npm run dev`), typed by src/contract/ocs.ts: 30 days of a
 * student's queries and the ledger they produced, the overview computed from them, the ask form, and
 * reporting a wrong answer (src/contract/ocsReview.ts, the user's side).
 * Ask: titles from the small bank below hit it, titles containing 找不到 miss, anything else gets an
 * "AI" answer; the same title within 10 minutes is a free cache hit; more than 5 asks in 10 s get 429.
 * Reports: once per answered query (409 again, 400 for an unanswered one, 404 for an unknown id).
 * tests/mock validates every answer.
 */
import {
  AskBody,
  LedgerQuery,
  OcsReportBody,
  QueryIdParams,
  QueryListQuery,
  type LedgerItem,
  type LedgerKind,
  type OcsMyReport,
  type OcsOutcome,
  type QueryLogItem,
  toOcsAnswer,
} from '../src/contract';
import * as ocsApi from '../src/contract/api/ocs';
import * as reviewApi from '../src/contract/api/ocsReview';
import { defineMocks, on } from './_lib/endpoint';
import { fail, parse, type Req, type Res } from './_lib/http';
import { importJobCounts } from './ocsAdmin';
import { openReviewWork } from './ocsReview';

const PRICE = 1;
const DAY = 86_400_000;
const DAY_FORMAT = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' });
const dayOf = (ms: number) => DAY_FORMAT.format(new Date(ms));

const BANK: { title: string; type: string; answer: string[] }[] = [
  { title: '中华人民共和国的首都是哪座城市？', type: 'single', answer: ['北京'] },
  { title: '马克思主义中国化的第一个重大理论成果是', type: 'single', answer: ['毛泽东思想'] },
  { title: '下列属于可再生能源的有', type: 'multiple', answer: ['太阳能', '风能', '水能'] },
  { title: '光在真空中的传播速度约为每秒 30 万千米。', type: 'judgement', answer: ['正确'] },
  { title: '《史记》的作者是____。', type: 'completion', answer: ['司马迁'] },
];
const AI_TITLES = ['简述供给侧结构性改革的主要任务', '细胞膜的主要成分是', 'TCP 三次握手的第二步发送的报文是'];
const MISS_TITLES = ['第三章课后习题 7（图片题）', '根据材料回答下列问题（材料见附件）'];

let balance = 0;
const ledger: LedgerItem[] = [];
const queries: QueryLogItem[] = [];
let asks: number[] = [];
const reports = new Map<number, OcsMyReport>();

function book(kind: LedgerKind, amount: number, memo: string, at: number, queryId: number | null = null) {
  balance += amount;
  ledger.unshift({
    id: ledger.length + 1,
    kind,
    queryId,
    amount,
    balanceAfter: balance,
    memo,
    createdAt: new Date(at).toISOString(),
  });
}

/** Logs a query and charges for it as the server does: cache hits are free, an empty wallet answers nothing. */
function record(
  title: string,
  type: string,
  found: { answer: string[]; source: 'bank' | 'ai' } | null,
  at: number,
): QueryLogItem {
  const cached =
    found && queries.some((q) => q.title === title && q.cost > 0 && at - Date.parse(q.createdAt) < 10 * 60_000);
  let outcome: OcsOutcome = found ? (cached ? 'cache' : found.source) : 'miss';
  if (found && !cached && balance < PRICE) outcome = 'no_balance';
  const cost = outcome === 'bank' || outcome === 'ai' ? PRICE : 0;
  const id = queries.length + 1;
  if (cost) book('charge', -cost, title.slice(0, 200), at, id);
  const message =
    outcome === 'miss' ? '题库和 AI 都没有找到答案' : outcome === 'no_balance' ? '余额不足，请先领取或兑换积分' : null;
  const answered = outcome !== 'miss' && outcome !== 'no_balance';
  const q: QueryLogItem = {
    id,
    title,
    type,
    outcome,
    answer: answered ? found!.answer : null,
    cost,
    message,
    source: answered ? (found!.source === 'bank' ? 'import' : 'ai') : null,
    confidence: answered ? (found!.source === 'bank' ? 0.95 : 0.7) : null,
    report: null,
    createdAt: new Date(at).toISOString(),
  };
  queries.unshift(q);
  return q;
}

function seed() {
  const start = Date.now() - 29 * DAY;
  book('redeem', 100, '兑换码 OCS-8F2K-Q7WM', start - DAY);
  for (let d = 0; d < 30; d++) {
    const base = start + d * DAY - 8 * 3600_000;
    if (d % 2 === 0) book('free', 10, '每日免费领取', base);
    if (d === 17) book('adjust', 20, '管理员补偿：AI 服务中断', base + 60_000);
    const n = d === 29 ? 6 : (d * 7) % 9;
    for (let i = 0; i < n; i++) {
      const at = Math.min(base + (i + 1) * 11 * 60_000, Date.now() - (n - i) * 60_000);
      const k = (d + i) % 7;
      if (k < 4)
        record(
          BANK[(d + i) % BANK.length].title,
          BANK[(d + i) % BANK.length].type,
          { ...BANK[(d + i) % BANK.length], source: 'bank' },
          at,
        );
      else if (k < 6)
        record(AI_TITLES[(d + i) % AI_TITLES.length], 'single', { answer: ['AI 参考答案'], source: 'ai' }, at);
      else record(MISS_TITLES[(d + i) % MISS_TITLES.length], 'completion', null, at);
    }
    if (d === 24) book('refund', 1, 'AI 作答失败，退还扣费', base + 5 * 3600_000);
  }
}
seed();

function pageOf<T>(rows: T[], q: { current: number; pageSize: number }) {
  return {
    success: true as const,
    data: rows.slice((q.current - 1) * q.pageSize, q.current * q.pageSize),
    total: rows.length,
    current: q.current,
    pageSize: q.pageSize,
  };
}

function filteredLedger(req: Req, res: Res) {
  const raw = req.query ?? {};
  const q = parse(LedgerQuery, raw, res);
  if (!q) return undefined;
  const kinds = q.kind === undefined ? [] : ([] as LedgerKind[]).concat(q.kind);
  const rows = ledger.filter((l) => {
    const day = dayOf(Date.parse(l.createdAt));
    return (!kinds.length || kinds.includes(l.kind)) && (!q.from || day >= q.from) && (!q.to || day <= q.to);
  });
  return { q, rows };
}

const csvCell = (v: string | number) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

export default defineMocks(
  on(ocsApi.overview, (_req, res) => {
    const today = dayOf(Date.now());
    const ofToday = queries.filter((q) => dayOf(Date.parse(q.createdAt)) === today);
    const answered = ofToday.filter((q) => ['bank', 'ai', 'cache'].includes(q.outcome)).length;
    const daily = Array.from({ length: 30 }, (_, i) => {
      const day = dayOf(Date.now() - (29 - i) * DAY);
      const of = queries.filter((q) => dayOf(Date.parse(q.createdAt)) === day);
      const count = (...o: OcsOutcome[]) => of.filter((q) => o.includes(q.outcome)).length;
      return { day, bank: count('bank', 'cache'), ai: count('ai'), miss: count('miss') };
    });
    res.json({
      success: true,
      data: {
        balance,
        price: PRICE,
        daily,
        recent: queries.slice(0, 10),
        hasToken: true,
        // The mock bank above answers, and mock/ocsAi.ts has enabled models.
        serviceReady: { bank: true, ai: true },
        today: {
          queries: ofToday.length,
          answered,
          hitRate: ofToday.length ? answered / ofToday.length : 0,
          spent: ofToday.reduce((s, q) => s + q.cost, 0),
        },
      },
    });
  }),
  // The mock's user is an administrator (mock/user.ts): the review work is theirs to see.
  on(ocsApi.homeSummary, (_req, res) => {
    const today = dayOf(Date.now());
    res.json({
      success: true,
      data: {
        balance,
        todayQueries: queries.filter((q) => dayOf(Date.parse(q.createdAt)) === today).length,
        admin: { ...openReviewWork(), ...importJobCounts() },
      },
    });
  }),
  on(ocsApi.wallet, (_req, res) => {
    res.json({ success: true, data: { balance, price: PRICE } });
  }),
  on(ocsApi.listLedger, (req, res) => {
    const r = filteredLedger(req, res);
    if (!r) return;
    res.json(pageOf(r.rows, r.q));
  }),
  on(ocsApi.ledgerCsv, (req, res) => {
    const r = filteredLedger(req, res);
    if (!r) return;
    const lines = r.rows.map((l) => [l.createdAt, l.kind, l.amount, l.balanceAfter, l.memo].map(csvCell).join(','));
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="ocs-ledger-${dayOf(Date.now())}.csv"`);
    res.send(`\uFEFF${['时间,类型,金额,余额,说明', ...lines].join('\r\n')}\r\n`);
  }),
  on(ocsApi.listQueries, (req, res) => {
    const q = parse(QueryListQuery, req.query ?? {}, res);
    if (!q) return;
    res.json(
      pageOf(
        queries.filter((x) => !q.outcome || x.outcome === q.outcome),
        q,
      ),
    );
  }),
  on(ocsApi.ask, (req, res) => {
    const now = Date.now();
    asks = [...asks.filter((t) => now - t < 10_000), now];
    if (asks.length > 5) {
      res.setHeader('Retry-After', '10');
      return fail(res, 429, 'RATE_LIMITED', '请求过快，请稍后再试');
    }
    const b = parse(AskBody, req.body, res);
    if (!b) return;
    const hit = BANK.find((x) => b.title.includes(x.title.slice(0, 8)) || x.title.includes(b.title));
    const found = hit
      ? { answer: hit.answer, source: 'bank' as const }
      : b.title.includes('找不到')
        ? null
        : { answer: [b.options[0] ?? 'AI 参考答案'], source: 'ai' as const };
    const q = record(b.title, b.type, found, now);
    res.json({
      success: true,
      data:
        q.answer !== null
          ? {
              code: 1,
              question: hit?.title ?? b.title,
              answer: toOcsAnswer(q.answer),
              source: q.source!,
              confidence: q.confidence!,
              cost: q.cost,
              balance,
              queryId: q.id,
            }
          : { code: 0, msg: q.message ?? '没有找到答案' },
    });
  }),
  on(reviewApi.reportContext, (req, res) => {
    const p = parse(QueryIdParams, req.params ?? {}, res);
    if (!p) return;
    const q = queries.find((x) => x.id === p.id);
    if (!q) return fail(res, 404, 'NOT_FOUND', '没有找到这条查询记录');
    res.json({
      success: true,
      data: {
        query: q,
        // The mock bank keeps no options: the dialog offers a text field.
        question: q.answer === null ? null : { title: q.title, type: 'any', options: [], answer: q.answer },
        report: reports.get(q.id) ?? null,
        refusal: q.answer === null ? '这次查询没有给出答案，无需反馈' : null,
      },
    });
  }),
  on(reviewApi.createReport, (req, res) => {
    const b = parse(OcsReportBody, req.body, res);
    if (!b) return;
    const q = queries.find((x) => x.id === b.queryId);
    if (!q) return fail(res, 404, 'NOT_FOUND', '没有找到这条查询记录');
    if (q.answer === null) return fail(res, 400, 'BAD_REQUEST', '这次查询没有给出答案，无需反馈');
    if (reports.has(q.id)) return fail(res, 409, 'CONFLICT', '这条答案已经反馈过了');
    const report: OcsMyReport = {
      id: reports.size + 1,
      queryId: q.id,
      status: 'open',
      proposed: b.proposed
        ? b.proposed.startsWith('[')
          ? (JSON.parse(b.proposed) as string[])
          : b.proposed.split('#')
        : null,
      reason: b.reason ?? '',
      refunded: 0,
      resolution: null,
      createdAt: new Date().toISOString(),
      resolvedAt: null,
    };
    reports.set(q.id, report);
    q.report = { status: 'open', refunded: 0 };
    res.json({ success: true, data: report });
  }),
);
