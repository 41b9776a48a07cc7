/** 未收录 queue test data as the server sends it. */
import type { MissItem } from '@/contract';

const miss = (id: number, title: string, over: Partial<MissItem> = {}): MissItem => ({
  id,
  title,
  type: 'single',
  options: ['SYN', 'SYN+ACK', 'ACK'],
  count: 5,
  firstAt: '2025-01-01T00:00:00.000Z',
  lastAt: '2025-01-02T04:05:00.000Z',
  status: 'open',
  draft: null,
  draftModel: null,
  questionId: null,
  ...over,
});
export const TCP = miss(1, 'TCP 三次握手的第二步发送的报文是', {
  count: 17,
  draft: ['SYN+ACK'],
  draftModel: 'deepseek-chat',
});
export const NOVEL = miss(2, '《红楼梦》的作者是____。', { type: 'completion', options: [], count: 9 });

export const missPage = (rows: MissItem[]) => ({
  success: true as const,
  data: rows,
  total: rows.length,
  current: 1,
  pageSize: 10,
});
