/** Shared UMS test data, shaped by src/contract/ums.ts. */
import type { Channel, ChannelKindInfo, MessageDetail, MessageSummary, Template } from '@/contract';

export const defaultChannel: Channel = {
  id: 1,
  kind: 'dingtalk',
  name: '我的提醒群',
  webhookMasked: 'https://oapi.dingtalk.com/robot/send?access_token=3f9a…c1d2',
  hasSecret: true,
  secretMasked: 'SEC8…9f3a',
  keyword: null,
  isDefault: true,
  createdAt: '2025-01-01T00:00:00.000Z',
  throttledUntil: null,
  lastSuccessAt: '2025-01-02T00:00:00.000Z',
  lastErrorAt: null,
  lastError: null,
  webhookSettings: null,
  health: { attempts: 25, delivered: 24, successRate: 0.96 },
  quietHours: null,
  digestAfterSeconds: null,
  emailConsent: null,
};
export const dutyChannel: Channel = {
  ...defaultChannel,
  id: 2,
  name: '值班群',
  webhookMasked: 'https://oapi.dingtalk.com/robot/send?access_token=88ab…07ef',
  hasSecret: false,
  secretMasked: null,
  keyword: '告警',
  isDefault: false,
  health: { attempts: 0, delivered: 0, successRate: null },
};

export const channelList = (channels: Channel[] = [defaultChannel, dutyChannel]) => ({
  success: true as const,
  data: channels,
});

/** What GET /api/ums/channel-kinds answers; `email: false` as on a server without SMTP_URL. */
export function channelKinds({ email = true } = {}): { success: true; data: ChannelKindInfo[] } {
  const kind = (k: ChannelKindInfo['kind'], label: string, pacing: string): ChannelKindInfo => ({
    kind: k,
    label,
    available: k !== 'email' || email,
    reason: k === 'email' && !email ? '服务器没有配置 SMTP_URL，管理员配置后才能使用邮件渠道' : null,
    pacing,
  });
  return {
    success: true,
    data: [
      kind('dingtalk', '钉钉机器人', '每个机器人每分钟最多 20 条；被钉钉限流时暂停 10 分钟'),
      kind('wecom', '企业微信群机器人', '每个机器人每分钟最多 20 条；被企业微信限流时暂停 1 分钟'),
      kind('feishu', '飞书机器人', '每个机器人每分钟最多 100 条、每秒最多 5 条；被飞书限流时暂停 1 分钟'),
      kind('webhook', '通用 Webhook', '每个 Webhook 可单独设置每分钟条数；目标返回 429 时按 Retry-After 暂停'),
      kind('email', '电子邮件', '每个收件地址每分钟最多 10 条；邮件服务器限流时暂停 5 分钟'),
    ],
  };
}

export const emailChannel: Channel = {
  ...defaultChannel,
  id: 3,
  kind: 'email',
  name: '工作邮箱',
  webhookMasked: 'me@njit.edu.cn',
  hasSecret: false,
  secretMasked: null,
  isDefault: false,
  health: { attempts: 4, delivered: 3, successRate: 0.75 },
  emailConsent: {
    confirmed: true,
    confirmedAt: '2025-01-01T01:00:00.000Z',
    sentAt: '2025-01-01T00:30:00.000Z',
    expiresAt: '2025-01-04T00:30:00.000Z',
  },
};

/** An e-mail channel whose address's owner has not opened the confirmation link yet. */
export const pendingEmailChannel: Channel = {
  ...emailChannel,
  id: 5,
  name: '家人邮箱',
  webhookMasked: 'family@example.org',
  health: { attempts: 0, delivered: 0, successRate: null },
  emailConsent: {
    confirmed: false,
    confirmedAt: null,
    sentAt: '2025-01-01T00:30:00.000Z',
    expiresAt: '2025-01-04T00:30:00.000Z',
  },
};

export const hookChannel: Channel = {
  ...defaultChannel,
  id: 4,
  kind: 'webhook',
  name: '运维平台',
  webhookMasked: 'https://ops.example.edu/hooks/abcd…wxyz',
  hasSecret: false,
  secretMasked: null,
  isDefault: false,
  webhookSettings: {
    method: 'POST',
    headers: [{ name: 'Authorization', valueMasked: 'Bear…cdef' }],
    bodyTemplate: '{"text":"${content}"}',
    successStatus: '200-299',
    successPath: '$.code',
    successValue: '0',
    perMinute: 60,
  },
  health: { attempts: 0, delivered: 0, successRate: null },
};

export function summary(id: number, status: MessageSummary['status'], title: string): MessageSummary {
  return {
    id,
    title,
    content: `${title}的内容`,
    type: 'markdown',
    channelId: 1,
    channelName: '我的提醒群',
    status,
    attempts: 0,
    sendAt: null,
    nextAttemptAt: null,
    lastError: null,
    source: 'ui',
    createdAt: '2025-01-02T04:05:00.000Z',
    deliveredAt: null,
    priority: 'normal',
    groupId: null,
    fallbackChannelIds: [],
    readAt: '2025-01-02T05:00:00.000Z',
    digestId: null,
    callbackUrl: null,
    callback: null,
  };
}

export const failedDetail: MessageDetail = {
  ...summary(2, 'failed', '服务器告警'),
  content: 'CPU 超过 **90%**',
  attempts: 2,
  lastError: '消息中没有机器人安全设置里的关键词（310000）',
  attemptLog: [
    {
      id: 10,
      at: '2025-01-02T04:05:00.000Z',
      httpStatus: 502,
      errcode: null,
      errmsg: 'Bad Gateway',
      detail: null,
      durationMs: 87,
      channelId: 1,
      channelKind: 'dingtalk',
      outcome: 'transient',
    },
    {
      id: 11,
      at: '2025-01-02T04:06:00.000Z',
      httpStatus: 200,
      errcode: 310000,
      errmsg: 'keywords not in content',
      detail: null,
      durationMs: 143,
      channelId: 1,
      channelKind: 'dingtalk',
      outcome: 'permanent',
    },
  ],
};

/** DingTalk never answered: the server's Chinese description, Node's words as the detail. */
export const unreachableDetail: MessageDetail = {
  ...summary(3, 'retrying', '日报'),
  attempts: 1,
  nextAttemptAt: '2025-01-02T04:06:00.000Z',
  lastError: '网络错误：无法连接钉钉服务器',
  attemptLog: [
    {
      id: 12,
      at: '2025-01-02T04:05:00.000Z',
      httpStatus: null,
      errcode: null,
      errmsg: '网络错误：无法连接钉钉服务器',
      detail: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
      durationMs: 3,
      channelId: 1,
      channelKind: 'dingtalk',
      outcome: 'transient',
    },
  ],
};

export const page = <T>(rows: T[]) => ({
  success: true as const,
  data: rows,
  total: rows.length,
  current: 1,
  pageSize: 10,
});

export const template: Template = {
  id: 5,
  name: '构建结果',
  title: '{{project}} 构建{{result}}',
  content: '分支 **{{branch}}**：{{result}}',
  type: 'markdown',
  variables: ['project', 'result', 'branch'],
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-02T00:00:00.000Z',
};
