/**
 * Dev mocks of the OCS free points (`npm run dev`), typed by src/contract/ocsFree.ts: the daily claim
 * (once per Shanghai day), redeeming (try DEMO_CODE below, in any case, with or without dashes; five
 * wrong codes in a minute get 429), and the administrators' batches with the one-time CSV. Its wallet
 * is its own: mock/ocs.ts keeps the bills. tests/mock validates every answer.
 */
import {
  canonicalCode,
  CODE_ALPHABET,
  CODE_LENGTH,
  formatCode,
  RedeemBatchBody,
  RedeemBatchListQuery,
  RedeemBody,
  type RedeemBatch,
} from '../src/contract';
import * as ocsFreeApi from '../src/contract/api/ocsFree';
import { defineMocks, on } from './_lib/endpoint';
import { fail, parse } from './_lib/http';

/** A mock code: the real format, from Math.random (the server draws from crypto). */
const generateCode = () =>
  Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[Math.floor(Math.random() * CODE_ALPHABET.length)]).join('');

const DEMO_CODE = 'ABCD-EFGH-JKMN-PQRS-TVWX';
const FREE_DAILY = 10;
const DAY_FORMAT = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' });
const today = () => DAY_FORMAT.format(new Date());
/** Next midnight in UTC+8 (Shanghai has no daylight saving). */
const nextMidnight = () =>
  new Date((Math.floor((Date.now() + 8 * 3600_000) / 86_400_000) + 1) * 86_400_000 - 8 * 3600_000).toISOString();

interface MockCode {
  code: string;
  uses: number;
  users: Set<string>;
}
interface MockBatch {
  batch: Omit<RedeemBatch, 'status' | 'uses' | 'remainingUses' | 'remainingCodes' | 'redeemedBy'>;
  codes: MockCode[];
}

let balance = 120;
let claimedDay: string | null = null;
let failures: number[] = [];
const batches: MockBatch[] = [];

function addBatch(
  b: { value: number; count: number; maxUses: number; expiresAt: string | null; note: string },
  codes?: string[],
): MockBatch {
  const id = batches.length + 1;
  const all = codes ?? Array.from({ length: b.count }, generateCode);
  const entry: MockBatch = {
    batch: {
      id,
      note: b.note,
      value: b.value,
      maxUses: b.maxUses,
      codeCount: all.length,
      expiresAt: b.expiresAt,
      disabled: false,
      downloadedAt: null,
      createdAt: new Date().toISOString(),
    },
    codes: all.map((code) => ({ code, uses: 0, users: new Set() })),
  };
  batches.unshift(entry);
  return entry;
}
addBatch({ value: 50, count: 3, maxUses: 1, expiresAt: null, note: '开学活动' });
addBatch({
  value: 20,
  count: 2,
  maxUses: 5,
  expiresAt: new Date(Date.now() - 86_400_000).toISOString(),
  note: '上学期活动',
}).batch.downloadedAt = new Date().toISOString();
addBatch({ value: 100, count: 1, maxUses: 1000, expiresAt: null, note: '开发演示' }, [canonicalCode(DEMO_CODE)]);

function view({ batch, codes }: MockBatch): RedeemBatch {
  const uses = codes.reduce((s, c) => s + c.uses, 0);
  const remainingCodes = codes.filter((c) => c.uses < batch.maxUses).length;
  const expired = batch.expiresAt !== null && Date.parse(batch.expiresAt) <= Date.now();
  const status = batch.disabled ? 'disabled' : expired ? 'expired' : remainingCodes === 0 ? 'used_up' : 'active';
  const redeemedBy = new Set(codes.flatMap((c) => [...c.users])).size;
  return { ...batch, status, uses, remainingUses: batch.codeCount * batch.maxUses - uses, remainingCodes, redeemedBy };
}

const byId = (id?: string) => batches.find((b) => String(b.batch.id) === id);

export default defineMocks(
  on(ocsFreeApi.freeStatus, (_req, res) => {
    const claimed = claimedDay === today();
    res.json({
      success: true,
      data: {
        amount: FREE_DAILY,
        enabled: true,
        claimedToday: claimed,
        claimedAmount: claimed ? FREE_DAILY : null,
        nextClaimAt: nextMidnight(),
        serverTime: new Date().toISOString(),
        balance,
      },
    });
  }),
  on(ocsFreeApi.claimFree, (_req, res) => {
    if (claimedDay === today()) return fail(res, 409, 'CONFLICT', '今天已经领取过了，明天再来吧');
    claimedDay = today();
    balance += FREE_DAILY;
    res.json({
      success: true,
      data: { amount: FREE_DAILY, balance, nextClaimAt: nextMidnight() },
    });
  }),
  on(ocsFreeApi.redeem, (req, res) => {
    const b = parse(RedeemBody, req.body, res);
    if (!b) return;
    const now = Date.now();
    failures = failures.filter((t) => now - t < 60_000);
    if (failures.length >= 5) {
      const wait = Math.max(1, Math.ceil((failures[0]! + 60_000 - now) / 1000));
      res.setHeader('Retry-After', String(wait));
      return fail(res, 429, 'TOO_MANY_REQUESTS', `兑换码输错次数过多，请 ${wait} 秒后再试`);
    }
    const canonical = canonicalCode(b.code);
    const entry = batches.find((x) => x.codes.some((c) => c.code === canonical));
    const code = entry?.codes.find((c) => c.code === canonical);
    if (!entry || !code) {
      failures.push(now);
      return fail(res, 400, 'BAD_REQUEST', '兑换码无效，请检查后重试', { code: ['兑换码无效，请检查后重试'] });
    }
    const v = view(entry);
    if (v.disabled) return fail(res, 409, 'CONFLICT', '该兑换码所属批次已停用');
    if (v.status === 'expired') return fail(res, 409, 'CONFLICT', '该兑换码已过期');
    if (code.users.has('me')) return fail(res, 409, 'CONFLICT', '你已经兑换过这个兑换码了');
    if (code.uses >= v.maxUses) return fail(res, 409, 'CONFLICT', '该兑换码已被用完');
    code.uses += 1;
    code.users.add('me');
    balance += v.value;
    res.json({ success: true, data: { amount: v.value, balance, note: v.note } });
  }),
  on(ocsFreeApi.listRedeemBatches, (req, res) => {
    const q = parse(RedeemBatchListQuery, req.query ?? {}, res);
    if (!q) return;
    const rows = batches.map(view);
    res.json({
      success: true,
      data: rows.slice((q.current - 1) * q.pageSize, q.current * q.pageSize),
      total: rows.length,
      current: q.current,
      pageSize: q.pageSize,
    });
  }),
  on(ocsFreeApi.createRedeemBatch, (req, res) => {
    const b = parse(RedeemBatchBody, req.body, res);
    if (!b) return;
    if (b.expiresAt && Date.parse(b.expiresAt) <= Date.now()) {
      return fail(res, 400, 'BAD_REQUEST', '过期时间必须晚于现在', { expiresAt: ['过期时间必须晚于现在'] });
    }
    res.json({
      success: true,
      data: view(addBatch({ ...b, expiresAt: b.expiresAt ?? null })),
    });
  }),
  on(ocsFreeApi.redeemCodesCsv, (req, res) => {
    const entry = byId(req.params?.id);
    if (!entry) return fail(res, 404, 'NOT_FOUND', '兑换码批次不存在');
    if (entry.batch.downloadedAt)
      return fail(res, 410, 'GONE', '该批次的兑换码已经下载过一次，服务器不再保存兑换码明文，无法再次下载');
    entry.batch.downloadedAt = new Date().toISOString();
    const { value, maxUses, expiresAt, note } = entry.batch;
    const lines = entry.codes.map((c) => [formatCode(c.code), value, maxUses, expiresAt ?? '永不过期', note].join(','));
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="redeem-batch-${entry.batch.id}.csv"`);
    res.send(`\uFEFF${['兑换码,面值,可用次数,过期时间,备注', ...lines].join('\r\n')}\r\n`);
  }),
  on(ocsFreeApi.disableRedeemBatch, (req, res) => {
    const entry = byId(req.params?.id);
    if (!entry) return fail(res, 404, 'NOT_FOUND', '兑换码批次不存在');
    entry.batch.disabled = true;
    res.json({ success: true, data: view(entry) });
  }),
);
