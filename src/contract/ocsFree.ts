/**
 * OCS free points: the daily free claim, redeeming a code, and the administrators' redeem-code
 * batches (create, list, one-time CSV download, disable).
 */
import { z } from 'zod';
import { ok, page, PageQuery } from './common';

const Iso = z.string(); // ISO-8601 timestamps (UTC) on the wire

// ---------- what a redeem code looks like ----------
// 20 symbols from a 30-symbol alphabet (Crockford's base32 without 0 and 1, so no 0/O, 1/I/L or U/V
// mix-ups) carry 20·log2(30) ≈ 98 bits: far beyond guessing at five tries a minute. What users type is
// matched however they case or group it (canonicalCode).

export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export const CODE_LENGTH = 20;
export const CODE_GROUP = 4;
export const CODE_BITS = CODE_LENGTH * Math.log2(CODE_ALPHABET.length);

/** XXXX-XXXX-XXXX-XXXX-XXXX, as codes are handed out. */
export function formatCode(canonical: string): string {
  return canonical.match(new RegExp(`.{1,${CODE_GROUP}}`, 'g'))!.join('-');
}

/** What the user typed, uppercased, without spaces, dashes or underscores. */
export function canonicalCode(input: string): string {
  return input.toUpperCase().replace(/[\s\-_\u2010-\u2015\uFF0D]/g, '');
}

export function isWellFormed(canonical: string): boolean {
  return canonical.length === CODE_LENGTH && [...canonical].every((c) => CODE_ALPHABET.includes(c));
}

export const FreeStatus = z.object({
  /** Points of one claim now (the administrator's setting); 0 means claiming is switched off. */
  amount: z.number().int(),
  enabled: z.boolean(),
  claimedToday: z.boolean(),
  /** What was claimed today, if anything (the setting may have changed since). */
  claimedAmount: z.number().int().nullable(),
  /** The next local midnight of the portal's time zone, when a new claim opens. */
  nextClaimAt: Iso,
  /** The server's clock, so a countdown does not depend on the browser's. */
  serverTime: Iso,
  balance: z.number().int(),
});
export type FreeStatus = z.infer<typeof FreeStatus>;
export const FreeStatusResponse = ok(FreeStatus);

export const FreeClaim = z.object({ amount: z.number().int(), balance: z.number().int(), nextClaimAt: Iso });
export type FreeClaim = z.infer<typeof FreeClaim>;
export const FreeClaimResponse = ok(FreeClaim);

export const REDEEM_CODE_INPUT_MAX = 64;
export const RedeemBody = z.object({
  code: z.string().trim().min(1, '请输入兑换码').max(REDEEM_CODE_INPUT_MAX, '兑换码过长'),
});
export type RedeemBody = z.input<typeof RedeemBody>;
export const RedeemResult = z.object({ amount: z.number().int(), balance: z.number().int(), note: z.string() });
export type RedeemResult = z.infer<typeof RedeemResult>;
export const RedeemResponse = ok(RedeemResult);

// --- Administrators ---

export const REDEEM_MAX_COUNT = 10_000;
export const REDEEM_MAX_VALUE = 1_000_000;
export const REDEEM_NOTE_MAX = 200;

export const RedeemBatchBody = z.object({
  value: z
    .number({ error: '请输入面值' })
    .int('面值必须是整数')
    .min(1, '面值至少 1 积分')
    .max(REDEEM_MAX_VALUE, `面值不能超过 ${REDEEM_MAX_VALUE}`),
  count: z
    .number({ error: '请输入数量' })
    .int('数量必须是整数')
    .min(1, '至少生成 1 个')
    .max(REDEEM_MAX_COUNT, `一批最多 ${REDEEM_MAX_COUNT} 个`),
  maxUses: z
    .number({ error: '请输入可用次数' })
    .int('次数必须是整数')
    .min(1, '每个兑换码至少可用 1 次')
    .max(1_000_000, '次数过大'),
  expiresAt: z.iso.datetime({ offset: true, error: '过期时间格式不正确' }).nullable().optional(),
  note: z.string().trim().max(REDEEM_NOTE_MAX, `备注不能超过 ${REDEEM_NOTE_MAX} 个字符`).default(''),
});
export type RedeemBatchBody = z.input<typeof RedeemBatchBody>;

export const REDEEM_BATCH_STATUSES = ['active', 'disabled', 'expired', 'used_up'] as const;
export const RedeemBatchStatus = z.enum(REDEEM_BATCH_STATUSES);
export type RedeemBatchStatus = z.infer<typeof RedeemBatchStatus>;
export const REDEEM_BATCH_STATUS_LABELS: Record<RedeemBatchStatus, string> = {
  active: '可用',
  disabled: '已停用',
  expired: '已过期',
  used_up: '已用完',
};

export const RedeemBatch = z.object({
  id: z.number().int(),
  note: z.string(),
  value: z.number().int(),
  maxUses: z.number().int(),
  codeCount: z.number().int(),
  expiresAt: Iso.nullable(),
  disabled: z.boolean(),
  status: RedeemBatchStatus,
  /** Set once the codes were downloaded; after that the server no longer holds them. */
  downloadedAt: Iso.nullable(),
  createdAt: Iso,
  uses: z.number().int(),
  /** codeCount × maxUses − uses. */
  remainingUses: z.number().int(),
  /** Codes that can still be used at least once. */
  remainingCodes: z.number().int(),
  redeemedBy: z.number().int(),
});
export type RedeemBatch = z.infer<typeof RedeemBatch>;
export const RedeemBatchResponse = ok(RedeemBatch);
export const RedeemBatchListQuery = PageQuery;
export type RedeemBatchListQuery = z.input<typeof RedeemBatchListQuery>;
export const RedeemBatchListResponse = page(RedeemBatch);
export const RedeemBatchIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
