/**
 * E-mail through SMTP (nodemailer, SMTP_URL): the subject is the title, the HTML is the markdown
 * rendered by markdown-it (raw HTML in the content is escaped, never passed through), with the plain
 * text beside it. Pacing is per recipient address across channels (UMS_EMAIL_PER_MINUTE). SMTP's own
 * reply codes decide the class: 5xx permanent (a rejected address, a refused login), 4xx transient,
 * 4xx that say "too many" rate-limited; no answer at all is transient.
 */
import MarkdownIt from 'markdown-it';
import nodemailer from 'nodemailer';
import { EmailAddress } from '../../../../src/contract';
import { badRequest } from '../../../errors';
import { sha256 } from '../../../lib/tokens';
import { describeFetchError, type SendResult } from './transport';
import type { ChannelAdapter, Mailer, OutgoingMessage } from './types';

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });

export function createMailer(smtpUrl: string, from: string | undefined, timeoutMs: number): Mailer {
  // The URL's own settings win; the timeouts apply where it sets none.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  const user = decodeURIComponent(new URL(smtpUrl).username);
  return { transport, from: from || (user.includes('@') ? user : 'portal@localhost') };
}

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function emailContent(m: OutgoingMessage): { subject: string; text: string; html: string } {
  const firstLine = m.content.split('\n').find((l) => l.trim()) ?? '';
  const subject = (m.title || firstLine.replace(/^[#>*\-\s]+/, '') || '统一门户消息').slice(0, 120);
  const body =
    m.type === 'markdown'
      ? md.render(m.content)
      : `<pre style="white-space:pre-wrap;font-family:inherit">${escapeHtml(m.content)}</pre>`;
  const html =
    '<!doctype html><html><head><meta charset="utf-8"></head>' +
    '<body style="font-family:-apple-system,BlinkMacSystemFont,\'Segoe UI\',sans-serif;line-height:1.6">' +
    `${m.title ? `<h2>${escapeHtml(m.title)}</h2>` : ''}${body}` +
    `<hr><p style="color:#999;font-size:12px">统一门户 UMS · 消息 #${m.id}</p></body></html>`;
  return { subject, text: m.title ? `${m.title}\n\n${m.content}` : m.content, html };
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

const RATE_TEXT = /too many|rate|limit|throttl|try again later|频繁|4\.7\.\d/i;

export function classifySmtpError(err: unknown, timeoutMs: number): Omit<SendResult, 'durationMs'> {
  const e = (err ?? {}) as SmtpError;
  const reply = (e.response ?? '').replace(/\s+/g, ' ').trim().slice(0, 300);
  const detail = `${e.code ? `${e.code}: ` : ''}${(e.message ?? String(err)).replace(/\s+/g, ' ').slice(0, 300)}`;
  const code = typeof e.responseCode === 'number' ? e.responseCode : null;
  const base = { httpStatus: null, errcode: code, detail };
  if (code !== null && code >= 500) {
    const hint =
      code === 530 || code === 534 || code === 535
        ? 'SMTP 认证失败：请管理员检查 SMTP_URL 中的用户名和密码'
        : code === 550 || code === 551 || code === 553
          ? '收件地址不存在或被拒收：请检查渠道的邮箱地址'
          : code === 552
            ? '邮件过大或收件箱已满'
            : code === 554
              ? '邮件被拒收（可能被判为垃圾邮件）'
              : '邮件服务器拒绝了这封邮件';
    return { ...base, outcome: 'permanent', errmsg: reply || `SMTP ${code}`, hint };
  }
  if (code !== null && code >= 400) {
    if (RATE_TEXT.test(reply)) {
      return { ...base, outcome: 'rate_limited', errmsg: reply, hint: '邮件服务器限流，稍后自动继续发送' };
    }
    return { ...base, outcome: 'transient', errmsg: reply || `SMTP ${code}`, hint: '邮件服务器暂时不可用，将自动重试' };
  }
  if (e.code === 'EAUTH') {
    return {
      ...base,
      outcome: 'permanent',
      errmsg: 'SMTP 认证失败',
      hint: 'SMTP 认证失败：请管理员检查 SMTP_URL 中的用户名和密码',
    };
  }
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') {
    return { ...base, outcome: 'permanent', errmsg: '邮件地址或内容无效', hint: null };
  }
  if (e.code === 'ETIMEDOUT') {
    const seconds = Number.isInteger(timeoutMs / 1000) ? String(timeoutMs / 1000) : (timeoutMs / 1000).toFixed(1);
    return { ...base, outcome: 'transient', errmsg: `请求超时（${seconds} 秒）：邮件服务器没有及时应答`, hint: null };
  }
  // nodemailer keeps the socket's error text (connect ECONNREFUSED …) under its own code: describe that.
  const socketCode = /\b(E[A-Z_]{3,})\b/.exec(e.message ?? '')?.[1];
  const failure = describeFetchError(Object.assign({}, err, { code: socketCode ?? e.code }), timeoutMs, '邮件');
  return { ...base, outcome: 'transient', errmsg: failure.message, hint: null };
}

/** Rejects as a timeout after `ms`. */
function timedOut(ms: number): Promise<never> {
  return new Promise((_resolve, reject) => {
    AbortSignal.timeout(ms).addEventListener('abort', () =>
      reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'ETIMEDOUT' })),
    );
  });
}

export async function sendEmail(
  mailer: Mailer | null,
  to: string,
  m: OutgoingMessage,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (!mailer) {
    return {
      outcome: 'permanent',
      httpStatus: null,
      errcode: null,
      errmsg: '服务器没有配置 SMTP_URL，无法发送邮件',
      hint: '请管理员设置 SMTP_URL',
      detail: null,
      durationMs: elapsed(),
    };
  }
  const content = emailContent(m);
  try {
    const sent = mailer.transport.sendMail({
      from: mailer.from,
      to,
      ...content,
      headers: { 'X-Portal-Message-Id': String(m.id) },
    });
    sent.catch(() => undefined); // answered below, or too late to matter
    // nodemailer's timeouts bound each step (connection, greeting, each reply), not the whole: an
    // attempt must end within UMS_SEND_TIMEOUT_MS, as the lease on its message assumes.
    const info = await Promise.race([sent, timedOut(timeoutMs)]);
    const response = String(info.response ?? '');
    const replyCode = Number(/^(\d{3})/.exec(response)?.[1] ?? 250);
    const rejected = (info.rejected ?? []).map(String);
    if (rejected.length > 0) {
      return {
        outcome: 'permanent',
        httpStatus: null,
        errcode: null,
        errmsg: `收件地址被拒收：${rejected.join(', ')}`,
        hint: '收件地址不存在或被拒收：请检查渠道的邮箱地址',
        detail: null,
        durationMs: elapsed(),
      };
    }
    return {
      outcome: 'delivered',
      httpStatus: null,
      errcode: replyCode,
      errmsg: response.slice(0, 300),
      hint: null,
      detail: null,
      durationMs: elapsed(),
    };
  } catch (err) {
    return { ...classifySmtpError(err, timeoutMs), durationMs: elapsed() };
  }
}

export const email: ChannelAdapter = {
  kind: 'email',
  address: (raw, ctx) => {
    if (!ctx.mailer) {
      throw badRequest('服务器没有配置 SMTP_URL，暂不能添加邮件渠道', { email: ['服务器未配置 SMTP_URL'] });
    }
    if (!ctx.consent.baseUrl) {
      throw badRequest('服务器没有配置 PUBLIC_URL，无法生成邮箱确认链接，暂不能添加邮件渠道', {
        email: ['服务器未配置 PUBLIC_URL'],
      });
    }
    const r = EmailAddress.safeParse(raw);
    if (!r.success) throw badRequest('邮箱地址格式不正确', { email: ['邮箱地址格式不正确'] });
    return r.data.toLowerCase();
  },
  mask: (address) => address,
  // Per address, whichever channel sends: one inbox is not flooded through several channels.
  paceKey: (t) => `mail:${sha256(t.address.toLowerCase()).slice(0, 16)}`,
  windows: (_t, ctx) => (ctx.pacing.emailPerMinute > 0 ? [{ ms: 60_000, max: ctx.pacing.emailPerMinute }] : []),
  throttleMs: 5 * 60_000,
  send: (t, m, ctx) => sendEmail(ctx.mailer, t.address, m, ctx.timeoutMs),
};
