/**
 * Dev mocks of OCS administration (`npm run dev`), typed by src/contract/ocsAdmin.ts: a few users with
 * wallets, the service settings, the first-run setup checklist (the price counts as set once the
 * settings were saved), and a small question bank with stats, edit, verification, export, a one-step
 * sample import (a few questions; a second call adds none) and an importer whose job advances one chunk
 * per poll. tests/mock validates every answer.
 */
import {
  AdjustBalanceBody,
  BankExportQuery,
  BankQuestionListQuery,
  BankQuestionStatusBody,
  BankQuestionUpdateBody,
  OcsAdminUserListQuery,
  OcsSettingsBody,
  PageQuery,
  type BankImportJob,
  type BankImportPreview,
  type BankQuestion,
  type LedgerItem,
  type OcsAdminUser,
} from '../src/contract';
import { fail, parse, type Req, type Res } from './_lib/http';
import * as ocsAdminApi from '../src/contract/api/ocsAdmin';
import { defineMocks, on } from './_lib/endpoint';

const now = Date.now();
const ago = (min: number) => new Date(now - min * 60_000).toISOString();

const users: OcsAdminUser[] = [
  {
    id: 1,
    username: 'admin',
    nickname: '管理员',
    balance: 500,
    queriesToday: 3,
    queriesTotal: 120,
    aiSpend: 40,
    lastQueryAt: ago(5),
  },
  {
    id: 2,
    username: 'alice',
    nickname: '爱丽丝',
    balance: 18,
    queriesToday: 12,
    queriesTotal: 860,
    aiSpend: 95,
    lastQueryAt: ago(30),
  },
  {
    id: 3,
    username: 'bob',
    nickname: null,
    balance: 0,
    queriesToday: 0,
    queriesTotal: 0,
    aiSpend: 0,
    lastQueryAt: null,
  },
];
const ledgers = new Map<number, LedgerItem[]>();

let settings: OcsSettingsBody = {
  bankPrice: 1,
  freeDaily: 10,
  fuzzyThreshold: 0.5,
  ratePerSecond: 10,
  rateBurst: 20,
  latencyBudgetSeconds: 15,
  disputedMode: 'lower',
  disputeThreshold: 3,
  reportDailyLimit: 20,
};
/** Until the settings are saved once, the checklist shows 单价已设置 as pending. */
let settingsSaved = false;
/** mock/ocsAi.ts starts with this many enabled models. */
const ENABLED_MODELS = 2;

/** A few questions standing in for server/modules/ocs/bank/sample-bank.json. */
const SAMPLE: Pick<BankQuestion, 'title' | 'type' | 'options' | 'answer'>[] = [
  {
    title: '世界上面积最大的大洋是',
    type: 'single',
    options: ['大西洋', '印度洋', '太平洋', '北冰洋'],
    answer: ['太平洋'],
  },
  {
    title: '下列属于我国传统节日的有',
    type: 'multiple',
    options: ['春节', '端午节', '感恩节'],
    answer: ['春节', '端午节'],
  },
  { title: '蝙蝠是哺乳动物。', type: 'judgement', options: [], answer: ['正确'] },
  { title: '7 × 8 = ____', type: 'completion', options: [], answer: ['56'] },
];

let bank: BankQuestion[] = [
  ['中华人民共和国的首都是哪座城市？', 'single', ['上海', '北京', '广州'], ['北京'], 'import', 'verified', 42],
  ['下列属于可再生能源的有', 'multiple', ['太阳能', '煤炭', '风能'], ['太阳能', '风能'], 'import', 'verified', 17],
  ['光在真空中的传播速度约为每秒 30 万千米。', 'judgement', [], ['正确'], 'ai', 'unverified', 5],
  ['《史记》的作者是____。', 'completion', [], ['司马迁'], 'manual', 'verified', 0],
  ['TCP 三次握手的第二步发送的报文是', 'single', ['SYN', 'SYN+ACK', 'ACK'], ['ACK'], 'ai', 'wrong', 2],
].map(
  ([title, type, options, answer, source, status, hitCount], i) =>
    ({
      id: i + 1,
      title,
      type,
      options,
      answer,
      source,
      status,
      disputed: false,
      hitCount,
      createdAt: ago(10_000 - i),
      updatedAt: ago(100 - i),
    }) as BankQuestion,
);

const jobs = new Map<string, BankImportJob>();
const PREVIEW_ID = '0e5f2c1a-7b3d-4c8e-9f10-123456789abc';

function pageOf<T>(rows: T[], q: { current: number; pageSize: number }) {
  return {
    success: true as const,
    data: rows.slice((q.current - 1) * q.pageSize, q.current * q.pageSize),
    total: rows.length,
    current: q.current,
    pageSize: q.pageSize,
  };
}

function findQuestion(req: Req, res: Res): BankQuestion | undefined {
  const q = bank.find((b) => b.id === Number(req.params?.id));
  if (!q) fail(res, 404, 'NOT_FOUND', '题目不存在');
  return q;
}

/** Import jobs still running and those that failed (the home page's mock). */
export function importJobCounts() {
  const all = [...jobs.values()];
  return {
    importsRunning: all.filter((j) => j.status === 'running').length,
    importsFailed: all.filter((j) => j.status === 'failed').length,
  };
}

export default defineMocks(
  on(ocsAdminApi.listUsers, (req, res) => {
    const q = parse(OcsAdminUserListQuery, req.query, res);
    if (!q) return;
    const rows = users.filter(
      (u) => !q.keyword || u.username.includes(q.keyword) || (u.nickname ?? '').includes(q.keyword),
    );
    const key = q.sortBy === 'balance' ? 'balance' : q.sortBy === 'lastQueryAt' ? 'lastQueryAt' : 'id';
    rows.sort(
      (a, b) =>
        String(a[key] ?? '').localeCompare(String(b[key] ?? ''), undefined, { numeric: true }) *
        (q.order === 'ascend' ? 1 : -1),
    );
    res.json(pageOf(rows, q));
  }),
  on(ocsAdminApi.adjustBalance, (req, res) => {
    const b = parse(AdjustBalanceBody, req.body, res);
    if (!b) return;
    const u = users.find((x) => x.id === Number(req.params?.id));
    if (!u) return fail(res, 404, 'NOT_FOUND', '用户不存在');
    if (u.balance + b.amount < 0) return fail(res, 409, 'CONFLICT', `余额不足，无法扣减（当前余额 ${u.balance}）`);
    u.balance += b.amount;
    const list = ledgers.get(u.id) ?? [];
    const item = {
      id: list.length + 1,
      kind: 'adjust' as const,
      queryId: null,
      amount: b.amount,
      balanceAfter: u.balance,
      memo: b.reason,
      createdAt: new Date().toISOString(),
    };
    ledgers.set(u.id, [item, ...list]);
    res.json({ success: true, data: { balance: u.balance, ledgerId: item.id } });
  }),
  on(ocsAdminApi.userLedger, (req, res) => {
    const q = parse(PageQuery, req.query, res);
    if (!q) return;
    res.json(pageOf(ledgers.get(Number(req.params?.id)) ?? [], q));
  }),
  on(ocsAdminApi.getSettings, (_req, res) => res.json({ success: true, data: settings })),
  on(ocsAdminApi.saveSettings, (req, res) => {
    const b = parse(OcsSettingsBody, req.body, res);
    if (!b) return;
    settings = b;
    settingsSaved = true;
    res.json({ success: true, data: settings });
  }),
  on(ocsAdminApi.setupStatus, (_req, res) => {
    const bankDone = bank.some((q) => q.status !== 'wrong');
    res.json({
      success: true,
      data: {
        bank: { done: bankDone },
        ai: { done: ENABLED_MODELS > 0, models: ENABLED_MODELS },
        price: { done: settingsSaved, bankPrice: settings.bankPrice },
        complete: bankDone && ENABLED_MODELS > 0 && settingsSaved,
      },
    });
  }),
  on(ocsAdminApi.importSampleBank, (_req, res) => {
    const fresh = SAMPLE.filter((s) => !bank.some((q) => q.title === s.title && q.type === s.type));
    const at = new Date().toISOString();
    let id = Math.max(0, ...bank.map((q) => q.id));
    for (const s of fresh)
      bank.push({
        ...s,
        id: ++id,
        source: 'import',
        status: 'verified',
        disputed: false,
        hitCount: 0,
        createdAt: at,
        updatedAt: at,
      });
    res.json({
      success: true,
      data: { total: SAMPLE.length, inserted: fresh.length, skipped: SAMPLE.length - fresh.length },
    });
  }),
  on(ocsAdminApi.bankStats, (_req, res) => {
    const count = <K extends 'source' | 'status'>(k: K, v: BankQuestion[K]) => bank.filter((q) => q[k] === v).length;
    res.json({
      success: true,
      data: {
        total: bank.length,
        bySource: {
          import: count('source', 'import'),
          manual: count('source', 'manual'),
          ai: count('source', 'ai'),
          corrected: count('source', 'corrected'),
          upstream: bank.filter((q) => q.source.startsWith('upstream:')).length,
        },
        byStatus: {
          verified: count('status', 'verified'),
          unverified: count('status', 'unverified'),
          wrong: count('status', 'wrong'),
        },
        topHits: [...bank]
          .filter((q) => q.hitCount > 0)
          .sort((a, b) => b.hitCount - a.hitCount)
          .slice(0, 20)
          .map(({ id, title, type, source, status, hitCount }) => ({ id, title, type, source, status, hitCount })),
      },
    });
  }),
  on(ocsAdminApi.listQuestions, (req, res) => {
    const q = parse(BankQuestionListQuery, req.query, res);
    if (!q) return;
    const rows = bank.filter(
      (b) =>
        (!q.keyword || b.title.includes(q.keyword)) &&
        (!q.type || b.type === q.type) &&
        (!q.source || b.source === q.source || (q.source === 'upstream' && b.source.startsWith('upstream:'))) &&
        (!q.status || b.status === q.status),
    );
    const key = q.sortBy === 'hits' ? 'hitCount' : 'updatedAt';
    rows.sort(
      (a, b) =>
        String(a[key]).localeCompare(String(b[key]), undefined, { numeric: true }) * (q.order === 'ascend' ? 1 : -1),
    );
    res.json(pageOf(rows, q));
  }),
  on(ocsAdminApi.getQuestion, (req, res) => {
    const q = findQuestion(req, res);
    if (q) res.json({ success: true, data: q });
  }),
  on(ocsAdminApi.updateQuestion, (req, res) => {
    const b = parse(BankQuestionUpdateBody, req.body, res);
    if (!b) return;
    const q = findQuestion(req, res);
    if (!q) return;
    const clash = bank.find((x) => x.id !== q.id && x.title === b.title && x.type === b.type);
    if (clash)
      return fail(
        res,
        409,
        'CONFLICT',
        `修改后与已有题目 #${clash.id} 相同（题目、题型、选项一致），请直接编辑那一题或删除其一`,
      );
    const answer = b.answer.map((a) =>
      /^[A-Z]$/.test(a) && b.options[a.charCodeAt(0) - 65] ? b.options[a.charCodeAt(0) - 65]! : a,
    );
    Object.assign(q, { title: b.title, type: b.type, options: b.options, answer, updatedAt: new Date().toISOString() });
    res.json({ success: true, data: q });
  }),
  on(ocsAdminApi.deleteQuestion, (req, res) => {
    const q = findQuestion(req, res);
    if (!q) return;
    bank = bank.filter((x) => x.id !== q.id);
    res.json({ success: true });
  }),
  on(ocsAdminApi.setQuestionStatus, (req, res) => {
    const b = parse(BankQuestionStatusBody, req.body, res);
    if (!b) return;
    const q = findQuestion(req, res);
    if (!q) return;
    q.status = b.status;
    res.json({ success: true, data: q });
  }),
  on(ocsAdminApi.bankExport, (req, res) => {
    const q = parse(BankExportQuery, req.query, res);
    if (!q) return;
    const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
    res.setHeader('Content-Disposition', `attachment; filename="ocs-bank.${q.format}"`);
    if (q.format === 'json') {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      return res.send(
        JSON.stringify(bank.map(({ title, type, options, answer }) => ({ title, type, options, answer }))),
      );
    }
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    const lines = bank.map((b) => [b.title, b.type, b.options.join('\n'), b.answer.join('#')].map(cell).join(','));
    res.send(`\uFEFF${['题目,题型,选项,答案', ...lines].join('\r\n')}\r\n`);
  }),
  on(ocsAdminApi.uploadImport, (_req, res) => {
    const preview: BankImportPreview = {
      id: PREVIEW_ID,
      fileName: '题库.csv',
      total: 5000,
      valid: 4997,
      rejected: 3,
      existing: 1200,
      issues: [
        { row: 7, message: '题目为空' },
        { row: 19, message: '答案不在选项中（可写选项字母或选项原文）' },
        { row: 233, message: '判断题答案须为 正确/错误（或 对/错、√/×）' },
      ],
      sample: [
        {
          row: 2,
          title: '细胞膜的主要成分是',
          type: 'single',
          options: ['脂质和蛋白质', '糖类'],
          answer: ['脂质和蛋白质'],
        },
      ],
    };
    res.json({ success: true, data: preview });
  }),
  on(ocsAdminApi.commitImport, (req, res) => {
    const id = req.params?.id ?? '';
    if (id !== PREVIEW_ID) return fail(res, 404, 'NOT_FOUND', '导入批次不存在或已过期，请重新上传文件');
    const job = jobs.get(id) ?? {
      id,
      status: 'running' as const,
      total: 4997,
      done: 0,
      inserted: 0,
      updated: 0,
      error: null,
    };
    jobs.set(id, job);
    res.json({ success: true, data: job });
  }),
  on(ocsAdminApi.importJob, (req, res) => {
    const job = jobs.get(req.params?.id ?? '');
    if (!job) return fail(res, 404, 'NOT_FOUND', '导入任务不存在或已过期');
    if (job.status === 'running') {
      job.done = Math.min(job.total, job.done + 2000);
      job.updated = Math.min(job.done, 1200);
      job.inserted = job.done - job.updated;
      if (job.done === job.total) job.status = 'done';
    }
    res.json({ success: true, data: job });
  }),
);
