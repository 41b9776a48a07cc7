/**
 * HTTP shapes of UMS (issue 6): DingTalk robot channels, messages with a durable outbox, and the
 * token API `/api/ums/send` for scripts.
 */
import { z } from 'zod';
import { ok, OkEmpty, page, PageQuery } from './common';

const Iso = z.string();

export const UMS_MAX_MESSAGE_BYTES = 20_000;
export const UMS_MAX_SCHEDULE_DAYS = 30;

export const MESSAGE_TYPES = ['text', 'markdown', 'link', 'actionCard'] as const;
export const MessageType = z.enum(MESSAGE_TYPES);
export type MessageType = z.infer<typeof MessageType>;

export const MESSAGE_STATUSES = ['queued', 'sending', 'retrying', 'delivered', 'failed', 'cancelled'] as const;
export const MessageStatus = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatus>;
export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  queued: '排队中',
  sending: '发送中',
  retrying: '等待重试',
  delivered: '已送达',
  failed: '失败',
  cancelled: '已取消',
};

// ---------- channels ----------

export const ChannelBody = z.object({
  name: z.string({ error: '请输入名称' }).trim().min(1, '请输入名称').max(32, '名称最多 32 个字符'),
  /** https://oapi.dingtalk.com/robot/send?access_token=… (or an allow-listed gateway). */
  webhook: z.string({ error: '请输入 Webhook 地址' }).trim().min(1, '请输入 Webhook 地址').max(500, 'Webhook 地址过长'),
  /** Signing secret, `SEC…`; empty for none. */
  secret: z
    .string()
    .trim()
    .max(200)
    .regex(/^(SEC[A-Za-z0-9]+)?$/, '加签密钥应以 SEC 开头')
    .optional(),
  keyword: z.string().trim().max(32, '关键词最多 32 个字符').optional(),
  isDefault: z.boolean().optional(),
});
export type ChannelBody = z.infer<typeof ChannelBody>;
/** On update every field is optional; `secret: ''` removes the signing secret, absent keeps it. */
export const ChannelPatchBody = ChannelBody.partial();
export type ChannelPatchBody = z.infer<typeof ChannelPatchBody>;

export const Channel = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The webhook with its access token masked. */
  webhookMasked: z.string(),
  hasSecret: z.boolean(),
  secretMasked: z.string().nullable(),
  keyword: z.string().nullable(),
  isDefault: z.boolean(),
  createdAt: Iso,
  throttledUntil: Iso.nullable(),
  lastSuccessAt: Iso.nullable(),
  lastErrorAt: Iso.nullable(),
  lastError: z.string().nullable(),
});
export type Channel = z.infer<typeof Channel>;
export const ChannelResponse = ok(Channel);
export const ChannelListResponse = ok(z.array(Channel));

export const ChannelTestResult = z.object({
  ok: z.boolean(),
  httpStatus: z.number().int().nullable(),
  errcode: z.number().int().nullable(),
  errmsg: z.string(),
  durationMs: z.number().int(),
  /** Our explanation of the errcode, in Chinese. */
  hint: z.string().nullable(),
  /** The technical detail of a failure without a JSON answer (error code, Node's message); for 详情. */
  detail: z.string().nullable(),
});
export type ChannelTestResult = z.infer<typeof ChannelTestResult>;
export const ChannelTestResponse = ok(ChannelTestResult);

// ---------- messages ----------

export const NewMessageBody = z.object({
  title: z.string().trim().max(256, '标题最多 256 个字符').optional().default(''),
  content: z.string({ error: '请输入内容' }).min(1, '请输入内容'),
  type: z.enum(['text', 'markdown']).default('markdown'),
  /** Channel id; the default channel when absent. */
  channel: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** ISO time or epoch milliseconds; between now and 30 days ahead. */
  sendAt: z.union([z.string().max(40), z.number()]).optional(),
  atMobiles: z
    .array(z.string().regex(/^\+?\d{5,20}$/, '手机号格式不正确'))
    .max(20)
    .optional(),
  isAtAll: z.boolean().optional(),
});
export type NewMessageBody = z.input<typeof NewMessageBody>;

/** The curl-friendly API: the same fields as query, form or JSON; `token` may come along. */
export const SendApiInput = z.object({
  token: z.string().max(200).optional(),
  title: z.string().trim().max(256, '标题最多 256 个字符').optional().default(''),
  content: z.string({ error: '缺少 content' }).min(1, '缺少 content'),
  type: z.enum(['text', 'markdown']).default('markdown'),
  channel: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  sendAt: z.union([z.string().max(40), z.number()]).optional(),
});

export const MessageCreated = z.object({ id: z.number().int(), status: MessageStatus });
export const MessageCreatedResponse = ok(MessageCreated);

export const MessageAttempt = z.object({
  id: z.number().int(),
  at: Iso,
  httpStatus: z.number().int().nullable(),
  errcode: z.number().int().nullable(),
  /** DingTalk's errmsg, or our Chinese description when DingTalk did not answer (httpStatus null). */
  errmsg: z.string().nullable(),
  /** The technical detail of a failure (error code, Node's message); for 详情. */
  detail: z.string().nullable(),
  durationMs: z.number().int(),
  /** pending: the attempt was under way when its server stopped. */
  outcome: z.enum(['pending', 'delivered', 'permanent', 'rate_limited', 'transient']),
});
export type MessageAttempt = z.infer<typeof MessageAttempt>;

export const MessageSummary = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  type: MessageType,
  channelId: z.number().int().nullable(),
  channelName: z.string().nullable(),
  status: MessageStatus,
  attempts: z.number().int(),
  sendAt: Iso.nullable(),
  nextAttemptAt: Iso.nullable(),
  lastError: z.string().nullable(),
  source: z.enum(['ui', 'api']),
  createdAt: Iso,
  deliveredAt: Iso.nullable(),
});
export type MessageSummary = z.infer<typeof MessageSummary>;
export const MessageDetail = MessageSummary.extend({ attemptLog: z.array(MessageAttempt) });
export type MessageDetail = z.infer<typeof MessageDetail>;
export const MessageDetailResponse = ok(MessageDetail);

export const MessageListQuery = PageQuery.extend({
  status: MessageStatus.optional(),
  channel: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  keyword: z.string().trim().max(100).optional(),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
});
export const MessageListResponse = page(MessageSummary);
export const MessageActionResponse = ok(MessageCreated);

// ---------- overview ----------

export const UmsStats = z.object({
  byStatus: z.record(z.string(), z.number().int()),
  daily: z.array(z.object({ day: z.string(), delivered: z.number().int(), failed: z.number().int() })),
  channels: z.array(
    Channel.pick({
      id: true,
      name: true,
      lastSuccessAt: true,
      lastErrorAt: true,
      lastError: true,
      throttledUntil: true,
    }),
  ),
  total: z.number().int(),
});
export type UmsStats = z.infer<typeof UmsStats>;
export const UmsStatsResponse = ok(UmsStats);

export const DeleteChannelResponse = OkEmpty;
