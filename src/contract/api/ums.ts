/**
 * UMS endpoints: channels (DingTalk, WeCom, Feishu, generic webhook, e-mail), messages in the outbox,
 * statistics and the token API for scripts.
 */
import { endpoint } from '../endpoint';

const tags = ['ums'];

// ---------- channels ----------

export const listChannels = endpoint({
  method: 'GET',
  path: '/api/ums/channels',
  access: 'user',
  tags,
  summary: '我的推送渠道（含近 7 天成功率）',
  schema: (c) => ({ response: c.ChannelListResponse }),
});

/** The channel kinds, whether this server offers each (e-mail needs SMTP_URL) and their pacing. */
export const channelKinds = endpoint({
  method: 'GET',
  path: '/api/ums/channel-kinds',
  access: 'user',
  tags,
  summary: '可用的渠道类型',
  schema: (c) => ({ response: c.ChannelKindListResponse }),
});

/** 400 for an address the kind does not accept, 409 past 20 channels. */
export const createChannel = endpoint({
  method: 'POST',
  path: '/api/ums/channels',
  access: 'user',
  tags,
  summary: '添加渠道（钉钉、企业微信、飞书、Webhook、邮件）',
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

/** One real attempt; the answer carries the service's own code and message. */
export const testChannel = endpoint({
  method: 'POST',
  path: '/api/ums/channels/:id/test',
  access: 'user',
  tags,
  summary: '发送测试消息（返回对方的真实应答）',
  schema: (c) => ({ params: c.IdParams, response: c.ChannelTestResponse }),
});

/** An e-mail channel not yet confirmed: its confirmation mail again (at most once a minute). */
export const resendConfirmation = endpoint({
  method: 'POST',
  path: '/api/ums/channels/:id/confirmation',
  access: 'user',
  tags,
  summary: '重新发送邮箱确认邮件',
  schema: (c) => ({ params: c.IdParams, response: c.ChannelResponse }),
});

/** The link of a confirmation mail: its secret is the credential, so the address's owner needs no account. */
export const confirmEmail = endpoint({
  method: 'POST',
  path: '/api/ums/email/confirm',
  access: 'public',
  tags,
  summary: '确认接收邮件推送（确认邮件中的链接）',
  schema: (c) => ({ body: c.EmailConfirmBody, response: c.EmailConfirmResponse }),
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

/** Marks one message read (opening it in 消息查询 does). */
export const markRead = endpoint({
  method: 'POST',
  path: '/api/ums/messages/:id/read',
  access: 'user',
  tags,
  summary: '标为已读',
  schema: (c) => ({ params: c.IdParams, response: c.MarkReadResponse }),
});

export const markAllRead = endpoint({
  method: 'POST',
  path: '/api/ums/messages/read-all',
  access: 'user',
  tags,
  summary: '全部标为已读',
  schema: (c) => ({ response: c.MarkReadResponse }),
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

/** The home page's UMS card: the caller's unread and failed messages; the outbox for administrators. */
export const homeSummary = endpoint({
  method: 'GET',
  path: '/api/ums/home-summary',
  access: 'user',
  tags,
  summary: '首页摘要：我的未读与失败消息；管理员另见发件箱积压与失败投递',
  schema: (c) => ({ response: c.UmsHomeSummaryResponse }),
});

// ---------- templates ----------

export const listTemplates = endpoint({
  method: 'GET',
  path: '/api/ums/templates',
  access: 'user',
  tags,
  summary: '我的消息模板',
  schema: (c) => ({ response: c.TemplateListResponse }),
});

/** 409 for a name already used, or past 50 templates. */
export const createTemplate = endpoint({
  method: 'POST',
  path: '/api/ums/templates',
  access: 'user',
  tags,
  summary: '新建消息模板（{{变量}}）',
  schema: (c) => ({ body: c.TemplateBody, response: c.TemplateResponse }),
});

export const updateTemplate = endpoint({
  method: 'PATCH',
  path: '/api/ums/templates/:id',
  access: 'user',
  tags,
  summary: '修改消息模板',
  schema: (c) => ({ params: c.IdParams, body: c.TemplatePatchBody, response: c.TemplateResponse }),
});

export const deleteTemplate = endpoint({
  method: 'DELETE',
  path: '/api/ums/templates/:id',
  access: 'user',
  tags,
  summary: '删除消息模板',
  schema: (c) => ({ params: c.IdParams, response: c.DeleteChannelResponse }),
});

// ---------- delivery callbacks ----------

/** The user's callback signing secret (created on first view). */
export const callbackSecret = endpoint({
  method: 'GET',
  path: '/api/ums/callback-secret',
  access: 'user',
  tags,
  summary: '回调签名密钥（仅本人可见）',
  schema: (c) => ({ response: c.CallbackSecretResponse }),
});

/** A new secret: callbacks sent from now on are signed with it. */
export const rotateCallbackSecret = endpoint({
  method: 'POST',
  path: '/api/ums/callback-secret/rotate',
  access: 'user',
  tags,
  summary: '更换回调签名密钥',
  schema: (c) => ({ response: c.CallbackSecretResponse }),
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

// ---------- drop-in compatible endpoints: scripts written for ServerChan or PushPlus change only their base URL ----------

const compatTags = ['ums-compat'];

const serverChanDoc = {
  access: 'token',
  scope: 'ums:send',
  tokenParam: 'sendkey',
  tags: compatTags,
  summary: 'Server酱兼容接口（SendKey 为 ums:send 令牌；title/text 与 desp）',
  description:
    'curl "http://HOST/pt_xxx.send?title=标题&desp=**内容**"\n\n' +
    '成功：{"code":0,"message":"","data":{"pushid":"42","readkey":"","error":"SUCCESS","errno":0}}',
} as const;

/** Query, form or JSON input (ServerChanInput over the merged query and body); every refusal in ServerChan's shape. */
export const serverChanGet = endpoint({
  method: 'GET',
  path: '/:sendkey.send',
  ...serverChanDoc,
  schema: (c) => ({ params: c.SendKeyParams, response: c.ServerChanAnswer }),
});
export const serverChanPost = endpoint({
  method: 'POST',
  path: '/:sendkey.send',
  ...serverChanDoc,
  schema: (c) => ({ params: c.SendKeyParams, response: c.ServerChanAnswer }),
});

const pushPlusDoc = {
  access: 'token',
  scope: 'ums:send',
  tags: compatTags,
  summary: 'PushPlus 兼容接口（token 为 ums:send 令牌；title、content、template、topic）',
  description:
    'curl "http://HOST/send?token=pt_xxx&title=标题&content=内容&template=txt"\n\n' +
    '成功：{"code":200,"msg":"请求成功","data":"42"}',
} as const;

/** Query, form or JSON input (PushPlusInput); every refusal in PushPlus's shape. */
export const pushPlusGet = endpoint({
  method: 'GET',
  path: '/send',
  ...pushPlusDoc,
  schema: (c) => ({ response: c.PushPlusAnswer }),
});
export const pushPlusPost = endpoint({
  method: 'POST',
  path: '/send',
  ...pushPlusDoc,
  schema: (c) => ({ response: c.PushPlusAnswer }),
});
/** PushPlus also takes the token in the path: `/send/<token>`. */
export const pushPlusTokenGet = endpoint({
  method: 'GET',
  path: '/send/:token',
  ...pushPlusDoc,
  tokenParam: 'token',
  schema: (c) => ({ params: c.PushPlusTokenParams, response: c.PushPlusAnswer }),
});
export const pushPlusTokenPost = endpoint({
  method: 'POST',
  path: '/send/:token',
  ...pushPlusDoc,
  tokenParam: 'token',
  schema: (c) => ({ params: c.PushPlusTokenParams, response: c.PushPlusAnswer }),
});

// ---------- the header's search ----------

/** My messages by title, newest first. */
export const searchMessages = endpoint({
  method: 'GET',
  path: '/api/ums/search',
  access: 'user',
  tags,
  summary: '全局搜索：按标题找我的消息',
  schema: (c) => ({ query: c.SearchQuery, response: c.SearchHitsResponse }),
});
