/**
 * Dev mocks of OCS review for administrators (`npm run dev`), typed by src/contract/ocsReview.ts: a
 * review queue of reported questions (one 存疑) with their reports and history, accept / reject /
 * merge, and the 未收录 queue with answers, AI drafts and dismissals. The users' side (report
 * context, creating a report) is in mock/ocs.ts with the query history it reads.
 * tests/mock validates every answer.
 */
import {
  MissAnswerBody,
  MissDismissBody,
  MissListQuery,
  ReviewAcceptBody,
  ReviewIdParams,
  ReviewMergeBody,
  ReviewQueueQuery,
  ReviewRejectBody,
  type MissItem,
  type QuestionHistoryEntry,
  type ReviewItem,
  type ReviewReport,
} from '../src/contract';
import * as api from '../src/contract/api/ocsReview';
import { defineMocks, on } from './_lib/endpoint';
import { fail, parse } from './_lib/http';

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

interface Reviewed {
  item: ReviewItem;
  reports: ReviewReport[];
  history: QuestionHistoryEntry[];
}

const report = (id: number, username: string, proposed: string[] | null, over: Partial<ReviewReport> = {}) => ({
  id,
  userId: id + 10,
  username,
  answer: '上海',
  proposed,
  reason: proposed ? '教材原文' : '',
  weight: 1,
  status: 'open' as const,
  refunded: 0,
  cost: 1,
  mergedFrom: null,
  resolution: null,
  createdAt: ago(id * 30),
  resolvedAt: null,
  ...over,
});

let reviewed: Reviewed[] = [
  {
    item: {
      questionId: 11,
      title: '中华人民共和国的首都是哪座城市？',
      type: 'single',
      options: ['上海', '北京', '广州'],
      answer: ['上海'],
      source: 'ai',
      provenance: 'ai',
      disputed: true,
      openReports: 3,
      totalReports: 3,
      openWeight: 2.33,
      lastReportAt: ago(30),
      proposals: [{ answer: ['北京'], count: 3, weight: 2.33 }],
    },
    reports: [report(1, 'alice', ['北京']), report(2, 'bob', ['北京'], { weight: 0.33 }), report(3, 'carol', ['北京'])],
    history: [
      {
        id: 1,
        action: 'dispute',
        actorName: '用户反馈',
        before: null,
        after: { disputed: true },
        reason: '独立用户反馈的权重达到 2',
        createdAt: ago(30),
      },
    ],
  },
  {
    item: {
      questionId: 12,
      title: '光在真空中的传播速度约为每秒 30 万千米。',
      type: 'judgement',
      options: [],
      answer: ['正确'],
      source: 'import',
      provenance: 'import',
      disputed: false,
      openReports: 1,
      totalReports: 1,
      openWeight: 1,
      lastReportAt: ago(90),
      proposals: [],
    },
    reports: [report(4, 'dave', null, { answer: '正确' })],
    history: [],
  },
];

let misses: MissItem[] = [
  ['TCP 三次握手的第二步发送的报文是', 'single', ['SYN', 'SYN+ACK', 'ACK'], 17, ['SYN+ACK']],
  ['《红楼梦》的作者是____。', 'completion', [], 9, null],
  ['下列属于可再生能源的有', 'multiple', ['太阳能', '煤炭', '风能'], 4, null],
].map(([title, type, options, count, draft], i) => ({
  id: i + 1,
  title: title as string,
  type: type as MissItem['type'],
  options: options as string[],
  count: count as number,
  firstAt: ago(10_000 - i),
  lastAt: ago(60 * (i + 1)),
  status: 'open' as const,
  draft: draft as string[] | null,
  draftModel: draft ? 'deepseek-chat' : null,
  questionId: null,
}));

function pageOf<T>(rows: T[], q: { current: number; pageSize: number }) {
  return {
    success: true as const,
    data: rows.slice((q.current - 1) * q.pageSize, q.current * q.pageSize),
    total: rows.length,
    current: q.current,
    pageSize: q.pageSize,
  };
}

function resolve(r: Reviewed, status: 'accepted' | 'rejected', reason: string) {
  r.reports = r.reports.map((x) =>
    x.status === 'open'
      ? {
          ...x,
          status,
          resolvedAt: new Date().toISOString(),
          resolution: reason,
          refunded: status === 'accepted' ? x.cost : 0,
        }
      : x,
  );
  r.item = { ...r.item, openReports: 0, openWeight: 0, disputed: false, proposals: [] };
}

/** The review work waiting, as the queue's open filter and the 未收录 list count it (the home page's mock). */
export function openReviewWork() {
  return {
    reviewsWaiting: reviewed.filter((r) => r.item.openReports > 0).length,
    missesOpen: misses.filter((m) => m.status === 'open').length,
  };
}

export default defineMocks(
  on(api.reviewQueue, (req, res) => {
    const q = parse(ReviewQueueQuery, req.query ?? {}, res);
    if (!q) return;
    const rows = reviewed
      .map((r) => r.item)
      .filter(
        (i) =>
          (q.status === 'all' || (q.status === 'open' ? i.openReports > 0 : i.openReports === 0)) &&
          (!q.keyword || i.title.includes(q.keyword)) &&
          (!q.disputed || String(i.disputed) === q.disputed),
      );
    res.json(pageOf(rows, q));
  }),
  on(api.reviewDetail, (req, res) => {
    const p = parse(ReviewIdParams, req.params ?? {}, res);
    if (!p) return;
    const r = reviewed.find((x) => x.item.questionId === p.id);
    if (!r) return fail(res, 404, 'NOT_FOUND', '题目不存在');
    const i = r.item;
    res.json({
      success: true,
      data: {
        question: {
          id: i.questionId,
          title: i.title,
          type: i.type,
          options: i.options,
          answer: i.answer,
          source: i.source,
          status: 'unverified',
          disputed: i.disputed,
          hitCount: 12,
          createdAt: ago(20_000),
          updatedAt: ago(30),
          provenance: i.provenance,
        },
        reports: r.reports,
        history: r.history,
      },
    });
  }),
  on(api.acceptReviews, (req, res) => {
    const b = parse(ReviewAcceptBody, req.body, res);
    if (!b) return;
    let reports = 0;
    let refunded = 0;
    for (const it of b.items) {
      const r = reviewed.find((x) => x.item.questionId === it.questionId);
      if (!r) return fail(res, 404, 'NOT_FOUND', `题目 #${it.questionId} 不存在`);
      if (r.item.openReports === 0)
        return fail(res, 409, 'CONFLICT', `题目 #${it.questionId} 没有待审核的反馈（可能已被处理）`);
    }
    for (const it of b.items) {
      const r = reviewed.find((x) => x.item.questionId === it.questionId)!;
      const open = r.reports.filter((x) => x.status === 'open');
      reports += open.length;
      refunded += open.reduce((s, x) => s + x.cost, 0);
      r.history.unshift({
        id: r.history.length + 10,
        action: 'correct',
        actorName: 'admin',
        before: { answer: r.item.answer },
        after: { answer: it.answer },
        reason: b.reason,
        createdAt: new Date().toISOString(),
      });
      resolve(r, 'accepted', b.reason);
      r.item = { ...r.item, answer: it.answer, source: 'corrected', provenance: 'corrected' };
    }
    res.json({ success: true, data: { questions: b.items.length, reports, refunds: reports, refunded } });
  }),
  on(api.rejectReviews, (req, res) => {
    const b = parse(ReviewRejectBody, req.body, res);
    if (!b) return;
    let reports = 0;
    for (const id of b.questionIds) {
      const r = reviewed.find((x) => x.item.questionId === id);
      if (!r) return fail(res, 404, 'NOT_FOUND', `题目 #${id} 不存在`);
      reports += r.item.openReports;
      resolve(r, 'rejected', b.reason);
    }
    res.json({ success: true, data: { questions: b.questionIds.length, reports } });
  }),
  on(api.mergeReviews, (req, res) => {
    const b = parse(ReviewMergeBody, req.body, res);
    if (!b) return;
    if (b.sourceIds.includes(b.targetId)) return fail(res, 400, 'BAD_REQUEST', '目标题目不能同时是被合并的题目');
    const target = reviewed.find((x) => x.item.questionId === b.targetId);
    if (!target) return fail(res, 404, 'NOT_FOUND', `目标题目 #${b.targetId} 不存在`);
    const sources = reviewed.filter((x) => b.sourceIds.includes(x.item.questionId));
    const moved = sources.flatMap((s) => s.reports.map((r) => ({ ...r, mergedFrom: s.item.questionId })));
    target.reports = [...target.reports, ...moved];
    target.item = {
      ...target.item,
      openReports: target.reports.filter((r) => r.status === 'open').length,
      totalReports: target.reports.length,
    };
    reviewed = reviewed.filter((x) => !b.sourceIds.includes(x.item.questionId));
    res.json({ success: true, data: { merged: sources.length, reports: moved.length } });
  }),
  on(api.listMisses, (req, res) => {
    const q = parse(MissListQuery, req.query ?? {}, res);
    if (!q) return;
    const rows = misses
      .filter((m) => m.status === q.status && (!q.keyword || m.title.includes(q.keyword)))
      .sort((a, b) => b.count - a.count);
    res.json(pageOf(rows, q));
  }),
  on(api.answerMisses, (req, res) => {
    const b = parse(MissAnswerBody, req.body, res);
    if (!b) return;
    for (const it of b.items) {
      const m = misses.find((x) => x.id === it.id);
      if (!m) return fail(res, 404, 'NOT_FOUND', `未收录题目 #${it.id} 不存在`);
      if (m.status === 'answered') return fail(res, 409, 'CONFLICT', `未收录题目 #${it.id} 已补录`);
      if (m.options.length > 0 && it.answer.some((a) => !m.options.includes(a))) {
        return fail(res, 400, 'BAD_REQUEST', `「${m.title.slice(0, 30)}」：答案不在选项中`, {
          answer: ['答案不在选项中'],
        });
      }
    }
    misses = misses.map((m) => {
      const it = b.items.find((x) => x.id === m.id);
      return it ? { ...m, status: 'answered' as const, questionId: 1000 + m.id } : m;
    });
    res.json({ success: true, data: { answered: b.items.length } });
  }),
  on(api.draftMiss, (req, res) => {
    const p = parse(ReviewIdParams, req.params ?? {}, res);
    if (!p) return;
    const m = misses.find((x) => x.id === p.id);
    if (!m) return fail(res, 404, 'NOT_FOUND', '未收录题目不存在');
    const draft = m.options.length ? [m.options[0]!] : m.type === 'judgement' ? ['正确'] : ['AI 参考答案'];
    const updated = { ...m, draft, draftModel: 'deepseek-chat' };
    misses = misses.map((x) => (x.id === m.id ? updated : x));
    res.json({ success: true, data: updated });
  }),
  on(api.dismissMisses, (req, res) => {
    const b = parse(MissDismissBody, req.body, res);
    if (!b) return;
    const open = misses.filter((m) => b.ids.includes(m.id) && m.status === 'open');
    if (open.length === 0) return fail(res, 409, 'CONFLICT', '所选题目都不在待补录状态');
    misses = misses.map((m) => (open.includes(m) ? { ...m, status: 'dismissed' as const } : m));
    res.json({ success: true, data: { dismissed: open.length } });
  }),
);
