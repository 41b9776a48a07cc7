/**
 * The Feishu / Lark (飞书) custom bot: `https://open.feishu.cn/open-apis/bot/v2/hook/<token>` (or
 * open.larksuite.com), the optional signature of 签名校验 (timestamp in seconds, and base64 of
 * HMAC-SHA256 keyed by "timestamp\nsecret" over an empty message, in the body), text, a rich `post`
 * for text with a title and an interactive card for markdown, its codes, and its limits of 100
 * messages a minute and 5 a second per bot (UMS_FEISHU_PER_MINUTE) with a 20 KB request body.
 */
import crypto from 'node:crypto';
import { badRequest } from '../../../errors';
import { maskSecret } from '../../../lib/secretbox';
import { allowListed, robotPaceKey, postToRobot, truncateBytes, withKeyword, type RobotCodes } from './http';
import type { ChannelAdapter, OutgoingMessage } from './types';

const HOSTS = ['https://open.feishu.cn', 'https://open.larksuite.com'];
const HOOK_PATH = /^\/open-apis\/bot\/v2\/hook\/([A-Za-z0-9-]{8,64})$/;
/** The request body may not exceed 20 KB: leave room for the JSON around the content. */
const CONTENT_MAX_BYTES = 18_000;
const PER_SECOND = 5;

export const FEISHU_CODES: RobotCodes = {
  service: '飞书',
  permanent: {
    19001: 'Webhook 地址无效：请检查机器人的 Webhook 地址',
    19002: '请求参数有误',
    19007: '机器人未启用或已被移出群聊',
    19021: '签名校验失败：请检查签名密钥，并确认服务器时间准确（相差不能超过 1 小时）',
    19022: '请求 IP 不在机器人的 IP 白名单中',
    19024: '消息中没有机器人设置的关键词：请检查渠道的关键词是否与飞书机器人设置一致',
    9499: '请求格式不正确（Bad Request）',
  },
  rateLimited: {
    11232: '机器人发送过于频繁（每分钟最多 100 条、每秒最多 5 条），稍后自动继续发送',
  },
  transient: {},
};

export function validateFeishuWebhook(raw: string, allowlist: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('Webhook 地址格式不正确', { webhook: ['Webhook 地址格式不正确'] });
  }
  if (HOSTS.includes(url.origin) && !url.search) {
    if (!HOOK_PATH.test(url.pathname)) {
      throw badRequest('飞书机器人地址应为 …/open-apis/bot/v2/hook/<令牌>', { webhook: ['Webhook 缺少有效的令牌'] });
    }
    return url.toString();
  }
  if (allowListed(raw, allowlist)) return url.toString();
  throw badRequest('只接受飞书机器人地址 https://open.feishu.cn/open-apis/bot/v2/hook/…', {
    webhook: ['只接受飞书（或 Lark）机器人 Webhook 地址'],
  });
}

/** The hook's token is the last path segment: mask it. */
export function maskFeishuWebhook(webhook: string): string {
  const url = new URL(webhook);
  const parts = url.pathname.split('/');
  const last = parts.pop() ?? '';
  return `${url.origin}${[...parts, maskSecret(decodeURIComponent(last))].join('/')}${url.search}`;
}

/** Feishu's 签名校验: base64(HMAC-SHA256(key = timestamp + "\n" + secret, message = "")). */
export function feishuSign(secret: string, timestampSeconds: number): string {
  return crypto.createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');
}

export function feishuBody(m: OutgoingMessage, keyword: string | null): Record<string, unknown> {
  const content = truncateBytes(m.content, CONTENT_MAX_BYTES);
  const atAll = Boolean(m.extra?.isAtAll);
  if (m.type === 'text' && !m.title) {
    const text = withKeyword(content, keyword) + (atAll ? ' <at user_id="all">所有人</at>' : '');
    return { msg_type: 'text', content: { text } };
  }
  if (m.type === 'text') {
    // Text with a title: a rich post, the title as its heading, one paragraph per line.
    const lines = withKeyword(content, keyword).split('\n');
    const rows: unknown[][] = lines.map((line) => [{ tag: 'text', text: line }]);
    if (atAll) rows.push([{ tag: 'at', user_id: 'all' }]);
    return { msg_type: 'post', content: { post: { zh_cn: { title: m.title, content: rows } } } };
  }
  // Markdown: an interactive card with a markdown element (Feishu cards render markdown).
  const elements: unknown[] = [{ tag: 'markdown', content: withKeyword(content, keyword) }];
  if (atAll) elements.push({ tag: 'markdown', content: '<at id=all></at>' });
  return {
    msg_type: 'interactive',
    card: {
      ...(m.title ? { header: { title: { tag: 'plain_text', content: m.title } } } : {}),
      elements,
    },
  };
}

export const feishu: ChannelAdapter = {
  kind: 'feishu',
  address: (raw, ctx) => validateFeishuWebhook(raw, ctx.allowlist),
  mask: maskFeishuWebhook,
  paceKey: (t) => robotPaceKey(t.address),
  windows: (_t, ctx) =>
    ctx.pacing.feishuPerMinute > 0
      ? [
          { ms: 60_000, max: ctx.pacing.feishuPerMinute },
          { ms: 1000, max: PER_SECOND },
        ]
      : [],
  throttleMs: 60_000,
  send: (t, m, ctx) => {
    const body = feishuBody(m, t.keyword);
    if (t.secret) {
      // Signed fresh for every attempt: Feishu refuses a timestamp more than an hour away.
      const timestamp = Math.floor(Date.now() / 1000);
      Object.assign(body, { timestamp: String(timestamp), sign: feishuSign(t.secret, timestamp) });
    }
    return postToRobot(t.address, body, ctx.timeoutMs, FEISHU_CODES, (json) => {
      // The v2 answer is {code, msg}; older bots answered {StatusCode, StatusMessage}.
      const code =
        typeof json.code === 'number' ? json.code : typeof json.StatusCode === 'number' ? json.StatusCode : null;
      const msg =
        typeof json.msg === 'string' ? json.msg : typeof json.StatusMessage === 'string' ? json.StatusMessage : '';
      return { code, msg };
    });
  },
};
