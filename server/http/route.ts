/**
 * Registers a route from its contract descriptor (src/contract/api/): method, path, access and schemas
 * come from the descriptor, so a module's routes file supplies only the handler and, where needed, a
 * server-side policy (a per-route rate limit, an error handler of its own).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import * as contract from '@contract';
import type { BodyOf, Endpoint, ParamsOf, QueryOf, ReplyOf } from '@contract/endpoint';

export type EndpointRequest<E> = FastifyRequest<{ Params: ParamsOf<E>; Querystring: QueryOf<E>; Body: BodyOf<E> }>;

/** A handler answers the descriptor's response shape, or sends the reply itself (downloads, other statuses). */
export type EndpointHandler<E> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<ReplyOf<E> | FastifyReply>;

export interface RoutePolicy {
  /** @fastify/rate-limit options for this route (per process). */
  rateLimit?: { max: number; timeWindow: string | number };
  errorHandler?: RouteOptions['errorHandler'];
  /** Runs before the auth check (headers every answer of this route needs, refusals included). */
  onRequest?: RouteOptions['onRequest'];
  /** A session that must still set up two-factor sign-in may call it (plugins/auth.ts). */
  duringEnrolment?: boolean;
  /** Server-to-server (CAS single logout): form bodies, no browser rules (plugins/auth.ts). */
  backChannel?: boolean;
}

export function route<E extends Endpoint>(
  app: FastifyInstance,
  endpoint: E,
  handler: EndpointHandler<E>,
  policy: RoutePolicy = {},
): void {
  const s = endpoint.schema(contract);
  const schema: Record<string, unknown> = { tags: [...endpoint.tags], summary: endpoint.summary };
  if (endpoint.description) schema.description = endpoint.description;
  if (s.params) schema.params = s.params;
  if (s.query) schema.querystring = s.query;
  if (s.body) schema.body = s.body;
  if (s.response) schema.response = { 200: s.response, ...s.responses };
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    config: {
      descriptor: true,
      auth: endpoint.access,
      ...(endpoint.scope ? { scope: endpoint.scope } : {}),
      ...(endpoint.allowSession ? { allowSession: true } : {}),
      ...(endpoint.tokenParam ? { tokenParam: endpoint.tokenParam } : {}),
      ...(policy.rateLimit ? { rateLimit: policy.rateLimit } : {}),
      ...(policy.duringEnrolment ? { duringEnrolment: true } : {}),
      ...(policy.backChannel ? { backChannel: true } : {}),
    },
    schema,
    ...(policy.errorHandler ? { errorHandler: policy.errorHandler } : {}),
    ...(policy.onRequest ? { onRequest: policy.onRequest } : {}),
    handler: handler as unknown as RouteOptions['handler'],
  });
}
