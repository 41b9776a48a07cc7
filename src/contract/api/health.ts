/** The health probes: the combined one, liveness (the process) and readiness (it can serve). */
import { endpoint } from '../endpoint';

export const health = endpoint({
  method: 'GET',
  path: '/api/health',
  access: 'public',
  tags: ['system'],
  summary: '健康检查',
  schema: (c) => ({ response: c.Health, responses: { 503: c.Health } }),
});

export const live = endpoint({
  method: 'GET',
  path: '/api/health/live',
  access: 'public',
  tags: ['system'],
  summary: '存活检查（进程在应答，不访问数据库）',
  schema: (c) => ({ response: c.HealthLive }),
});

export const ready = endpoint({
  method: 'GET',
  path: '/api/health/ready',
  access: 'public',
  tags: ['system'],
  summary: '就绪检查（数据库可用、迁移已执行、前端已构建；否则 503 并列出未通过的检查）',
  schema: (c) => ({ response: c.HealthReady, responses: { 503: c.HealthReady } }),
});
