/** Review-queue test data as the server sends it. */
import type { ReviewDetail, ReviewItem } from '@/contract';

const item = (questionId: number, title: string, over: Partial<ReviewItem> = {}): ReviewItem => ({
  questionId,
  title,
  type: 'single',
  options: ['上海', '北京', '广州'],
  answer: ['上海'],
  source: 'ai',
  provenance: 'ai',
  disputed: false,
  openReports: 1,
  totalReports: 1,
  openWeight: 1,
  lastReportAt: '2025-01-02T04:05:00.000Z',
  proposals: [{ answer: ['北京'], count: 1, weight: 1 }],
  ...over,
});
export const CAPITAL = item(11, '中华人民共和国的首都是哪座城市？', {
  disputed: true,
  openReports: 3,
  totalReports: 3,
  openWeight: 2.33,
  proposals: [{ answer: ['北京'], count: 3, weight: 2.33 }],
});
export const DUPLICATE = item(12, '中国的首都是哪座城市', { proposals: [] });

export const DETAIL: ReviewDetail = {
  question: {
    id: 11,
    title: CAPITAL.title,
    type: 'single',
    options: ['上海', '北京', '广州'],
    answer: ['上海'],
    source: 'ai',
    status: 'unverified',
    disputed: true,
    hitCount: 3,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T00:00:00.000Z',
    provenance: 'ai',
  },
  reports: [
    {
      id: 1,
      userId: 5,
      username: 'alice',
      answer: '上海',
      proposed: ['北京'],
      reason: '教材第三章',
      weight: 1,
      status: 'open',
      refunded: 0,
      cost: 1,
      mergedFrom: null,
      resolution: null,
      createdAt: '2025-01-02T04:05:00.000Z',
      resolvedAt: null,
    },
  ],
  history: [
    {
      id: 1,
      action: 'dispute',
      actorName: '用户反馈',
      before: null,
      after: { disputed: true },
      reason: '独立用户反馈的权重达到 2',
      createdAt: '2025-01-02T04:05:00.000Z',
    },
  ],
};

export const page = (rows: ReviewItem[]) => ({
  success: true as const,
  data: rows,
  total: rows.length,
  current: 1,
  pageSize: 10,
});
