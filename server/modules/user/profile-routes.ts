/** HTTP layer of the personal center: profile, avatar, password and the user's sessions. */
import type { FastifyInstance } from 'fastify';
import { AVATAR_MAX_BYTES } from '@contract';
import * as api from '@contract/api/user';
import type { AppDeps } from '../../deps';
import { badRequest, HttpError, notFound } from '../../errors';
import { success } from '../../http/reply';
import { route } from '../../http/route';
import * as profile from './profile';

export default async function profileRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;

  route(app, api.getProfile, async (request) => success(await profile.getProfile(db, request.user!.id)));

  route(app, api.updateProfile, async (request) =>
    success(await profile.updateNickname(db, request.user!.id, request.body.nickname)),
  );

  route(
    app,
    api.uploadAvatar,
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
      return success({ avatar: await profile.setAvatar(db, request.user!.id, buffer) });
    },
    { rateLimit: { max: 20, timeWindow: '1 minute' } },
  );

  route(app, api.avatar, async (request, reply) => {
    const avatar = await profile.getAvatar(db, request.params.id);
    if (!avatar) throw notFound('该用户没有上传头像');
    // The URL carries ?v=<version>, so a versioned URL never changes content.
    return reply
      .header('cache-control', request.query.v ? 'public, max-age=31536000, immutable' : 'no-cache')
      .type(avatar.mime)
      .send(avatar.content);
  });

  route(app, api.changePassword, async (request) => {
    const ended = await profile.changePassword(
      db,
      request.user!.id,
      request.user!.sessionIdHash,
      request.body.oldPassword,
      request.body.newPassword,
    );
    return success({ endedSessions: ended });
  });

  route(app, api.listSessions, async (request) =>
    success(await profile.listSessions(db, request.user!.id, request.user!.sessionIdHash)),
  );

  route(app, api.endSession, async (request) =>
    success({
      ended: await profile.endSession(db, request.user!.id, request.params.id, request.user!.sessionIdHash),
    }),
  );

  route(app, api.endOtherSessions, async (request) =>
    success({ ended: await profile.endOtherSessions(db, request.user!.id, request.user!.sessionIdHash) }),
  );
}
