/** Typed client of the OCS upstream banks (administrators; src/contract/api/ocsUpstream.ts). */
import * as api from '@/contract/api/ocsUpstream';
import type { AnswerOf } from '@/contract/endpoint';
import type { UpstreamBody, UpstreamPatchBody, UpstreamTestBody } from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';

export type UpstreamListAnswer = AnswerOf<typeof api.listUpstreams>;

export const fetchUpstreams = (options?: RequestOptions) => call(api.listUpstreams, {}, options);

export const createUpstream = (body: UpstreamBody, options?: RequestOptions) =>
  call(api.createUpstream, { body }, options);

export const updateUpstream = (id: number, body: UpstreamPatchBody, options?: RequestOptions) =>
  call(api.updateUpstream, { params: { id }, body }, options);

export const deleteUpstream = (id: number, options?: RequestOptions) =>
  call(api.deleteUpstream, { params: { id } }, options);

/** One real call with a sample question: not charged, not stored. */
export const testUpstream = (id: number, body: UpstreamTestBody, options?: RequestOptions) =>
  call(api.testUpstream, { params: { id }, body }, options);
