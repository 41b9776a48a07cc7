/** HTTP layer of UMS: channels, messages, statistics, and the curl-friendly token API. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { z } from 'zod';
import {
  ChannelBody,
  ChannelListResponse,
  ChannelPatchBody,
  ChannelResponse,
  ChannelTestResponse,
  DeleteChannelResponse,
  IdParams,
  MessageActionResponse,
  MessageCreatedResponse,
  MessageDetailResponse,
  MessageListQuery,
  MessageListResponse,
  NewMessageBody,
  SendApiInput,
  UmsStatsResponse,
} from '../../../src/contract';
import type { AppDeps } from '../../app';
import { parseOr400, tooMany } from '../../errors';
import * as channels from './channels';
import * as messages from './messages';

const tags = ['ums'];

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { db, config } = deps;
  const ctx = app.umsContext;
  const now = () => deps.clock?.() ?? new Date();

  // ---------- channels ----------
  app.get(
    '/channels',
    { config: { auth: 'user' }, schema: { tags, summary: '我的钉钉渠道', response: { 200: ChannelListResponse } } },
    async (request) => ({ success: true as const, data: await channels.listChannels(db, request.user!.id) }),
  );
  app.post(
    '/channels',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '绑定钉钉机器人', body: ChannelBody, response: { 200: ChannelResponse } },
    },
    async (request) => ({
      success: true as const,
      data: await channels.createChannel(db, ctx, request.user!.id, request.body),
    }),
  );
  app.patch(
    '/channels/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: '修改渠道',
        params: IdParams,
        body: ChannelPatchBody,
        response: { 200: ChannelResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await channels.updateChannel(db, ctx, request.user!.id, request.params.id, request.body),
    }),
  );
  app.delete(
    '/channels/:id',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '删除渠道', params: IdParams, response: { 200: DeleteChannelResponse } },
    },
    async (request) => {
      await channels.deleteChannel(db, request.user!.id, request.params.id);
      return { success: true as const };
    },
  );
  app.post(
    '/channels/:id/test',
    {
      config: { auth: 'user', rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary: '发送测试消息（返回钉钉的真实应答）',
        params: IdParams,
        response: { 200: ChannelTestResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await channels.testChannel(db, ctx, request.user!.id, request.params.id),
    }),
  );

  // ---------- messages ----------
  app.post(
    '/messages',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: '创建消息（写入发件箱）',
        body: NewMessageBody,
        response: { 200: MessageCreatedResponse },
      },
    },
    async (request) => {
      const created = await messages.createMessage(db, request.user!.id, request.body, 'ui', now());
      app.umsWorker.wake();
      return { success: true as const, data: created };
    },
  );
  app.get(
    '/messages',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '我的消息', querystring: MessageListQuery, response: { 200: MessageListResponse } },
    },
    async (request) => {
      const { rows, total } = await messages.listMessages(db, request.user!.id, request.query);
      return {
        success: true as const,
        data: rows,
        total,
        current: request.query.current,
        pageSize: request.query.pageSize,
      };
    },
  );
  app.get(
    '/messages/:id',
    {
      config: { auth: 'token', scope: 'ums:send', allowSession: true },
      schema: {
        tags,
        summary: '消息状态与每次投递记录（仅本人；会话或 ums:send 令牌）',
        params: IdParams,
        querystring: z.object({ token: z.string().max(200).optional() }),
        response: { 200: MessageDetailResponse },
      },
    },
    async (request) => {
      const userId = request.user?.id ?? request.tokenAuth!.userId;
      return { success: true as const, data: await messages.getMessage(db, userId, request.params.id) };
    },
  );
  app.post(
    '/messages/:id/resend',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '重新发送失败的消息', params: IdParams, response: { 200: MessageActionResponse } },
    },
    async (request) => {
      const data = await messages.resendMessage(db, request.user!.id, request.params.id, now());
      app.umsWorker.wake();
      return { success: true as const, data };
    },
  );
  app.post(
    '/messages/:id/cancel',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '取消排队或定时的消息', params: IdParams, response: { 200: MessageActionResponse } },
    },
    async (request) => ({
      success: true as const,
      data: await messages.cancelMessage(db, request.user!.id, request.params.id),
    }),
  );
  app.get(
    '/stats',
    { config: { auth: 'user' }, schema: { tags, summary: '消息统计', response: { 200: UmsStatsResponse } } },
    async (request) => ({ success: true as const, data: await messages.stats(db, request.user!.id, config.PORTAL_TZ) }),
  );

  // ---------- the token API ----------
  // 60 a minute with bursts of at most 20: both windows must have room.
  const perMinute = new RateLimiterMemory({ points: config.UMS_TOKEN_PER_MINUTE, duration: 60 });
  const burst =
    config.UMS_TOKEN_BURST > 0 ? new RateLimiterMemory({ points: config.UMS_TOKEN_BURST, duration: 20 }) : null;
  const limit = async (key: string) => {
    try {
      if (burst) await burst.consume(key);
      await perMinute.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw tooMany('发送过于频繁，请稍后再试', err.msBeforeNext / 1000);
      throw err;
    }
  };

  const send = async (request: {
    query: unknown;
    body: unknown;
    tokenAuth: { userId: number; tokenId: number } | null;
  }) => {
    const auth = request.tokenAuth!;
    await limit(String(auth.tokenId));
    const input = parseOr400(SendApiInput, { ...(request.query as object), ...((request.body as object) ?? {}) });
    const created = await messages.createMessage(db, auth.userId, input, 'api', now());
    app.umsWorker.wake();
    return { success: true as const, data: created };
  };
  const sendSchema = {
    tags,
    summary: '发送消息（令牌 ums:send；query、表单或 JSON 均可）',
    description:
      'curl "http://HOST/api/ums/send?token=pt_xxx&title=标题&content=内容"\n\n' +
      'curl -X POST http://HOST/api/ums/send -H "Authorization: Bearer pt_xxx" -d title=标题 -d content=内容',
    response: { 200: MessageCreatedResponse },
  };
  app.get('/send', { config: { auth: 'token', scope: 'ums:send' }, schema: sendSchema }, send);
  app.post('/send', { config: { auth: 'token', scope: 'ums:send' }, schema: sendSchema }, send);
};

export default routes;
