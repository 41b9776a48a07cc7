/** HTTP layer of administrator user management and the audit log. Every route here is admin-only. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminCreateUserBody,
  AdminCreateUserResponse,
  AdminDeleteUserBody,
  AdminDeleteUserResponse,
  AdminResetPasswordBody,
  AdminResetPasswordResponse,
  AdminUpdateUserBody,
  AdminUpdateUserResponse,
  AdminUserListQuery,
  AdminUserListResponse,
  AdminUserResponse,
  AuditListQuery,
  AuditListResponse,
  IdParams,
} from '../../../src/contract';
import type { AppDeps } from '../../app';
import { actorOf } from '../../plugins/auth';
import { listAudit } from '../audit/service';
import * as admin from './admin';

const routes: FastifyPluginAsyncZod<AppDeps> = async (app, { db }) => {
  const tags = ['admin'];
  const config = { auth: 'admin' as const };

  app.get(
    '/users',
    {
      config,
      schema: { tags, summary: '用户列表', querystring: AdminUserListQuery, response: { 200: AdminUserListResponse } },
    },
    async (request) => {
      const { rows, total } = await admin.listUsers(db, request.query);
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
    '/users/:id',
    { config, schema: { tags, summary: '用户详情', params: IdParams, response: { 200: AdminUserResponse } } },
    async (request) => ({ success: true as const, data: await admin.getUser(db, request.params.id) }),
  );

  app.post(
    '/users',
    {
      config,
      schema: { tags, summary: '创建用户', body: AdminCreateUserBody, response: { 200: AdminCreateUserResponse } },
    },
    async (request) => ({
      success: true as const,
      data: await admin.adminCreateUser(db, actorOf(request), request.body),
    }),
  );

  app.patch(
    '/users/:id',
    {
      config,
      schema: {
        tags,
        summary: '修改用户（昵称、角色、状态）',
        params: IdParams,
        body: AdminUpdateUserBody,
        response: { 200: AdminUpdateUserResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await admin.adminUpdateUser(db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.post(
    '/users/:id/reset-password',
    {
      config,
      schema: {
        tags,
        summary: '重置密码（结束其所有会话）',
        params: IdParams,
        body: AdminResetPasswordBody,
        response: { 200: AdminResetPasswordResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await admin.adminResetPassword(db, actorOf(request), request.params.id, request.body),
    }),
  );

  app.delete(
    '/users/:id',
    {
      config,
      schema: {
        tags,
        summary: '删除用户（输入用户名确认）',
        params: IdParams,
        body: AdminDeleteUserBody,
        response: { 200: AdminDeleteUserResponse },
      },
    },
    async (request) => {
      await admin.adminDeleteUser(db, actorOf(request), request.params.id, request.body.confirm);
      return { success: true as const };
    },
  );

  app.get(
    '/audit',
    {
      config,
      schema: { tags, summary: '管理操作审计日志', querystring: AuditListQuery, response: { 200: AuditListResponse } },
    },
    async (request) => {
      const { rows, total } = await listAudit(db, {
        ...request.query,
        targetType: request.query.targetId ? 'user' : undefined,
      });
      return {
        success: true as const,
        data: rows,
        total,
        current: request.query.current,
        pageSize: request.query.pageSize,
      };
    },
  );
};

export default routes;
