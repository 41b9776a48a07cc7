/** The health probe. */
import { endpoint } from '../endpoint';

export const health = endpoint({
  method: 'GET',
  path: '/api/health',
  access: 'public',
  tags: ['system'],
  summary: '健康检查',
  schema: (c) => ({ response: c.Health, responses: { 503: c.Health } }),
});
