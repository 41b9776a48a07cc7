/** Shared UMS test data, shaped by src/contract/ums.ts. */
import type { Channel, MessageDetail, MessageSummary } from '@/contract';

export const defaultChannel: Channel = {
  id: 1,
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
};

export const channelList = (channels: Channel[] = [defaultChannel, dutyChannel]) => ({
  success: true as const,
  data: channels,
});

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
