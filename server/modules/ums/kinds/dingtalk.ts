/**
 * The DingTalk custom robot as a channel kind: its webhook (oapi.dingtalk.com/robot/send with an
 * access_token, or an allow-listed gateway), the protocol of ../dingtalk.ts, 20 messages a minute per
 * robot (UMS_ROBOT_PER_MINUTE) and a 10-minute pause after its rate-limit errcodes.
 */
import { badRequest } from '../../../errors';
import { maskSecret } from '../../../lib/secretbox';
import { robotBody, sendToRobot } from '../dingtalk';
import { allowListed, robotPaceKey } from './http';
import type { ChannelAdapter } from './types';

export const DINGTALK_WEBHOOK = 'https://oapi.dingtalk.com/robot/send';

/** Accepts DingTalk's robot endpoint with an access_token, or a URL under an allow-listed base. */
export function validateDingTalkWebhook(raw: string, allowlist: string[]): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('Webhook 地址格式不正确', { webhook: ['Webhook 地址格式不正确'] });
  }
  const base = `${url.origin}${url.pathname}`;
  if (base === DINGTALK_WEBHOOK) {
    if (!/^[A-Za-z0-9]{16,128}$/.test(url.searchParams.get('access_token') ?? '')) {
      throw badRequest('Webhook 缺少有效的 access_token', { webhook: ['Webhook 缺少有效的 access_token'] });
    }
    return url.toString();
  }
  if (allowListed(raw, allowlist)) return url.toString();
  throw badRequest('只接受钉钉机器人地址 https://oapi.dingtalk.com/robot/send?access_token=…', {
    webhook: ['只接受钉钉机器人 Webhook 地址'],
  });
}

/** Masks the query parameters that carry a robot's credential (access_token, key). */
export function maskQueryToken(webhook: string, names: string[]): string {
  const url = new URL(webhook);
  for (const name of names) {
    const token = url.searchParams.get(name);
    if (token) url.searchParams.set(name, maskSecret(token));
  }
  return decodeURIComponent(url.toString());
}

export const DINGTALK_THROTTLE_MS = 10 * 60_000;

export const dingtalk: ChannelAdapter = {
  kind: 'dingtalk',
  address: (raw, ctx) => validateDingTalkWebhook(raw, ctx.allowlist),
  mask: (address) => maskQueryToken(address, ['access_token']),
  paceKey: (t) => robotPaceKey(t.address),
  windows: (_t, ctx) => (ctx.pacing.robotPerMinute > 0 ? [{ ms: 60_000, max: ctx.pacing.robotPerMinute }] : []),
  throttleMs: DINGTALK_THROTTLE_MS,
  send: (t, m, ctx) => sendToRobot(t.address, t.secret, robotBody(m, t.keyword), ctx.timeoutMs),
};
