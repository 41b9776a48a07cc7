/** HTTP layer of the personal center: profile, avatar, password, the user's sessions and preferences. */
import type { FastifyInstance } from 'fastify';
import { AVATAR_MAX_BYTES } from '@contract';
import * as api from '@contract/api/user';
import type { AppDeps } from '../../deps';
import { badRequest, notFound } from '../../errors';
import { success } from '../../http/reply';
import { route } from '../../http/route';
import { readUpload } from '../../http/upload';
import * as preferences from './preferences';
import * as profile from './profile';

export default async function profileRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const { db } = deps;

  route(app, api.getProfile, async (request) => success(await profile.getProfile(db, request.user!.id)));

  route(app, api.getPreferences, async (request) => success(await preferences.getPreferences(db, request.user!.id)));

  route(app, api.putPreferences, async (request) =>
    success(await preferences.putPreferences(db, request.user!.id, request.body)),
  );

  route(app, api.updateProfile, async (request) =>
    success(await profile.updateNickname(db, request.user!.id, request.body.nickname)),
  );

  route(
    app,
    api.uploadAvatar,
    async (request) => {
      const { buffer } = await readUpload(request, {
        maxBytes: AVATAR_MAX_BYTES,
        noun: '图片',
        tooLargeMessage: '图片不能超过 2 MB',
      });
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
    const changed = await profile.changePassword(
      db,
      request.user!.id,
      request.user!.sessionIdHash,
      request.body.oldPassword,
      request.body.newPassword,
      request.body.revokeTokens,
    );
    return success(changed);
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
