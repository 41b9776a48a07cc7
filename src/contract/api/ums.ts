/** UMS endpoints: DingTalk robot channels, messages in the outbox, statistics and the token API for scripts. */
import { endpoint } from '../endpoint';

const tags = ['ums'];

// ---------- channels ----------

export const listChannels = endpoint({
  method: 'GET',
  path: '/api/ums/channels',
  access: 'user',
  tags,
  summary: '我的钉钉渠道',
  schema: (c) => ({ response: c.ChannelListResponse }),
});

/** 400 for a webhook that is not a DingTalk robot, 409 past 20 channels. */
export const createChannel = endpoint({
  method: 'POST',
  path: '/api/ums/channels',
  access: 'user',
  tags,
  summary: '绑定钉钉机器人',
  schema: (c) => ({ body: c.ChannelBody, response: c.ChannelResponse }),
});

/** Omit `secret` to keep it, send '' to remove it. */
export const updateChannel = endpoint({
  method: 'PATCH',
  path: '/api/ums/channels/:id',
  access: 'user',
  tags,
  summary: '修改渠道',
  schema: (c) => ({ params: c.IdParams, body: c.ChannelPatchBody, response: c.ChannelResponse }),
});

/** 409 while the channel still has messages waiting. */
export const deleteChannel = endpoint({
  method: 'DELETE',
  path: '/api/ums/channels/:id',
  access: 'user',
  tags,
  summary: '删除渠道',
  schema: (c) => ({ params: c.IdParams, response: c.DeleteChannelResponse }),
});

/** One real attempt; the answer carries DingTalk's errcode/errmsg. */
export const testChannel = endpoint({
  method: 'POST',
  path: '/api/ums/channels/:id/test',
  access: 'user',
  tags,
  summary: '发送测试消息（返回钉钉的真实应答）',
  schema: (c) => ({ params: c.IdParams, response: c.ChannelTestResponse }),
});

// ---------- messages ----------

/** Written to the outbox and answered at once with its id. */
export const createMessage = endpoint({
  method: 'POST',
  path: '/api/ums/messages',
  access: 'user',
  tags,
  summary: '创建消息（写入发件箱）',
  schema: (c) => ({ body: c.NewMessageBody, response: c.MessageCreatedResponse }),
});

/** Newest first. */
export const listMessages = endpoint({
  method: 'GET',
  path: '/api/ums/messages',
  access: 'user',
  tags,
  summary: '我的消息',
  schema: (c) => ({ query: c.MessageListQuery, response: c.MessageListResponse }),
});

/** With every delivery attempt; a browser session or a `ums:send` token. */
export const getMessage = endpoint({
  method: 'GET',
  path: '/api/ums/messages/:id',
  access: 'token',
  scope: 'ums:send',
  allowSession: true,
  tags,
  summary: '消息状态与每次投递记录（仅本人；会话或 ums:send 令牌）',
  schema: (c) => ({ params: c.IdParams, query: c.TokenParamQuery, response: c.MessageDetailResponse }),
});

/** Failed messages only, 409 otherwise. */
export const resendMessage = endpoint({
  method: 'POST',
  path: '/api/ums/messages/:id/resend',
  access: 'user',
  tags,
  summary: '重新发送失败的消息',
  schema: (c) => ({ params: c.IdParams, response: c.MessageActionResponse }),
});

/** Queued (or scheduled) and retrying messages only, 409 otherwise. */
export const cancelMessage = endpoint({
  method: 'POST',
  path: '/api/ums/messages/:id/cancel',
  access: 'user',
  tags,
  summary: '取消排队或定时的消息',
  schema: (c) => ({ params: c.IdParams, response: c.MessageActionResponse }),
});

/** Counts by status, 14 days of delivered/failed, channel health. */
export const stats = endpoint({
  method: 'GET',
  path: '/api/ums/stats',
  access: 'user',
  tags,
  summary: '消息统计',
  schema: (c) => ({ response: c.UmsStatsResponse }),
});

// ---------- the token API for scripts ----------

const sendDoc = {
  access: 'token',
  scope: 'ums:send',
  tags,
  summary: '发送消息（令牌 ums:send；query、表单或 JSON 均可）',
  description:
    'curl "http://HOST/api/ums/send?token=pt_xxx&title=标题&content=内容"\n\n' +
    'curl -X POST http://HOST/api/ums/send -H "Authorization: Bearer pt_xxx" -d title=标题 -d content=内容',
} as const;

/** Query, form or JSON input (SendApiInput over the merged query and body), so no schema here. */
export const sendGet = endpoint({
  method: 'GET',
  path: '/api/ums/send',
  ...sendDoc,
  schema: (c) => ({ response: c.MessageCreatedResponse }),
});
export const sendPost = endpoint({
  method: 'POST',
  path: '/api/ums/send',
  ...sendDoc,
  schema: (c) => ({ response: c.MessageCreatedResponse }),
});
