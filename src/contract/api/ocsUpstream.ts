/** OCS upstream banks (administrators): list with figures, create, change, delete, test. */
import { endpoint } from '../endpoint';

const tags = ['ocs-upstream'];

export const listUpstreams = endpoint({
  method: 'GET',
  path: '/api/ocs/admin/upstreams',
  access: 'admin',
  tags,
  summary: '上游题库：按顺序列出，含成功率、延迟、最近错误与熔断状态',
  schema: (c) => ({ response: c.UpstreamListResponse }),
});

export const createUpstream = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/upstreams',
  access: 'admin',
  tags,
  summary: '添加上游题库（与 OCS 题库配置相同的请求格式，答案用 JSONPath 选取）',
  schema: (c) => ({ body: c.UpstreamBody, response: c.UpstreamResponse }),
});

export const updateUpstream = endpoint({
  method: 'PATCH',
  path: '/api/ocs/admin/upstreams/:id',
  access: 'admin',
  tags,
  summary: '修改上游题库（未提供的字段不变；密钥为 null 时删除）',
  schema: (c) => ({ params: c.IdParams, body: c.UpstreamPatchBody, response: c.UpstreamResponse }),
});

export const deleteUpstream = endpoint({
  method: 'DELETE',
  path: '/api/ocs/admin/upstreams/:id',
  access: 'admin',
  tags,
  summary: '删除上游题库（已存入题库的答案保留）',
  schema: (c) => ({ params: c.IdParams, response: c.UpstreamDeleteResponse }),
});

/** One real call with a sample question, without charging anyone or storing the answer. */
export const testUpstream = endpoint({
  method: 'POST',
  path: '/api/ocs/admin/upstreams/:id/test',
  access: 'admin',
  tags,
  summary: '用一道题测试上游题库（不扣费、不入库）',
  schema: (c) => ({ params: c.IdParams, body: c.UpstreamTestBody, response: c.UpstreamTestResponse }),
});
