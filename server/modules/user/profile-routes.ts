/** HTTP layer of the personal center: profile, avatar, password and the user's sessions. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AVATAR_MAX_BYTES,
  AvatarResponse,
  ChangePasswordBody,
  ChangePasswordResponse,
  EndSessionsResponse,
  IdParams,
  ProfileResponse,
  SessionListResponse,
  UpdateProfileBody,
} from '../../../src/contract';
import type { AppDeps } from '../../app';
import { badRequest, HttpError, notFound } from '../../errors';
import * as profile from './profile';

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const tags = ['user'];

  app.get(
    '/profile',
    { config: { auth: 'user' }, schema: { tags, summary: '个人资料', response: { 200: ProfileResponse } } },
    async (request) => ({ success: true as const, data: await profile.getProfile(db, request.user!.id) }),
  );

  app.patch(
    '/profile',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '修改昵称', body: UpdateProfileBody, response: { 200: ProfileResponse } },
    },
    async (request) => ({
      success: true as const,
      data: await profile.updateNickname(db, request.user!.id, request.body.nickname),
    }),
  );

  app.post(
    '/avatar',
    {
      config: { auth: 'user', rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: { tags, summary: '上传头像（multipart，字段 file）', response: { 200: AvatarResponse } },
    },
    async (request) => {
      if (!request.isMultipart()) throw badRequest('请以 multipart/form-data 上传图片（字段 file）');
      const file = await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
      if (!file) throw badRequest('请选择要上传的图片', { file: ['请选择要上传的图片'] });
      let buffer: Buffer;
      try {
        buffer = await file.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(413, 'FILE_TOO_LARGE', '图片不能超过 2 MB');
        }
        throw err;
      }
      if (buffer.length === 0) throw badRequest('上传的文件是空的');
      return { success: true as const, data: { avatar: await profile.setAvatar(db, request.user!.id, buffer) } };
    },
  );

  app.get(
    '/avatar/:id',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: '用户头像图片',
        params: IdParams,
        querystring: z.object({ v: z.string().max(16).optional() }),
      },
    },
    async (request, reply) => {
      const avatar = await profile.getAvatar(db, request.params.id);
      if (!avatar) throw notFound('该用户没有上传头像');
      // The URL carries ?v=<version>, so a versioned URL never changes content.
      return reply
        .header('cache-control', request.query.v ? 'public, max-age=31536000, immutable' : 'no-cache')
        .type(avatar.mime)
        .send(avatar.content);
    },
  );

  app.post(
    '/password',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: '修改密码（结束其他会话）',
        body: ChangePasswordBody,
        response: { 200: ChangePasswordResponse },
      },
    },
    async (request) => {
      const ended = await profile.changePassword(
        db,
        request.user!.id,
        request.user!.sessionIdHash,
        request.body.oldPassword,
        request.body.newPassword,
      );
      return { success: true as const, data: { endedSessions: ended } };
    },
  );

  app.get(
    '/sessions',
    { config: { auth: 'user' }, schema: { tags, summary: '我的登录会话', response: { 200: SessionListResponse } } },
    async (request) => ({
      success: true as const,
      data: await profile.listSessions(db, request.user!.id, request.user!.sessionIdHash),
    }),
  );

  app.delete(
    '/sessions/:id',
    {
      config: { auth: 'user' },
      schema: { tags, summary: '结束一个会话', params: IdParams, response: { 200: EndSessionsResponse } },
    },
    async (request) => ({
      success: true as const,
      data: { ended: await profile.endSession(db, request.user!.id, request.params.id, request.user!.sessionIdHash) },
    }),
  );

  app.post(
    '/sessions/end-others',
    { config: { auth: 'user' }, schema: { tags, summary: '结束其他所有会话', response: { 200: EndSessionsResponse } } },
    async (request) => ({
      success: true as const,
      data: { ended: await profile.endOtherSessions(db, request.user!.id, request.user!.sessionIdHash) },
    }),
  );
};

export default routes;
