/** Shared OCS-administration test data: bank questions as the server sends them. */
import type { BankQuestion } from '@/contract';

export function question(id: number, title: string, extra: Partial<BankQuestion> = {}): BankQuestion {
  return {
    id,
    title,
    type: 'single',
    options: ['上海', '北京', '广州'],
    answer: ['北京'],
    source: 'import',
    status: 'verified',
    disputed: false,
    hitCount: 0,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-02T04:05:00.000Z',
    ...extra,
  };
}
