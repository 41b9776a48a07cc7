/**
 * Dev mocks of UMS (`npm run dev`), typed by src/contract/ums.ts and validating bodies with its
 * schemas. A queued message "arrives" a couple of seconds after it is due, unless its content
 * contains 失败 (then DingTalk's 310000 keyword error). Channel 2's robot rejects test messages.
 * Channels of every kind can be added (e-mail as if SMTP_URL were set). tests/mock validates every answer.
 */
import type { z } from 'zod';
import {
  CHANNEL_KIND_LABELS,
  CHANNEL_KINDS,
  ChannelBody,
  channelFieldIssues,
  ChannelPatchBody,
  DEFAULT_SUCCESS_STATUS,
  DEFAULT_WEBHOOK_TEMPLATE,
  fillMessageTemplate,
  messageTemplateVariables,
  TemplateBody,
  TemplatePatchBody,
  NewMessageBody,
  SendApiInput,
  UMS_EMAIL_CONFIRM_HOURS,
  UMS_MAX_MESSAGE_BYTES,
  EmailConfirmBody,
  type EmailConfirmResponse,
  type Channel,
  type ChannelKindListResponse,
  type ChannelListResponse,
  type ChannelResponse,
  type ChannelTestResponse,
  type DeleteChannelResponse,
  type MessageActionResponse,
  type MessageAttempt,
  type MessageCreatedResponse,
  type MessageDetail,
  type MessageDetailResponse,
  type MarkReadResponse,
  type MessageListResponse,
  type CallbackSecretResponse,
  type Template,
  type TemplateListResponse,
  type TemplateResponse,
  type Priority,
  type PushPlusAnswer,
  type ServerChanAnswer,
  type UmsHomeSummaryResponse,
  type UmsStatsResponse,
} from '../src/contract';
import { fail, parse, type Req, type Res } from './_lib/http';
import * as umsApi from '../src/contract/api/ums';
import { defineMocks, on } from './_lib/endpoint';

const DELIVERY_DELAY_MS = 2000;
const iso = (ms: number) => new Date(ms).toISOString();
const ago = (minutes: number) => iso(Date.now() - minutes * 60_000);

const mask = (s: string) => (s.length <= 8 ? '…' : `${s.slice(0, 4)}…${s.slice(-4)}`);
const WEBHOOK = /^https:\/\/oapi\.dingtalk\.com\/robot\/send\?access_token=([A-Za-z0-9]{16,128})$/;
const maskWebhook = (w: string) =>
  w.replace(WEBHOOK, (_m, t: string) => `https://oapi.dingtalk.com/robot/send?access_token=${mask(t)}`);

const NO_HEALTH = { attempts: 0, delivered: 0, successRate: null };

let channels: Channel[] = [
  {
    id: 1,
    kind: 'dingtalk',
    name: '我的提醒群',
    webhookMasked: 'https://oapi.dingtalk.com/robot/send?access_token=3f9a…c1d2',
    hasSecret: true,
    secretMasked: 'SEC8…9f3a',
    keyword: null,
    isDefault: true,
    createdAt: ago(60 * 24 * 20),
    throttledUntil: null,
    lastSuccessAt: ago(30),
    lastErrorAt: null,
    lastError: null,
    webhookSettings: null,
    health: { attempts: 25, delivered: 24, successRate: 0.96 },
    quietHours: null,
    digestAfterSeconds: null,
    emailConsent: null,
  },
  {
    id: 2,
    kind: 'dingtalk',
    name: '值班群',
    webhookMasked: 'https://oapi.dingtalk.com/robot/send?access_token=88ab…07ef',
    hasSecret: false,
    secretMasked: null,
    keyword: '告警',
    isDefault: false,
    createdAt: ago(60 * 24 * 3),
    throttledUntil: null,
    lastSuccessAt: null,
    lastErrorAt: ago(90),
    lastError: '消息中没有机器人安全设置里的关键词（310000）',
    webhookSettings: null,
    health: { attempts: 1, delivered: 0, successRate: 0 },
    quietHours: { start: '22:00', end: '07:00' },
    digestAfterSeconds: 120,
    emailConsent: null,
  },
];
let nextChannelId = 3;

/**
 * An e-mail channel's confirmation link: the mock sends no mail, so it logs the link a developer
 * opens to play the address's owner. Tokens are predictable (`mockconfirm` + the channel's id,
 * padded) so that tests/mock can open one.
 */
const confirmToken = (id: number) => `mockconfirm${id}`.padEnd(20, '0');
const confirmLinks = new Map<string, number>();
function pendingConsent(id: number): Channel['emailConsent'] {
  const token = confirmToken(id);
  confirmLinks.set(token, id);
  console.log(`[mock] 确认邮件链接：/UMS/confirmEmail#token=${token}`);
  const now = Date.now();
  return {
    confirmed: false,
    confirmedAt: null,
    sentAt: iso(now),
    expiresAt: iso(now + UMS_EMAIL_CONFIRM_HOURS * 3600_000),
  };
}
const unconfirmed = (c: Channel | undefined) => Boolean(c?.emailConsent && !c.emailConsent.confirmed);

const attempt = (
  id: number,
  minutesAgo: number,
  outcome: MessageAttempt['outcome'],
  errcode: number | null,
  errmsg: string,
  detail: string | null = null,
): MessageAttempt => ({
  id,
  at: ago(minutesAgo),
  httpStatus: errcode === null ? null : 200,
  errcode,
  errmsg,
  detail,
  durationMs: 120 + id * 7,
  channelId: 1,
  channelKind: 'dingtalk',
  outcome,
});

type Stored = MessageDetail & { userId: number };
const seed = (
  m: Partial<MessageDetail> & Pick<MessageDetail, 'id' | 'title' | 'content' | 'status'>,
  minutesAgo: number,
): Stored => ({
  type: 'markdown',
  channelId: 1,
  channelName: '我的提醒群',
  attempts: m.attemptLog?.length ?? 0,
  sendAt: null,
  nextAttemptAt: null,
  lastError: null,
  source: 'ui',
  createdAt: ago(minutesAgo),
  deliveredAt: null,
  attemptLog: [],
  userId: 1,
  priority: 'normal',
  groupId: null,
  fallbackChannelIds: [],
  readAt: null,
  digestId: null,
  callbackUrl: null,
  callback: null,
  ...m,
});
let messages: Stored[] = [
  seed(
    {
      id: 1,
      title: '构建完成',
      content: '**portal** 全部测试通过',
      status: 'delivered',
      deliveredAt: ago(60 * 26),
      attemptLog: [attempt(1, 60 * 26, 'delivered', 0, 'ok')],
    },
    60 * 26,
  ),
  seed(
    {
      id: 2,
      title: '服务器告警',
      content: 'CPU 超过 90%',
      status: 'failed',
      channelId: 2,
      channelName: '值班群',
      source: 'api',
      lastError: '消息中没有机器人安全设置里的关键词（310000）',
      attemptLog: [attempt(2, 90, 'permanent', 310000, 'keywords not in content')],
    },
    90,
  ),
  seed(
    {
      id: 3,
      title: '日报',
      content: '今日完成 3 项',
      status: 'retrying',
      nextAttemptAt: iso(Date.now() + 60_000),
      lastError: '钉钉服务繁忙（-1）',
      attemptLog: [
        attempt(
          5,
          3,
          'transient',
          null,
          '网络错误：无法连接钉钉服务器',
          'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:443',
        ),
        attempt(3, 2, 'transient', -1, 'system busy'),
      ],
    },
    3,
  ),
  seed(
    { id: 4, title: '明早例会', content: '9 点 302 会议室', status: 'queued', sendAt: iso(Date.now() + 20 * 3600_000) },
    10,
  ),
  seed({ id: 5, title: '', content: '不用发了', type: 'text', status: 'cancelled' }, 60 * 50),
  seed(
    {
      id: 6,
      title: '',
      content: '记得买牛奶',
      type: 'text',
      status: 'delivered',
      deliveredAt: ago(60 * 72),
      attemptLog: [attempt(4, 60 * 72, 'delivered', 0, 'ok')],
    },
    60 * 72,
  ),
];
let nextMessageId = 7;
let nextAttemptId = 6;

/** What the delivery worker would have done by now. */
function advance() {
  const now = Date.now();
  messages = messages.map((m) => {
    if (m.status !== 'queued') return m;
    const due = Math.max(
      new Date(m.createdAt).getTime() + DELIVERY_DELAY_MS,
      m.sendAt ? new Date(m.sendAt).getTime() : 0,
    );
    if (due > now) return m;
    const bad = m.content.includes('失败');
    const a: MessageAttempt = {
      id: nextAttemptId++,
      at: iso(now),
      httpStatus: 200,
      errcode: bad ? 310000 : 0,
      errmsg: bad ? 'keywords not in content' : 'ok',
      detail: null,
      durationMs: 150,
      channelId: m.channelId,
      channelKind: channels.find((c) => c.id === m.channelId)?.kind ?? null,
      outcome: bad ? 'permanent' : 'delivered',
    };
    return {
      ...m,
      status: bad ? 'failed' : 'delivered',
      attempts: m.attempts + 1,
      attemptLog: [...m.attemptLog, a],
      nextAttemptAt: null,
      lastError: bad ? '消息中没有机器人安全设置里的关键词（310000）' : null,
      deliveredAt: bad ? null : iso(now),
    };
  });
}

const summary = ({ attemptLog: _a, userId: _u, ...m }: Stored) => m;
const detail = ({ userId: _u, ...m }: Stored): MessageDetail => m;
const channelOf = (req: Req) => channels.find((c) => c.id === Number(req.params?.id));
const messageOf = (req: Req) => messages.find((m) => m.id === Number(req.params?.id));
const bytes = (title: string, content: string) => Buffer.byteLength(title, 'utf8') + Buffer.byteLength(content, 'utf8');
const dayOf = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date(ms));

let templates: Template[] = [
  {
    id: 1,
    name: '构建结果',
    title: '{{project}} 构建{{result}}',
    content: '分支 **{{branch}}**：{{result}}',
    type: 'markdown',
    variables: ['project', 'result', 'branch'],
    createdAt: ago(60 * 24 * 5),
    updatedAt: ago(60 * 24 * 5),
  },
];
let nextTemplateId = 2;

let callbackSecret = { secret: 'whsec_mockS3cr3tValue0123456789abcd', createdAt: ago(60 * 24) };

const seenKeys = new Map<string, z.infer<typeof MessageCreatedResponse>['data']>();

function enqueue(
  res: Res,
  input: {
    title: string;
    content?: string;
    template?: string;
    vars?: Record<string, string>;
    type: 'text' | 'markdown';
    channel?: number;
    channels?: number[];
    fallback?: number[];
    priority?: Priority;
    idempotencyKey?: string;
    sendAt?: string | number;
  },
  source: 'ui' | 'api',
) {
  const seen = input.idempotencyKey ? seenKeys.get(input.idempotencyKey) : undefined;
  if (seen) return res.json({ success: true, data: { ...seen, duplicate: true } });
  if (input.template) {
    const t = templates.find((x) => String(x.id) === input.template || x.name === input.template);
    if (!t) return fail(res, 400, 'BAD_REQUEST', `没有名为「${input.template}」的模板`, { template: ['模板不存在'] });
    const title = fillMessageTemplate(t.title, input.vars ?? {});
    const content = fillMessageTemplate(t.content, input.vars ?? {});
    const missing = [...new Set([...title.missing, ...content.missing])];
    if (missing.length)
      return fail(res, 400, 'BAD_REQUEST', `模板「${t.name}」缺少变量：${missing.join('、')}`, {
        vars: [`缺少变量：${missing.join('、')}`],
      });
    input = { ...input, title: input.title || title.text, content: content.text, type: t.type };
  }
  const text = input.content ?? '';
  const named = input.channels ?? input.fallback;
  if (named && !named.every((id) => channels.some((c) => c.id === id)))
    return fail(res, 400, 'BAD_REQUEST', '渠道不存在', { [input.channels ? 'channels' : 'fallback']: ['渠道不存在'] });
  if (named) input = { ...input, channel: named[0] };
  const size = bytes(input.title, text);
  if (size > UMS_MAX_MESSAGE_BYTES) {
    return fail(res, 400, 'BAD_REQUEST', `消息过大：${size} 字节，最多 ${UMS_MAX_MESSAGE_BYTES} 字节（UTF-8）`, {
      content: [`消息最多 ${UMS_MAX_MESSAGE_BYTES} 字节`],
    });
  }
  const channel =
    input.channel !== undefined ? channels.find((c) => c.id === input.channel) : channels.find((c) => c.isDefault);
  if (!channel) {
    return input.channel !== undefined
      ? fail(res, 400, 'BAD_REQUEST', '渠道不存在', { channel: ['渠道不存在'] })
      : fail(res, 400, 'BAD_REQUEST', '还没有推送渠道，请先在“我的推送”中添加渠道', {
          channel: ['请先添加渠道'],
        });
  }
  const sendAt =
    input.sendAt === undefined || input.sendAt === ''
      ? null
      : new Date(typeof input.sendAt === 'number' ? input.sendAt : input.sendAt);
  if (sendAt && Number.isNaN(sendAt.getTime()))
    return fail(res, 400, 'BAD_REQUEST', '定时发送时间格式不正确', { sendAt: ['时间格式不正确'] });
  const targets = input.channels ? input.channels.map((id) => channels.find((c) => c.id === id)!) : [channel];
  const pending = [...targets, ...(input.fallback ?? []).map((id) => channels.find((c) => c.id === id))].find(
    unconfirmed,
  );
  if (pending) {
    const why = `渠道「${pending.name}」的邮箱尚未确认：收件人打开确认邮件中的链接后才能向它发送`;
    return fail(res, 409, 'CONFLICT', why, {
      [input.channels ? 'channels' : input.fallback ? 'fallback' : 'channel']: [why],
    });
  }
  const groupId = targets.length > 1 ? nextMessageId : null;
  const created = targets.map((c) =>
    seed(
      {
        id: nextMessageId++,
        title: input.title,
        content: text,
        type: input.type,
        status: 'queued',
        source,
        channelId: c.id,
        channelName: c.name,
        priority: input.priority ?? 'normal',
        groupId,
        fallbackChannelIds: input.fallback?.slice(1) ?? [],
        sendAt: sendAt && sendAt.getTime() > Date.now() ? sendAt.toISOString() : null,
      },
      0,
    ),
  );
  messages = [...created.reverse(), ...messages];
  created.reverse();
  const data: z.infer<typeof MessageCreatedResponse>['data'] = {
    id: created[0].id,
    status: 'queued',
    ...(groupId ? { deliveries: created.map((m) => ({ id: m.id, channelId: m.channelId! })) } : {}),
  };
  if (input.idempotencyKey) seenKeys.set(input.idempotencyKey, data);
  const body: z.infer<typeof MessageCreatedResponse> = { success: true, data };
  res.json(body);
}

function sendApi(req: Req, res: Res) {
  const bearer = req.headers?.authorization?.replace(/^Bearer\s+/i, '');
  if (!bearer && !req.query?.token && !req.body?.token) return fail(res, 401, 'UNAUTHORIZED', '缺少令牌');
  const input = parse(SendApiInput, { ...(req.query ?? {}), ...(req.body ?? {}) }, res);
  if (input) enqueue(res, input, 'api');
}

/** ServerChan's /<sendkey>.send: any key works in the mock; refusals in ServerChan's shape. */
function serverChan(req: Req, res: Res) {
  const f = { ...(req.query ?? {}), ...(req.body ?? {}) } as Record<string, string | undefined>;
  const title = f.title || f.text || '';
  const answer = (status: number, body: z.infer<typeof ServerChanAnswer>) => res.status(status).json(body);
  if (!title && !f.desp?.trim()) return answer(400, { code: 400, message: '缺少 title', data: null });
  const m = seed(
    {
      id: nextMessageId++,
      title: f.desp ? title : '',
      content: f.desp || title,
      type: f.desp ? 'markdown' : 'text',
      status: 'queued',
      source: 'api',
    },
    0,
  );
  messages = [m, ...messages];
  answer(200, { code: 0, message: '', data: { pushid: String(m.id), readkey: '', error: 'SUCCESS', errno: 0 } });
}

/** PushPlus's /send: a token is required (any value); refusals in PushPlus's codes. */
function pushPlus(req: Req, res: Res) {
  const f = { ...(req.query ?? {}), ...(req.body ?? {}) } as Record<string, string | undefined>;
  const answer = (status: number, body: z.infer<typeof PushPlusAnswer>) => res.status(status).json(body);
  if (!f.token && !req.params?.token) return answer(401, { code: 903, msg: '缺少访问令牌', data: null });
  if (!f.content) return answer(400, { code: 999, msg: '输入有误：缺少 content', data: null });
  const m = seed(
    {
      id: nextMessageId++,
      title: f.title ?? '',
      content: f.content,
      type: f.template === 'txt' ? 'text' : 'markdown',
      status: 'queued',
      source: 'api',
    },
    0,
  );
  messages = [m, ...messages];
  answer(200, { code: 200, msg: '请求成功', data: String(m.id) });
}

export default defineMocks(
  on(umsApi.listChannels, (_req, res) => {
    const body: z.infer<typeof ChannelListResponse> = { success: true, data: channels };
    res.json(body);
  }),
  on(umsApi.channelKinds, (_req, res) => {
    const body: z.infer<typeof ChannelKindListResponse> = {
      success: true,
      data: CHANNEL_KINDS.map((kind) => ({
        kind,
        label: CHANNEL_KIND_LABELS[kind],
        available: true,
        reason: null,
        pacing: kind === 'feishu' ? '每个机器人每分钟最多 100 条、每秒最多 5 条' : '每分钟最多 20 条',
      })),
    };
    res.json(body);
  }),
  on(umsApi.createChannel, (req, res) => {
    const b = parse(ChannelBody, req.body, res);
    if (!b) return;
    if (b.kind === 'dingtalk' && !WEBHOOK.test(b.webhook ?? ''))
      return fail(res, 400, 'BAD_REQUEST', '只接受钉钉机器人地址 https://oapi.dingtalk.com/robot/send?access_token=…', {
        webhook: ['只接受钉钉机器人 Webhook 地址'],
      });
    const makeDefault = channels.length === 0 || Boolean(b.isDefault);
    if (makeDefault) channels = channels.map((c) => ({ ...c, isDefault: false }));
    const ch: Channel = {
      id: nextChannelId++,
      kind: b.kind,
      name: b.name,
      webhookMasked: b.kind === 'email' ? (b.email ?? '') : maskWebhook(b.webhook ?? ''),
      hasSecret: Boolean(b.secret),
      secretMasked: b.secret ? mask(b.secret) : null,
      keyword: b.keyword || null,
      isDefault: makeDefault,
      createdAt: iso(Date.now()),
      throttledUntil: null,
      lastSuccessAt: null,
      lastErrorAt: null,
      lastError: null,
      webhookSettings:
        b.kind === 'webhook'
          ? {
              method: b.method ?? 'POST',
              headers: (b.headers ?? []).map((h) => ({ name: h.name, valueMasked: mask(h.value) })),
              bodyTemplate: b.bodyTemplate ?? DEFAULT_WEBHOOK_TEMPLATE,
              successStatus: b.successStatus || DEFAULT_SUCCESS_STATUS,
              successPath: b.successPath || null,
              successValue: b.successValue || null,
              perMinute: b.perMinute ?? 60,
            }
          : null,
      health: NO_HEALTH,
      quietHours: b.quietStart && b.quietEnd ? { start: b.quietStart, end: b.quietEnd } : null,
      digestAfterSeconds: b.digestAfterSeconds ?? null,
      emailConsent: null,
    };
    if (b.kind === 'email') ch.emailConsent = pendingConsent(ch.id);
    channels = [...channels, ch];
    const body: z.infer<typeof ChannelResponse> = { success: true, data: ch };
    res.json(body);
  }),
  on(umsApi.updateChannel, (req, res) => {
    const ch = channelOf(req);
    if (!ch) return fail(res, 404, 'NOT_FOUND', '渠道不存在');
    const b = parse(ChannelPatchBody, req.body, res);
    if (!b) return;
    const issues = channelFieldIssues(ch.kind, b, 'update');
    if (issues.length)
      return fail(res, 400, 'BAD_REQUEST', `输入有误：${issues[0].message}`, {
        [issues[0].path]: [issues[0].message],
      });
    if (ch.kind === 'dingtalk' && b.webhook !== undefined && !WEBHOOK.test(b.webhook))
      return fail(res, 400, 'BAD_REQUEST', 'Webhook 地址格式不正确', { webhook: ['只接受钉钉机器人 Webhook 地址'] });
    const next: Channel = {
      ...ch,
      ...(b.name !== undefined ? { name: b.name } : {}),
      ...(b.webhook !== undefined ? { webhookMasked: maskWebhook(b.webhook) } : {}),
      ...(b.secret !== undefined
        ? { hasSecret: Boolean(b.secret), secretMasked: b.secret ? mask(b.secret) : null }
        : {}),
      ...(b.keyword !== undefined ? { keyword: b.keyword || null } : {}),
      ...(ch.kind === 'email' && b.email !== undefined ? { webhookMasked: b.email } : {}),
      ...(b.quietStart !== undefined && b.quietEnd !== undefined
        ? { quietHours: b.quietStart ? { start: b.quietStart, end: b.quietEnd } : null }
        : {}),
      ...(b.digestAfterSeconds !== undefined ? { digestAfterSeconds: b.digestAfterSeconds } : {}),
    };
    if (next.webhookSettings) {
      const w = next.webhookSettings;
      next.webhookSettings = {
        method: b.method ?? w.method,
        headers: b.headers ? b.headers.map((h) => ({ name: h.name, valueMasked: mask(h.value) })) : w.headers,
        bodyTemplate: b.bodyTemplate ?? w.bodyTemplate,
        successStatus: b.successStatus || w.successStatus,
        successPath: b.successPath !== undefined ? b.successPath || null : w.successPath,
        successValue: b.successValue !== undefined ? b.successValue || null : w.successValue,
        perMinute: b.perMinute ?? w.perMinute,
      };
    }
    if (ch.kind === 'email' && b.email !== undefined && b.email.toLowerCase() !== ch.webhookMasked.toLowerCase())
      next.emailConsent = pendingConsent(ch.id);
    if (b.isDefault) channels = channels.map((c) => ({ ...c, isDefault: false }));
    if (b.isDefault) next.isDefault = true;
    channels = channels.map((c) => (c.id === ch.id ? next : c));
    const body: z.infer<typeof ChannelResponse> = { success: true, data: channels.find((c) => c.id === ch.id)! };
    res.json(body);
  }),
  on(umsApi.resendConfirmation, (req, res) => {
    const ch = channelOf(req);
    if (!ch) return fail(res, 404, 'NOT_FOUND', '渠道不存在');
    if (ch.kind !== 'email') return fail(res, 409, 'CONFLICT', '只有邮件渠道需要确认');
    if (!unconfirmed(ch)) return fail(res, 409, 'CONFLICT', '该邮箱已确认，无需再次发送');
    const next: Channel = { ...ch, emailConsent: pendingConsent(ch.id) };
    channels = channels.map((c) => (c.id === ch.id ? next : c));
    const body: z.infer<typeof ChannelResponse> = { success: true, data: next };
    res.json(body);
  }),
  on(umsApi.confirmEmail, (req, res) => {
    const b = parse(EmailConfirmBody, req.body, res);
    if (!b) return;
    const ch = channels.find((c) => c.id === confirmLinks.get(b.token));
    if (!ch?.emailConsent)
      return fail(res, 400, 'BAD_REQUEST', '确认链接无效：请从邮件中完整复制链接（渠道被删除后，链接也不再有效）', {
        token: ['链接无效'],
      });
    if (ch.emailConsent.confirmed)
      return fail(res, 409, 'ALREADY_CONFIRMED', '这个链接已经用过了：该邮箱已确认接收推送，无需再次确认');
    const at = iso(Date.now());
    channels = channels.map((c) =>
      c.id === ch.id ? { ...c, emailConsent: { ...ch.emailConsent!, confirmed: true, confirmedAt: at } } : c,
    );
    const body: z.infer<typeof EmailConfirmResponse> = {
      success: true,
      data: { email: ch.webhookMasked, channelName: ch.name, owner: '演示用户' },
    };
    res.json(body);
  }),
  on(umsApi.deleteChannel, (req, res) => {
    const ch = channelOf(req);
    if (!ch) return fail(res, 404, 'NOT_FOUND', '渠道不存在');
    const pending = messages.filter(
      (m) => m.channelId === ch.id && ['queued', 'sending', 'retrying'].includes(m.status),
    ).length;
    if (pending > 0) return fail(res, 409, 'CONFLICT', `该渠道还有 ${pending} 条待发送的消息，请先取消它们`);
    channels = channels.filter((c) => c.id !== ch.id);
    if (ch.isDefault && channels[0]) channels[0] = { ...channels[0], isDefault: true };
    messages = messages.map((m) => (m.channelId === ch.id ? { ...m, channelId: null, channelName: null } : m));
    const body: z.infer<typeof DeleteChannelResponse> = { success: true };
    res.json(body);
  }),
  on(umsApi.testChannel, (req, res) => {
    const ch = channelOf(req);
    if (!ch) return fail(res, 404, 'NOT_FOUND', '渠道不存在');
    if (unconfirmed(ch))
      return fail(res, 409, 'CONFLICT', '该邮箱尚未确认，不能发送测试消息：收件人打开确认邮件中的链接后才能发送');
    const ok = ch.id !== 2;
    const at = iso(Date.now());
    channels = channels.map((c) =>
      c.id !== ch.id
        ? c
        : ok
          ? { ...c, lastSuccessAt: at }
          : { ...c, lastErrorAt: at, lastError: '消息中没有机器人安全设置里的关键词（310000）' },
    );
    const body: z.infer<typeof ChannelTestResponse> = {
      success: true,
      data: ok
        ? { ok, httpStatus: 200, errcode: 0, errmsg: 'ok', durationMs: 183, hint: null, detail: null }
        : {
            ok,
            httpStatus: 200,
            errcode: 310000,
            errmsg: 'keywords not in content',
            durationMs: 164,
            hint: '消息中没有机器人安全设置里的关键词：请检查渠道的关键词是否与钉钉机器人设置一致。',
            detail: null,
          },
    };
    res.json(body);
  }),

  on(umsApi.createMessage, (req, res) => {
    const b = parse(NewMessageBody, req.body, res);
    if (b) enqueue(res, b, 'ui');
  }),
  on(umsApi.listMessages, (req, res) => {
    advance();
    const q = req.query ?? {};
    const keyword = q.keyword?.trim().toLowerCase();
    const from = q.from ? new Date(q.from).getTime() : -Infinity;
    const to = q.to ? new Date(q.to).getTime() : Infinity;
    const rows = messages
      .filter((m) => !q.status || m.status === q.status)
      .filter((m) => !q.read || (q.read === 'read') === Boolean(m.readAt))
      .filter((m) => !q.channel || m.channelId === Number(q.channel))
      .filter((m) => !keyword || m.title.toLowerCase().includes(keyword) || m.content.toLowerCase().includes(keyword))
      .filter((m) => new Date(m.createdAt).getTime() >= from && new Date(m.createdAt).getTime() <= to)
      .sort((a, b) => b.id - a.id);
    const current = Math.max(1, Number(q.current) || 1);
    const pageSize = Math.min(100, Math.max(1, Number(q.pageSize) || 10));
    const body: z.infer<typeof MessageListResponse> = {
      success: true,
      data: rows.slice((current - 1) * pageSize, current * pageSize).map(summary),
      total: rows.length,
      current,
      pageSize,
    };
    res.json(body);
  }),
  on(umsApi.getMessage, (req, res) => {
    advance();
    const m = messageOf(req);
    if (!m) return fail(res, 404, 'NOT_FOUND', '消息不存在');
    const body: z.infer<typeof MessageDetailResponse> = { success: true, data: detail(m) };
    res.json(body);
  }),
  on(umsApi.markRead, (req, res) => {
    const m = messageOf(req);
    if (!m) return fail(res, 404, 'NOT_FOUND', '消息不存在');
    const updated = m.readAt ? 0 : 1;
    messages = messages.map((x) => (x === m ? { ...m, readAt: x.readAt ?? iso(Date.now()) } : x));
    const body: z.infer<typeof MarkReadResponse> = {
      success: true,
      data: { updated, unread: messages.filter((x) => !x.readAt).length },
    };
    res.json(body);
  }),
  on(umsApi.markAllRead, (_req, res) => {
    const updated = messages.filter((x) => !x.readAt).length;
    messages = messages.map((x) => ({ ...x, readAt: x.readAt ?? iso(Date.now()) }));
    const body: z.infer<typeof MarkReadResponse> = { success: true, data: { updated, unread: 0 } };
    res.json(body);
  }),
  on(umsApi.resendMessage, (req, res) => {
    const m = messageOf(req);
    if (!m) return fail(res, 404, 'NOT_FOUND', '消息不存在');
    if (m.status !== 'failed') return fail(res, 409, 'CONFLICT', '只有发送失败的消息可以重新发送');
    messages = messages.map((x) =>
      x === m ? { ...m, status: 'queued', attempts: 0, lastError: null, createdAt: iso(Date.now()) } : x,
    );
    const body: z.infer<typeof MessageActionResponse> = { success: true, data: { id: m.id, status: 'queued' } };
    res.json(body);
  }),
  on(umsApi.cancelMessage, (req, res) => {
    const m = messageOf(req);
    if (!m) return fail(res, 404, 'NOT_FOUND', '消息不存在');
    if (m.status !== 'queued' && m.status !== 'retrying')
      return fail(res, 409, 'CONFLICT', '只有排队中、定时或等待重试的消息可以取消');
    messages = messages.map((x) => (x === m ? { ...m, status: 'cancelled', nextAttemptAt: null } : x));
    const body: z.infer<typeof MessageActionResponse> = { success: true, data: { id: m.id, status: 'cancelled' } };
    res.json(body);
  }),
  // The mock's user is an administrator (mock/user.ts) and the only sender: the outbox is their messages.
  on(umsApi.homeSummary, (_req, res) => {
    advance();
    const count = (...statuses: string[]) => messages.filter((m) => statuses.includes(m.status)).length;
    const dayAgo = Date.now() - 86_400_000;
    const body: z.infer<typeof UmsHomeSummaryResponse> = {
      success: true,
      data: {
        unread: messages.filter((m) => !m.readAt).length,
        failed: count('failed'),
        latest: [...messages]
          .sort((a, b) => b.id - a.id)
          .slice(0, 5)
          .map((m) => ({ id: m.id, title: m.title, status: m.status, createdAt: m.createdAt, read: !!m.readAt })),
        admin: {
          waiting: count('queued', 'sending', 'merged'),
          retrying: count('retrying'),
          failedLastDay: messages.filter((m) => m.status === 'failed' && Date.parse(m.createdAt) > dayAgo).length,
        },
      },
    };
    res.json(body);
  }),
  on(umsApi.stats, (_req, res) => {
    advance();
    const byStatus: Record<string, number> = {};
    for (const m of messages) byStatus[m.status] = (byStatus[m.status] ?? 0) + 1;
    const daily = Array.from({ length: 14 }, (_, i) => {
      const day = dayOf(Date.now() - (13 - i) * 86_400_000);
      const ofDay = messages.filter((m) => dayOf(new Date(m.createdAt).getTime()) === day);
      return {
        day,
        delivered: ofDay.filter((m) => m.status === 'delivered').length,
        failed: ofDay.filter((m) => m.status === 'failed').length,
      };
    });
    const body: z.infer<typeof UmsStatsResponse> = {
      success: true,
      data: {
        byStatus,
        unread: messages.filter((m) => !m.readAt).length,
        daily,
        total: messages.length,
        channels: channels.map(({ id, kind, name, health, lastSuccessAt, lastErrorAt, lastError, throttledUntil }) => ({
          id,
          kind,
          name,
          health,
          lastSuccessAt,
          lastErrorAt,
          lastError,
          throttledUntil,
        })),
      },
    };
    res.json(body);
  }),

  on(umsApi.listTemplates, (_req, res) => {
    const body: z.infer<typeof TemplateListResponse> = { success: true, data: templates };
    res.json(body);
  }),
  on(umsApi.createTemplate, (req, res) => {
    const b = parse(TemplateBody, req.body, res);
    if (!b) return;
    if (templates.some((t) => t.name === b.name))
      return fail(res, 409, 'CONFLICT', `已有名为「${b.name}」的模板`, { name: ['模板名称已存在'] });
    const t: Template = {
      id: nextTemplateId++,
      ...b,
      variables: messageTemplateVariables(b.title, b.content),
      createdAt: iso(Date.now()),
      updatedAt: iso(Date.now()),
    };
    templates = [...templates, t];
    const body: z.infer<typeof TemplateResponse> = { success: true, data: t };
    res.json(body);
  }),
  on(umsApi.updateTemplate, (req, res) => {
    const t = templates.find((x) => x.id === Number(req.params?.id));
    if (!t) return fail(res, 404, 'NOT_FOUND', '模板不存在');
    const b = parse(TemplatePatchBody, req.body, res);
    if (!b) return;
    const next = { ...t, ...b, updatedAt: iso(Date.now()) };
    next.variables = messageTemplateVariables(next.title, next.content);
    templates = templates.map((x) => (x.id === t.id ? next : x));
    const body: z.infer<typeof TemplateResponse> = { success: true, data: next };
    res.json(body);
  }),
  on(umsApi.deleteTemplate, (req, res) => {
    const t = templates.find((x) => x.id === Number(req.params?.id));
    if (!t) return fail(res, 404, 'NOT_FOUND', '模板不存在');
    templates = templates.filter((x) => x !== t);
    const body: z.infer<typeof DeleteChannelResponse> = { success: true };
    res.json(body);
  }),
  on(umsApi.callbackSecret, (_req, res) => {
    const body: z.infer<typeof CallbackSecretResponse> = { success: true, data: callbackSecret };
    res.json(body);
  }),
  on(umsApi.rotateCallbackSecret, (_req, res) => {
    callbackSecret = { secret: `whsec_mock${Math.random().toString(36).slice(2, 14)}`, createdAt: iso(Date.now()) };
    const body: z.infer<typeof CallbackSecretResponse> = { success: true, data: callbackSecret };
    res.json(body);
  }),
  on(umsApi.sendGet, sendApi),
  on(umsApi.sendPost, sendApi),
  on(umsApi.serverChanGet, serverChan),
  on(umsApi.serverChanPost, serverChan),
  on(umsApi.pushPlusGet, pushPlus),
  on(umsApi.pushPlusPost, pushPlus),
  on(umsApi.pushPlusTokenGet, pushPlus),
  on(umsApi.pushPlusTokenPost, pushPlus),
);
