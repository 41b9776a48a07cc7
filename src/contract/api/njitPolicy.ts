/**
 * NJIT field policy endpoints: the roles × fields grid, the row scopes of counselors and teachers, and
 * a preview of one student as a role sees them (the handler checks for the admin role as well, like the
 * module's other administrators' endpoints); the caller's own visible fields (any NJIT role).
 */
import { endpoint } from '../endpoint';

const tags = ['njit'];

export const getFieldPolicy = endpoint({
  method: 'GET',
  path: '/api/njit/policy',
  access: 'njit',
  tags,
  summary: '字段策略：每个 NJIT 角色对每个字段的可见程度（管理员）',
  schema: (c) => ({ response: c.FieldPolicyResponse }),
});

/** Replaces the levels of the roles given; audited. */
export const setFieldPolicy = endpoint({
  method: 'PUT',
  path: '/api/njit/policy',
  access: 'njit',
  tags,
  summary: '保存字段策略（管理员）',
  schema: (c) => ({ body: c.FieldPolicyBody, response: c.FieldPolicyResponse }),
});

/** One student by number, with the saved policy of the role applied by the server's own code; audited. */
export const previewFieldPolicy = endpoint({
  method: 'GET',
  path: '/api/njit/policy/preview',
  access: 'njit',
  tags,
  summary: '按角色预览一名学生的记录（管理员）',
  schema: (c) => ({ query: c.PolicyPreviewQuery, response: c.PolicyPreviewResponse }),
});

/** Every user with role njit_counselor or njit_teacher, with the colleges and classes they may look up. */
export const listUserScopes = endpoint({
  method: 'GET',
  path: '/api/njit/scopes',
  access: 'njit',
  tags,
  summary: '辅导员、教师可查询的学院和班级（管理员）',
  schema: (c) => ({ response: c.UserScopeListResponse }),
});

/** Empty lists: no limit. Audited. */
export const setUserScope = endpoint({
  method: 'PUT',
  path: '/api/njit/scopes/:userId',
  access: 'njit',
  tags,
  summary: '设置辅导员或教师可查询的学院和班级（管理员）',
  schema: (c) => ({ params: c.UserScopeParams, body: c.UserScopeBody, response: c.UserScopeResponse }),
});

export const myFields = endpoint({
  method: 'GET',
  path: '/api/njit/policy/mine',
  access: 'njit',
  tags,
  summary: '我可见的学生字段',
  schema: (c) => ({ response: c.MyFieldsResponse }),
});
