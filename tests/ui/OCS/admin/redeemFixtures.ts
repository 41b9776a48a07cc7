/** Redeem-code batches as the server sends them (kept apart: files with jest.mock cannot use imported types). */
import type { RedeemBatch } from '@/contract';

export function batch(id: number, over: Partial<RedeemBatch> = {}): RedeemBatch {
  return {
    id,
    note: `批次${id}`,
    value: 50,
    maxUses: 1,
    codeCount: 100,
    expiresAt: null,
    disabled: false,
    status: 'active',
    downloadedAt: null,
    createdAt: '2025-01-02T04:05:00.000Z',
    uses: 12,
    remainingUses: 88,
    remainingCodes: 88,
    redeemedBy: 12,
    ...over,
  };
}
