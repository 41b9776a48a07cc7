/**
 * The shape of an endpoint descriptor: one object per HTTP endpoint holding its method, path, who may
 * call it and the zod schemas of its params, query, body and answer. The server registers routes from
 * these (server/http/route.ts), the UI calls them (src/services/call.ts) and the dev mocks are keyed by
 * them (mock/_lib/endpoint.ts). The descriptors themselves live in src/contract/api/.
 *
 * This file and src/contract/api/ import no zod at run time: the browser imports descriptors for their
 * method and path, and must not download zod and every schema for that (the first-visit budget). So a
 * descriptor names its schemas through a function of the contract (`schema: (c) => ({ body: c.X })`);
 * the server and the mocks, which need the schemas, call it with the contract module.
 */
import type { z } from 'zod';
import type * as Contract from './index';

/**
 * Who may call an endpoint. public: anyone; user: any logged-in user; admin / njit: logged in with that
 * role; token: a personal API token with `scope`, checked before the handler; ocs-token: the OCS query
 * API, which checks the token itself because the OCS script needs every refusal as an HTTP 200.
 */
export type Access = 'public' | 'user' | 'admin' | 'njit' | 'token' | 'ocs-token';

/** Ant Design Pro's showType: how the UI shows a failed answer's errorMessage. */
export const ShowType = {
  SILENT: 0,
  WARN_MESSAGE: 1,
  ERROR_MESSAGE: 2,
  NOTIFICATION: 4,
  REDIRECT: 9,
} as const;
export type ShowType = (typeof ShowType)[keyof typeof ShowType];

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface Schemas {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The JSON answer (HTTP 200). Absent for file downloads and answers the handler writes itself. */
  response?: z.ZodType;
  /** Answers with other statuses that have a body of their own (health's 503). */
  responses?: Record<number, z.ZodType>;
}

export type ContractModule = typeof Contract;

export interface Endpoint<S extends Schemas = Schemas> {
  method: Method;
  /**
   * Fastify/path-to-regexp syntax: `/api/ums/channels/:id`. Only drop-in compatible endpoints, whose
   * paths other services fixed (ServerChan's `/:sendkey.send`, PushPlus's `/send`), live outside /api.
   */
  path: `/${string}`;
  access: Access;
  /** access 'token': the scope the token must carry. */
  scope?: Contract.TokenScope;
  /** access 'token': a logged-in browser session is accepted instead of a token. */
  allowSession?: boolean;
  /** access 'token': the path parameter that carries the token (checked before the header and `token`). */
  tokenParam?: string;
  /** The body is multipart/form-data (an upload), read by the handler; the UI sends a FormData. */
  multipart?: boolean;
  /** OpenAPI: the group and the one-line description shown at /api/docs. */
  tags: readonly string[];
  summary: string;
  description?: string;
  schema: (c: ContractModule) => S;
}

/** Declares an endpoint; the identity function keeps each descriptor's literal types (`multipart: true`). */
export function endpoint<const S extends Schemas, const M extends boolean = false>(
  e: Endpoint<S> & { multipart?: M },
): Endpoint<S> & { multipart?: M } {
  return e;
}

// ---------- types derived from a descriptor ----------

export type SchemasOf<E> = E extends Endpoint<infer S> ? S : never;
type Field<E, K extends keyof Schemas> = SchemasOf<E>[K];

/** What the handler receives (after zod parsing and defaults). */
export type ParamsOf<E> = Field<E, 'params'> extends z.ZodType ? z.output<Field<E, 'params'>> : unknown;
export type QueryOf<E> = Field<E, 'query'> extends z.ZodType ? z.output<Field<E, 'query'>> : unknown;
export type BodyOf<E> = Field<E, 'body'> extends z.ZodType ? z.output<Field<E, 'body'>> : unknown;
/** What the handler returns (the response schema's input, as zod serializes it). */
export type ReplyOf<E> = Field<E, 'response'> extends z.ZodType ? z.input<Field<E, 'response'>> : unknown;
/** What a client receives. */
export type AnswerOf<E> = Field<E, 'response'> extends z.ZodType ? z.output<Field<E, 'response'>> : unknown;

/** What a client sends: path params, query and body, each only where the endpoint has them. */
export type InputOf<E> = (Field<E, 'params'> extends z.ZodType ? { params: z.input<Field<E, 'params'>> } : unknown) &
  (Field<E, 'query'> extends z.ZodType ? { query?: z.input<Field<E, 'query'>> } : unknown) &
  (Field<E, 'body'> extends z.ZodType
    ? { body: z.input<Field<E, 'body'>> }
    : E extends { multipart?: true }
      ? { body: FormData }
      : unknown);

/** `GET /api/ums/channels/:id`: the key Umi's mock server and the access table use. */
export function keyOf(e: Pick<Endpoint, 'method' | 'path'>): string {
  return `${e.method} ${e.path}`;
}

/** The path with its `:params` filled in (URL-encoded). */
export function pathOf(e: Pick<Endpoint, 'path'>, params?: Record<string, unknown>): string {
  return e.path.replace(/:(\w+)/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`${e.path}: missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
