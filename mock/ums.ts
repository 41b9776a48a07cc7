/**
 * Dev mocks of UMS (`npm run dev`), typed by src/contract/ums.ts and validating bodies with its
 * schemas. A queued message "arrives" a couple of seconds after it is due, unless its content
 * contains 失败 (then DingTalk's 310000 keyword error). Channel 2's robot rejects test messages.
 * tests/mock validates every answer.
 */
import type { z } from 'zod';
import {
  ChannelBody,
  ChannelPatchBody,
  NewMessageBody,
  SendApiInput,
  UMS_MAX_MESSAGE_BYTES,
  type Channel,
  type ChannelListResponse,
  type ChannelResponse,
  type ChannelTestResponse,
  type DeleteChannelResponse,
  type MessageActionResponse,
  type MessageAttempt,
  type MessageCreatedResponse,
  type MessageDetail,
  type MessageDetailResponse,
  type MessageListResponse,
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

let channels: Channel[] = [
  {
    id: 1,
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
  },
  {
    id: 2,
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
  },
];
let nextChannelId = 3;

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

function enqueue(
  res: Res,
  input: { title: string; content: string; type: 'text' | 'markdown'; channel?: number; sendAt?: string | number },
  source: 'ui' | 'api',
) {
  const size = bytes(input.title, input.content);
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
      : fail(res, 400, 'BAD_REQUEST', '还没有绑定钉钉机器人，请先在“我的推送”中添加渠道', {
          channel: ['请先绑定渠道'],
        });
  }
  const sendAt =
    input.sendAt === undefined || input.sendAt === ''
      ? null
      : new Date(typeof input.sendAt === 'number' ? input.sendAt : input.sendAt);
  if (sendAt && Number.isNaN(sendAt.getTime()))
    return fail(res, 400, 'BAD_REQUEST', '定时发送时间格式不正确', { sendAt: ['时间格式不正确'] });
  const m = seed(
    {
      id: nextMessageId++,
      title: input.title,
      content: input.content,
      type: input.type,
      status: 'queued',
      source,
      channelId: channel.id,
      channelName: channel.name,
      sendAt: sendAt && sendAt.getTime() > Date.now() ? sendAt.toISOString() : null,
    },
    0,
  );
  messages = [m, ...messages];
  const body: z.infer<typeof MessageCreatedResponse> = { success: true, data: { id: m.id, status: m.status } };
  res.json(body);
}

function sendApi(req: Req, res: Res) {
  const bearer = req.headers?.authorization?.replace(/^Bearer\s+/i, '');
  if (!bearer && !req.query?.token && !req.body?.token) return fail(res, 401, 'UNAUTHORIZED', '缺少令牌');
  const input = parse(SendApiInput, { ...(req.query ?? {}), ...(req.body ?? {}) }, res);
  if (input) enqueue(res, input, 'api');
}

export default defineMocks(
  on(umsApi.listChannels, (_req, res) => {
    const body: z.infer<typeof ChannelListResponse> = { success: true, data: channels };
    res.json(body);
  }),
  on(umsApi.createChannel, (req, res) => {
    const b = parse(ChannelBody, req.body, res);
    if (!b) return;
    if (!WEBHOOK.test(b.webhook))
      return fail(res, 400, 'BAD_REQUEST', '只接受钉钉机器人地址 https://oapi.dingtalk.com/robot/send?access_token=…', {
        webhook: ['只接受钉钉机器人 Webhook 地址'],
      });
    const makeDefault = channels.length === 0 || Boolean(b.isDefault);
    if (makeDefault) channels = channels.map((c) => ({ ...c, isDefault: false }));
    const ch: Channel = {
      id: nextChannelId++,
      name: b.name,
      webhookMasked: maskWebhook(b.webhook),
      hasSecret: Boolean(b.secret),
      secretMasked: b.secret ? mask(b.secret) : null,
      keyword: b.keyword || null,
      isDefault: makeDefault,
      createdAt: iso(Date.now()),
      throttledUntil: null,
      lastSuccessAt: null,
      lastErrorAt: null,
      lastError: null,
    };
    channels = [...channels, ch];
    const body: z.infer<typeof ChannelResponse> = { success: true, data: ch };
    res.json(body);
  }),
  on(umsApi.updateChannel, (req, res) => {
    const ch = channelOf(req);
    if (!ch) return fail(res, 404, 'NOT_FOUND', '渠道不存在');
    const b = parse(ChannelPatchBody, req.body, res);
    if (!b) return;
    if (b.webhook !== undefined && !WEBHOOK.test(b.webhook))
      return fail(res, 400, 'BAD_REQUEST', 'Webhook 地址格式不正确', { webhook: ['只接受钉钉机器人 Webhook 地址'] });
    const next: Channel = {
      ...ch,
      ...(b.name !== undefined ? { name: b.name } : {}),
      ...(b.webhook !== undefined ? { webhookMasked: maskWebhook(b.webhook) } : {}),
      ...(b.secret !== undefined
        ? { hasSecret: Boolean(b.secret), secretMasked: b.secret ? mask(b.secret) : null }
        : {}),
      ...(b.keyword !== undefined ? { keyword: b.keyword || null } : {}),
    };
    if (b.isDefault) channels = channels.map((c) => ({ ...c, isDefault: false }));
    if (b.isDefault) next.isDefault = true;
    channels = channels.map((c) => (c.id === ch.id ? next : c));
    const body: z.infer<typeof ChannelResponse> = { success: true, data: channels.find((c) => c.id === ch.id)! };
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
        daily,
        total: messages.length,
        channels: channels.map(({ id, name, lastSuccessAt, lastErrorAt, lastError, throttledUntil }) => ({
          id,
          name,
          lastSuccessAt,
          lastErrorAt,
          lastError,
          throttledUntil,
        })),
      },
    };
    res.json(body);
  }),

  on(umsApi.sendGet, sendApi),
  on(umsApi.sendPost, sendApi),
);
