/**
 * HTTP shapes of UMS (issues 6 and 18): channels of five kinds (DingTalk, WeCom and Feishu robots, generic
 * webhooks, e-mail), messages with a durable outbox, and the token API `/api/ums/send` for scripts.
 */
import { z } from 'zod';
import { ok, OkEmpty, page, PageQuery } from './common';
import { jsonText } from './text';

const Iso = z.string();

export const UMS_MAX_MESSAGE_BYTES = 20_000;
export const UMS_MAX_SCHEDULE_DAYS = 30;

export const MESSAGE_TYPES = ['text', 'markdown', 'link', 'actionCard'] as const;
export const MessageType = z.enum(MESSAGE_TYPES);
export type MessageType = z.infer<typeof MessageType>;

export const MESSAGE_STATUSES = [
  'queued',
  'sending',
  'retrying',
  'merged',
  'delivered',
  'failed',
  'cancelled',
] as const;
export const MessageStatus = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatus>;
export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  queued: '排队中',
  sending: '发送中',
  retrying: '等待重试',
  merged: '已合并到摘要',
  delivered: '已送达',
  failed: '失败',
  cancelled: '已取消',
};

// ---------- channels ----------

/** Where a channel delivers: each kind has its own request, signing, error classes and pacing. */
export const CHANNEL_KINDS = ['dingtalk', 'wecom', 'feishu', 'webhook', 'email'] as const;
export const ChannelKind = z.enum(CHANNEL_KINDS);
export type ChannelKind = z.infer<typeof ChannelKind>;
export const CHANNEL_KIND_LABELS: Record<ChannelKind, string> = {
  dingtalk: '钉钉机器人',
  wecom: '企业微信群机器人',
  feishu: '飞书机器人',
  webhook: '通用 Webhook',
  email: '电子邮件',
};

export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH', 'GET'] as const;
/** The variables a webhook's body template (and URL) may use. */
export const WEBHOOK_VARIABLES = ['title', 'content', 'time', 'messageId'] as const;
export const DEFAULT_WEBHOOK_TEMPLATE =
  '{"title":"${title}","content":"${content}","time":"${time}","messageId":"${messageId}"}';
export const DEFAULT_SUCCESS_STATUS = '200-299';

const ChannelName = z.string({ error: '请输入名称' }).trim().min(1, '请输入名称').max(32, '名称最多 32 个字符');
const Webhook = z
  .string({ error: '请输入 Webhook 地址' })
  .trim()
  .min(1, '请输入 Webhook 地址')
  .max(500, 'Webhook 地址过长');
/** DingTalk's signing secret, `SEC…`; empty for none. */
export const DingTalkSecret = z
  .string()
  .trim()
  .max(200)
  .regex(/^(SEC[A-Za-z0-9]+)?$/, '加签密钥应以 SEC 开头');
/** Feishu's signing secret (安全设置 → 签名校验); empty for none. */
export const FeishuSecret = z
  .string()
  .trim()
  .max(200, '签名密钥过长')
  .regex(/^[A-Za-z0-9_\-+/=]*$/, '签名密钥只能包含字母、数字和 -_+/=');
export const ChannelKeyword = z.string().trim().max(32, '关键词最多 32 个字符');
export const EmailAddress = z
  .string({ error: '请输入邮箱地址' })
  .trim()
  .min(1, '请输入邮箱地址')
  .max(254, '邮箱地址过长')
  .regex(
    /^[^\s@<>()[\],;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/,
    '邮箱地址格式不正确',
  );
export const WebhookHeader = z.object({
  name: z
    .string({ error: '请输入请求头名称' })
    .trim()
    .min(1, '请输入请求头名称')
    .max(64, '请求头名称最多 64 个字符')
    .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, '请求头名称只能包含字母、数字和 -'),
  value: z
    .string({ error: '请输入请求头的值' })
    .max(1000, '请求头的值最多 1000 个字符')
    .regex(/^[^\r\n]*$/, '请求头的值不能换行'),
});
export type WebhookHeader = z.infer<typeof WebhookHeader>;
export const WebhookBodyTemplate = z.string().max(5000, '请求体模板最多 5000 个字符');
/** Status codes that mean success: `200-299`, `200,204`, `200-202,204`. */
export const WebhookSuccessStatus = z
  .string()
  .trim()
  .max(100, '成功状态码过长')
  .regex(/^[1-5]\d\d(-[1-5]\d\d)?(,\s*[1-5]\d\d(-[1-5]\d\d)?)*$/, '格式如 200-299 或 200,204');
/** A JSONPath (jsonpath-plus) into the answer, e.g. `$.code`; empty for none. */
export const WebhookSuccessPath = z
  .string()
  .trim()
  .max(200, 'JSON 路径最多 200 个字符')
  .regex(/^(\$.*)?$/, 'JSON 路径应以 $ 开头，例如 $.code');
export const WebhookSuccessValue = z.string().trim().max(200, '期望值最多 200 个字符');
/** A webhook's own pacing: messages per minute, 0 for none. */
export const WebhookPerMinute = z.number().int('请输入整数').min(0, '不能小于 0').max(600, '每分钟最多 600 条');

/** `HH:mm`, or '' for none. */
export const QuietTime = z
  .string()
  .trim()
  .regex(/^(([01]\d|2[0-3]):[0-5]\d)?$/, '时间格式为 HH:mm，例如 22:00');

const channelShape = {
  /** Absent: dingtalk (clients written before there were other kinds). */
  kind: ChannelKind.default('dingtalk'),
  name: ChannelName,
  /** dingtalk, wecom, feishu: the robot's webhook; webhook: any http(s) URL (may use the variables). */
  webhook: Webhook.optional(),
  /** dingtalk: `SEC…`; feishu: the signing secret. '' on update removes it. */
  secret: z.string().trim().max(200, '密钥过长').optional(),
  /** dingtalk, feishu: the robot's keyword, added to messages that lack it. */
  keyword: ChannelKeyword.optional(),
  /** email: the address messages go to. */
  email: EmailAddress.optional(),
  method: z.enum(WEBHOOK_METHODS, { error: '请求方法只能是 POST、PUT、PATCH 或 GET' }).optional(),
  /** webhook: request headers, stored encrypted, shown masked. On update the list replaces the old one. */
  headers: z.array(WebhookHeader).max(10, '最多 10 个请求头').optional(),
  bodyTemplate: WebhookBodyTemplate.optional(),
  successStatus: WebhookSuccessStatus.optional(),
  successPath: WebhookSuccessPath.optional(),
  successValue: WebhookSuccessValue.optional(),
  perMinute: WebhookPerMinute.optional(),
  /**
   * Overflow digest: when pacing would hold messages longer than this many seconds, merge them into one
   * markdown digest instead; null turns it off.
   */
  digestAfterSeconds: z
    .number({ error: '请输入秒数' })
    .int('请输入整数')
    .min(30, '至少 30 秒')
    .max(3600, '最多 3600 秒')
    .nullable()
    .optional(),
  /** Quiet hours (PORTAL_TZ), `HH:mm`, both or neither; '' on update removes them. */
  quietStart: QuietTime.optional(),
  quietEnd: QuietTime.optional(),
  isDefault: z.boolean().optional(),
};

type ChannelFields = { [K in keyof typeof channelShape]?: z.output<(typeof channelShape)[K]> };

const KIND_FIELDS: Record<ChannelKind, (keyof ChannelFields)[]> = {
  dingtalk: ['webhook', 'secret', 'keyword'],
  wecom: ['webhook'],
  feishu: ['webhook', 'secret', 'keyword'],
  webhook: [
    'webhook',
    'method',
    'headers',
    'bodyTemplate',
    'successStatus',
    'successPath',
    'successValue',
    'perMinute',
  ],
  email: ['email'],
};
const COMMON_FIELDS: (keyof ChannelFields)[] = [
  'kind',
  'name',
  'isDefault',
  'quietStart',
  'quietEnd',
  'digestAfterSeconds',
];

/**
 * The fields of one kind, checked against that kind: which fields it has, which it needs, the format
 * of its secret. Shared by the create schema (below) and the server's update, which knows the kind
 * from the database.
 */
export function channelFieldIssues(
  kind: ChannelKind,
  v: ChannelFields,
  mode: 'create' | 'update',
): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const allowed = new Set([...COMMON_FIELDS, ...KIND_FIELDS[kind]]);
  for (const [key, value] of Object.entries(v)) {
    if (value === undefined || allowed.has(key as keyof ChannelFields)) continue;
    issues.push({ path: key, message: `${CHANNEL_KIND_LABELS[kind]}渠道没有这一项` });
  }
  if (mode === 'create') {
    if (kind === 'email' && !v.email) issues.push({ path: 'email', message: '请输入邮箱地址' });
    if (kind !== 'email' && !v.webhook) issues.push({ path: 'webhook', message: '请输入 Webhook 地址' });
  }
  if (v.secret) {
    const secret = kind === 'dingtalk' ? DingTalkSecret : kind === 'feishu' ? FeishuSecret : null;
    const r = secret?.safeParse(v.secret);
    if (r && !r.success) issues.push({ path: 'secret', message: r.error.issues[0].message });
  }
  if (v.successValue && !v.successPath)
    issues.push({ path: 'successPath', message: '填写期望值时请同时填写 JSON 路径' });
  if ((v.quietStart === undefined) !== (v.quietEnd === undefined) || Boolean(v.quietStart) !== Boolean(v.quietEnd)) {
    issues.push({ path: v.quietStart ? 'quietEnd' : 'quietStart', message: '免打扰的开始和结束时间要一起填写' });
  } else if (v.quietStart && v.quietStart === v.quietEnd) {
    issues.push({ path: 'quietEnd', message: '免打扰的开始和结束时间不能相同' });
  }
  return issues;
}

export const ChannelBody = z.object(channelShape).superRefine((v, ctx) => {
  for (const issue of channelFieldIssues(v.kind, v, 'create'))
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});
export type ChannelBody = z.input<typeof ChannelBody>;
/**
 * On update every field is optional and the kind cannot change; `secret: ''` removes the signing
 * secret, absent keeps it; `headers` replaces the list when present.
 */
export const ChannelPatchBody = z.object(channelShape).omit({ kind: true }).partial();
export type ChannelPatchBody = z.infer<typeof ChannelPatchBody>;

/** A generic webhook's settings as shown back: header values masked. */
export const WebhookSettings = z.object({
  method: z.enum(WEBHOOK_METHODS),
  headers: z.array(z.object({ name: z.string(), valueMasked: z.string() })),
  bodyTemplate: z.string(),
  successStatus: z.string(),
  successPath: z.string().nullable(),
  successValue: z.string().nullable(),
  perMinute: z.number().int(),
});
export type WebhookSettings = z.infer<typeof WebhookSettings>;

/** How long the link of an e-mail channel's confirmation mail works. */
export const UMS_EMAIL_CONFIRM_HOURS = 72;

/**
 * An e-mail channel's consent: the address receives nothing until its owner opened the link of the
 * confirmation mail. `sentAt`/`expiresAt`: the last confirmation mail and when its link stops working.
 */
export const EmailConsent = z.object({
  confirmed: z.boolean(),
  confirmedAt: Iso.nullable(),
  sentAt: Iso.nullable(),
  expiresAt: Iso.nullable(),
});
export type EmailConsent = z.infer<typeof EmailConsent>;

/** The secret of a confirmation link (it travels in the page's #fragment). */
export const EmailConfirmBody = z.object({
  token: z.string({ error: '链接无效' }).trim().min(16, '链接无效').max(128, '链接无效'),
});
export type EmailConfirmBody = z.infer<typeof EmailConfirmBody>;
/** What the address's owner agreed to: whose messages, through which channel. */
export const EmailConfirmResult = z.object({ email: z.string(), channelName: z.string(), owner: z.string() });
export type EmailConfirmResult = z.infer<typeof EmailConfirmResult>;
export const EmailConfirmResponse = ok(EmailConfirmResult);

/** Delivery attempts of the last 7 days: how many, how many delivered, and the rate (null: none yet). */
export const ChannelHealth = z.object({
  attempts: z.number().int(),
  delivered: z.number().int(),
  successRate: z.number().nullable(),
});
export type ChannelHealth = z.infer<typeof ChannelHealth>;

export const Channel = z.object({
  id: z.number().int(),
  kind: ChannelKind,
  name: z.string(),
  /** Where messages go: the webhook with its token masked, or the e-mail address. */
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
  /** kind webhook only. */
  webhookSettings: WebhookSettings.nullable(),
  health: ChannelHealth,
  /** Messages wait these hours out (PORTAL_TZ) unless urgent; null: none. */
  quietHours: z.object({ start: z.string(), end: z.string() }).nullable(),
  /** Overflow digest after this many seconds of pacing delay; null: off. */
  digestAfterSeconds: z.number().int().nullable(),
  /** kind email only: whether the address's owner has agreed to receive messages. */
  emailConsent: EmailConsent.nullable(),
});
export type Channel = z.infer<typeof Channel>;
export const ChannelResponse = ok(Channel);
export const ChannelListResponse = ok(z.array(Channel));

/** What each kind needs on this server: e-mail only when SMTP_URL is set; its pacing in words. */
export const ChannelKindInfo = z.object({
  kind: ChannelKind,
  label: z.string(),
  available: z.boolean(),
  /** Why it is not available. */
  reason: z.string().nullable(),
  /** The pacing the portal keeps for this kind, in Chinese. */
  pacing: z.string(),
});
export type ChannelKindInfo = z.infer<typeof ChannelKindInfo>;
export const ChannelKindListResponse = ok(z.array(ChannelKindInfo));

export const ChannelTestResult = z.object({
  ok: z.boolean(),
  /** The HTTP status of the answer; null without one (network failure, or e-mail). */
  httpStatus: z.number().int().nullable(),
  /** The service's own code: DingTalk/WeCom errcode, Feishu code, the SMTP reply code for e-mail. */
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

// ---------- templates ----------

export const UMS_MAX_TEMPLATES = 50;
const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,31})\s*\}\}/g;

/** The {{variables}} of a template's title and content, each once, in order of appearance. */
export function messageTemplateVariables(...texts: string[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(VARIABLE)) seen.add(m[1]);
  return [...seen];
}

/** Fills {{name}} from `vars`; what has no value stays as it is and is reported as missing. */
export function fillMessageTemplate(text: string, vars: Record<string, string>): { text: string; missing: string[] } {
  const missing = new Set<string>();
  const out = text.replace(VARIABLE, (whole, name: string) => {
    if (Object.prototype.hasOwnProperty.call(vars, name)) return vars[name];
    missing.add(name);
    return whole;
  });
  return { text: out, missing: [...missing] };
}

export const TemplateBody = z.object({
  name: z
    .string({ error: '请输入模板名称' })
    .trim()
    .min(1, '请输入模板名称')
    .max(32, '模板名称最多 32 个字符')
    .regex(/^[^\s].*$/, '请输入模板名称'),
  title: z.string().trim().max(256, '标题最多 256 个字符').optional().default(''),
  content: z.string({ error: '请输入模板内容' }).min(1, '请输入模板内容').max(UMS_MAX_MESSAGE_BYTES, '模板过长'),
  type: z.enum(['text', 'markdown']).default('markdown'),
});
export type TemplateBody = z.input<typeof TemplateBody>;
export const TemplatePatchBody = TemplateBody.partial();
export type TemplatePatchBody = z.input<typeof TemplatePatchBody>;

export const Template = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  content: z.string(),
  type: z.enum(['text', 'markdown']),
  /** Its {{variables}}, in order of appearance. */
  variables: z.array(z.string()),
  createdAt: Iso,
  updatedAt: Iso,
});
export type Template = z.infer<typeof Template>;
export const TemplateResponse = ok(Template);
export const TemplateListResponse = ok(z.array(Template));

/** Variable values: an object, or its JSON as a query or form field carries it. */
const TemplateVars = jsonText(
  z.record(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,31}$/, '变量名只能包含字母、数字和下划线'),
    z.union([z.string().max(UMS_MAX_MESSAGE_BYTES), z.number(), z.boolean()]).transform(String),
    { error: 'vars 应为对象（JSON）' },
  ),
);

// ---------- messages ----------

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
/** urgent goes first in the queue and is sent through a channel's quiet hours. */
export const Priority = z.enum(PRIORITIES, { error: '优先级只能是 low、normal、high 或 urgent' });
export type Priority = z.infer<typeof Priority>;
export const PRIORITY_LABELS: Record<Priority, string> = { low: '低', normal: '普通', high: '高', urgent: '紧急' };

export const UMS_MAX_ROUTE_CHANNELS = 10;
const ChannelId = z.coerce.number().int().positive().max(2_147_483_647);
/** A list of channel ids: an array, or `1,2,3` as a query or form field carries it. */
const ChannelIds = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',').map((x) => x.trim()) : typeof v === 'number' ? [v] : v),
  z
    .array(ChannelId)
    .min(1, '至少选择一个渠道')
    .max(UMS_MAX_ROUTE_CHANNELS, `最多 ${UMS_MAX_ROUTE_CHANNELS} 个渠道`)
    .refine((ids) => new Set(ids).size === ids.length, '渠道不能重复'),
);
/** A client-chosen key: the same key again returns the first message instead of sending twice. */
const IdempotencyKey = z
  .string()
  .trim()
  .min(1, 'idempotencyKey 不能为空')
  .max(128, 'idempotencyKey 最多 128 个字符')
  .regex(/^[\x21-\x7e]+$/, 'idempotencyKey 只能包含可见的 ASCII 字符');

/**
 * Routing, shared by the UI's form and the token API: one channel (`channel`, or the default), several
 * at once (`channels`: fan-out, one message and timeline per channel), or a chain (`fallback`: the
 * next channel when one fails for good). At most one of the three.
 */
const routingShape = {
  /** Channel id; the default channel when no routing is given. */
  channel: ChannelId.optional(),
  channels: ChannelIds.optional(),
  fallback: ChannelIds.optional(),
  priority: Priority.optional().default('normal'),
  idempotencyKey: IdempotencyKey.optional(),
  /** The final outcome is POSTed here once, signed with the sender's callback secret. */
  callbackUrl: z.string().trim().min(1, '回调地址不能为空').max(500, '回调地址最多 500 个字符').optional(),
  /** A template of the sender's (name, or id) filled with `vars`: its title, content and type. */
  template: z.string().trim().min(1).max(32, '模板名称最多 32 个字符').optional(),
  vars: TemplateVars.optional(),
};

function oneRoute(
  v: { channel?: unknown; channels?: unknown; fallback?: unknown; content?: string; template?: string },
  ctx: z.RefinementCtx,
): void {
  const given = (['channel', 'channels', 'fallback'] as const).filter((k) => v[k] !== undefined);
  if (given.length > 1) {
    ctx.addIssue({ code: 'custom', path: [given[1]], message: 'channel、channels 与 fallback 只能填写一个' });
  }
  if (!v.content && !v.template) ctx.addIssue({ code: 'custom', path: ['content'], message: '缺少 content' });
  if (v.content && v.template) {
    ctx.addIssue({ code: 'custom', path: ['template'], message: '使用模板时不要再填写 content' });
  }
}

export const NewMessageBody = z
  .object({
    title: z.string().trim().max(256, '标题最多 256 个字符').optional().default(''),
    /** Required unless a template is used. */
    content: z.string({ error: '请输入内容' }).min(1, '请输入内容').optional(),
    type: z.enum(['text', 'markdown']).default('markdown'),
    ...routingShape,
    /** ISO time or epoch milliseconds; between now and 30 days ahead. */
    sendAt: z.union([z.string().max(40), z.number()]).optional(),
    atMobiles: z
      .array(z.string().regex(/^\+?\d{5,20}$/, '手机号格式不正确'))
      .max(20)
      .optional(),
    isAtAll: z.boolean().optional(),
  })
  .superRefine(oneRoute);
export type NewMessageBody = z.input<typeof NewMessageBody>;

/**
 * The curl-friendly API: the same fields as query, form or JSON; `token` may come along. The
 * idempotency key may also come as the `Idempotency-Key` header.
 */
export const SendApiInput = z
  .object({
    token: z.string().max(200).optional(),
    title: z.string().trim().max(256, '标题最多 256 个字符').optional().default(''),
    content: z.string({ error: '缺少 content' }).min(1, '缺少 content').optional(),
    type: z.enum(['text', 'markdown']).default('markdown'),
    ...routingShape,
    sendAt: z.union([z.string().max(40), z.number()]).optional(),
  })
  .superRefine(oneRoute);

export const MessageCreated = z.object({
  id: z.number().int(),
  status: MessageStatus,
  /** The idempotency key was seen before: this is the first message, nothing new was queued. */
  duplicate: z.boolean().optional(),
  /** A fan-out: one message per channel (the first is `id`). */
  deliveries: z.array(z.object({ id: z.number().int(), channelId: z.number().int() })).optional(),
});
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
  /** The channel of this attempt (a fallback chain moves from channel to channel). */
  channelId: z.number().int().nullable(),
  channelKind: ChannelKind.nullable(),
  /**
   * pending: under way; interrupted: its server stopped during it (the message was taken over and sent
   * again), so whether it arrived is unknown.
   */
  outcome: z.enum(['pending', 'interrupted', 'delivered', 'permanent', 'rate_limited', 'transient']),
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
  /** digest: a merge of messages pacing held back (see digestId of those). */
  /** `notification`: a notification of the portal its owner has forwarded to the channel. */
  source: z.enum(['ui', 'api', 'digest', 'notification']),
  createdAt: Iso,
  deliveredAt: Iso.nullable(),
  priority: Priority,
  /** The first message of the fan-out this one belongs to; null when sent to one channel. */
  groupId: z.number().int().nullable(),
  /** Channels still to try, in order, if the current one fails for good. */
  fallbackChannelIds: z.array(z.number().int()),
  /** When its owner read it in 消息查询; null: unread. */
  readAt: Iso.nullable(),
  /** The digest this message was merged into; its outcome becomes this message's. */
  digestId: z.number().int().nullable(),
  callbackUrl: z.string().nullable(),
  /** The callback of the final outcome: pending (sending or retrying), sent, or failed after its retries. */
  callback: z
    .object({
      status: z.enum(['pending', 'sent', 'failed']),
      attempts: z.number().int(),
      error: z.string().nullable(),
      sentAt: Iso.nullable(),
      nextAt: Iso.nullable(),
    })
    .nullable(),
});
export type MessageSummary = z.infer<typeof MessageSummary>;
export const MessageDetail = MessageSummary.extend({ attemptLog: z.array(MessageAttempt) });
export type MessageDetail = z.infer<typeof MessageDetail>;
export const MessageDetailResponse = ok(MessageDetail);

export const MessageListQuery = PageQuery.extend({
  status: MessageStatus.optional(),
  read: z.enum(['read', 'unread']).optional(),
  channel: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  keyword: z.string().trim().max(100).optional(),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
});
export const MessageListResponse = page(MessageSummary);
export const MessageActionResponse = ok(MessageCreated);
/** How many messages changed to read. */
export const MarkReadResponse = ok(z.object({ updated: z.number().int(), unread: z.number().int() }));

// ---------- delivery callbacks ----------

/**
 * The user's callback signing secret, shown to its owner: each callback carries
 * `X-Portal-Signature: sha256=<hex of HMAC-SHA256(secret, timestamp + "." + body)>` and `X-Portal-Timestamp`.
 */
export const CallbackSecret = z.object({ secret: z.string(), createdAt: Iso });
export type CallbackSecret = z.infer<typeof CallbackSecret>;
export const CallbackSecretResponse = ok(CallbackSecret);

/** What a callback POSTs (JSON). */
export const CallbackPayload = z.object({
  event: z.literal('ums.message.final'),
  messageId: z.number().int(),
  status: z.enum(['delivered', 'failed', 'cancelled']),
  /** Why it failed or was cancelled; null when delivered. */
  reason: z.string().nullable(),
  deliveredAt: Iso.nullable(),
  attempts: z.number().int(),
  channel: z.object({ id: z.number().int(), kind: ChannelKind, name: z.string() }).nullable(),
  groupId: z.number().int().nullable(),
  title: z.string(),
  /** Milliseconds, as in X-Portal-Timestamp. */
  timestamp: z.number().int(),
});
export type CallbackPayload = z.infer<typeof CallbackPayload>;

// ---------- drop-in compatible endpoints (ServerChan, PushPlus) ----------

/** `/<sendkey>.send`: the SendKey is a personal token with scope ums:send. */
export const SendKeyParams = z.object({ sendkey: z.string().min(1).max(200, 'SendKey 过长') });
/** PushPlus's `/send/<token>`. */
export const PushPlusTokenParams = z.object({ token: z.string().min(1).max(200, 'token 过长') });

/**
 * ServerChan's fields (query, form or JSON): `title` (or the old `text`) and the markdown `desp`.
 * Its `short`, `noip`, `channel` and `openid` name ServerChan's own features and are ignored.
 */
/** ServerChan/PushPlus-style `timestamp` (milliseconds): the same value again is the same message. */
export const CompatTimestamp = z.union([
  z.string().regex(/^\d{1,16}$/, 'timestamp 应为毫秒时间戳'),
  z.number().int().nonnegative(),
]);

export const ServerChanInput = z.object({
  title: z.string().trim().max(256, 'title 最多 256 个字符').optional(),
  text: z.string().trim().max(256, 'text 最多 256 个字符').optional(),
  desp: z.string().optional(),
  timestamp: CompatTimestamp.optional(),
});
export type ServerChanInput = z.infer<typeof ServerChanInput>;

/** ServerChan's answer: `code` 0 on success; otherwise the HTTP status, with `message` saying why. */
export const ServerChanAnswer = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z
    .object({
      /** The portal's message id. */
      pushid: z.string(),
      /** ServerChan's key for reading a push back; the portal reads messages by id with the token instead. */
      readkey: z.string(),
      error: z.string(),
      errno: z.number().int(),
    })
    .nullable(),
});

export const PUSHPLUS_TEMPLATES = ['html', 'txt', 'json', 'markdown'] as const;
/**
 * PushPlus's fields (query, form or JSON). `template` picks how `content` is read; `topic` names one of
 * the sender's channels (by name or id) instead of the default. PushPlus's `channel`, `webhook`, `to` and
 * `pre` name its own features and are ignored.
 */
export const PushPlusInput = z.object({
  token: z.string().max(200).optional(),
  title: z.string().trim().max(256, 'title 最多 256 个字符').optional().default(''),
  content: z.string({ error: '缺少 content' }).min(1, '缺少 content'),
  template: z
    .enum(PUSHPLUS_TEMPLATES, { error: 'template 只能是 html、txt、json 或 markdown' })
    .optional()
    .default('html'),
  topic: z.string().trim().max(64, 'topic 最多 64 个字符').optional(),
  timestamp: CompatTimestamp.optional(),
  /** The final outcome is POSTed here (the portal's signed callback, not PushPlus's body). */
  callbackUrl: z.string().trim().min(1).max(500, 'callbackUrl 最多 500 个字符').optional(),
});
export type PushPlusInput = z.infer<typeof PushPlusInput>;

/** PushPlus's answer: `code` 200 and the message id in `data`; its documented codes otherwise (903 bad token…). */
export const PushPlusAnswer = z.object({ code: z.number().int(), msg: z.string(), data: z.string().nullable() });

// ---------- overview ----------

export const UmsStats = z.object({
  byStatus: z.record(z.string(), z.number().int()),
  /** Messages not yet read in 消息查询. */
  unread: z.number().int(),
  daily: z.array(z.object({ day: z.string(), delivered: z.number().int(), failed: z.number().int() })),
  channels: z.array(
    Channel.pick({
      id: true,
      kind: true,
      name: true,
      health: true,
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

/** What the portal's home shows of UMS: the caller's inbox, and the outbox's state for administrators. */
export const UmsHomeSummary = z.object({
  /** The caller's messages not yet read in 消息查询. */
  unread: z.number().int(),
  /** The caller's messages that failed for good (status failed). */
  failed: z.number().int(),
  /** The caller's five newest messages. */
  latest: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      status: MessageStatus,
      createdAt: z.string(),
      read: z.boolean(),
    }),
  ),
  /** Administrators only (every user's messages); null for everyone else. */
  admin: z
    .object({
      /** Messages waiting in the outbox: queued (or scheduled), sending, merged into a digest. */
      waiting: z.number().int(),
      /** Messages whose last attempt failed and that will be tried again. */
      retrying: z.number().int(),
      /** Messages that failed for good in the last 24 hours. */
      failedLastDay: z.number().int(),
    })
    .nullable(),
});
export type UmsHomeSummary = z.infer<typeof UmsHomeSummary>;
export const UmsHomeSummaryResponse = ok(UmsHomeSummary);

export const DeleteChannelResponse = OkEmpty;
