/** HTTP for the NJIT field policy (policy.ts): the grid, the row scopes and the per-role preview. */
import * as api from '@contract/api/njitPolicy';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { notFound } from '../../errors';
import { success } from '../../http/reply';
import { route } from '../../http/route';
import { actorOf } from '../../plugins/auth';
import { recordNjitAudit } from './audit';
import { requireAdmin } from './routes';
import { COLUMNS } from './service';
import {
  levelsOfRole,
  listUserScopes,
  policyFor,
  readFieldPolicy,
  setUserScope,
  showStudent,
  writeFieldPolicy,
} from './policy';

export default async function njitPolicyRoutes(app: FastifyInstance, { db }: AppDeps): Promise<void> {
  route(app, api.getFieldPolicy, async (request) => {
    requireAdmin(request, '查看字段策略');
    return success({ roles: await readFieldPolicy(db) });
  });

  route(app, api.setFieldPolicy, async (request) => {
    requireAdmin(request, '修改字段策略');
    return success({ roles: await writeFieldPolicy(db, actorOf(request), request.body.roles) });
  });

  // The record goes through the same showStudent a caller with only that role gets; audited like a view.
  route(app, api.previewFieldPolicy, async (request) => {
    requireAdmin(request, '按角色预览');
    const { role, studentNo } = request.query;
    const row = await db
      .selectFrom('njit_students')
      .select([...COLUMNS])
      .where('student_no', '=', studentNo)
      .executeTakeFirst();
    // A refused request changes nothing, the audit trail included: only a record shown is recorded.
    if (!row) throw notFound('没有这个学号的学生');
    await recordNjitAudit(db, actorOf(request), {
      action: 'policy_preview',
      criteria: { role, studentNo },
      resultCount: 1,
      recordIds: [row.id],
    });
    return success({ role, student: showStudent(row, await levelsOfRole(db, role)) });
  });

  route(app, api.listUserScopes, async (request) => {
    requireAdmin(request, '查看查询范围');
    return success(await listUserScopes(db));
  });

  route(app, api.setUserScope, async (request) => {
    requireAdmin(request, '修改查询范围');
    return success(await setUserScope(db, actorOf(request), request.params.userId, request.body));
  });

  route(app, api.myFields, async (request) => {
    const { levels, scope } = await policyFor(db, request.user!);
    return success({ fields: levels, scoped: scope !== null });
  });
}
