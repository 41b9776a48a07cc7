/**
 * Typed client of UMS (src/contract/ums.ts): DingTalk robot channels, messages in the outbox,
 * their delivery attempts, and the statistics of the overview.
 */
// Type-only imports: the schemas stay out of the bundle unless a page needs them.
import type {
  ChannelBody,
  ChannelListResponse,
  ChannelPatchBody,
  ChannelResponse,
  ChannelTestResponse,
  DeleteChannelResponse,
  MessageActionResponse,
  MessageCreatedResponse,
  MessageDetailResponse,
  MessageListResponse,
  MessageStatus,
  NewMessageBody,
  UmsStatsResponse,
} from '@/contract';
import { request, type RequestOptions } from '@umijs/max';
import type { z } from 'zod';

export type ChannelListAnswer = z.infer<typeof ChannelListResponse>;
export type ChannelAnswer = z.infer<typeof ChannelResponse>;
export type ChannelTestAnswer = z.infer<typeof ChannelTestResponse>;
export type DeleteChannelAnswer = z.infer<typeof DeleteChannelResponse>;
export type MessageCreatedAnswer = z.infer<typeof MessageCreatedResponse>;
export type MessageListAnswer = z.infer<typeof MessageListResponse>;
export type MessageDetailAnswer = z.infer<typeof MessageDetailResponse>;
export type MessageActionAnswer = z.infer<typeof MessageActionResponse>;
export type UmsStatsAnswer = z.infer<typeof UmsStatsResponse>;

export interface MessageListParams {
  current?: number;
  pageSize?: number;
  status?: MessageStatus;
  channel?: number;
  /** Searched in title and content. */
  keyword?: string;
  /** ISO times bounding `createdAt`, both inclusive. */
  from?: string;
  to?: string;
}

// ---------- channels ----------

/** GET /api/ums/channels */
export function fetchChannels(options?: RequestOptions) {
  return request<ChannelListAnswer>('/api/ums/channels', { method: 'GET', ...options });
}

/** POST /api/ums/channels — 400 for a webhook that is not a DingTalk robot, 409 past 20 channels. */
export function createChannel(body: ChannelBody, options?: RequestOptions) {
  return request<ChannelAnswer>('/api/ums/channels', { method: 'POST', data: body, ...options });
}

/** PATCH /api/ums/channels/:id — omit `secret` to keep it, send '' to remove it. */
export function updateChannel(id: number, body: ChannelPatchBody, options?: RequestOptions) {
  return request<ChannelAnswer>(`/api/ums/channels/${id}`, { method: 'PATCH', data: body, ...options });
}

/** DELETE /api/ums/channels/:id — 409 while the channel still has messages waiting. */
export function deleteChannel(id: number, options?: RequestOptions) {
  return request<DeleteChannelAnswer>(`/api/ums/channels/${id}`, { method: 'DELETE', ...options });
}

/** POST /api/ums/channels/:id/test — one real attempt; the answer carries DingTalk's errcode/errmsg. */
export function testChannel(id: number, options?: RequestOptions) {
  return request<ChannelTestAnswer>(`/api/ums/channels/${id}/test`, { method: 'POST', data: {}, ...options });
}

// ---------- messages ----------

/** POST /api/ums/messages — written to the outbox and answered at once with its id. */
export function createMessage(body: NewMessageBody, options?: RequestOptions) {
  return request<MessageCreatedAnswer>('/api/ums/messages', { method: 'POST', data: body, ...options });
}

/** GET /api/ums/messages — newest first. */
export function fetchMessages(params: MessageListParams, options?: RequestOptions) {
  return request<MessageListAnswer>('/api/ums/messages', { method: 'GET', params, ...options });
}

/** GET /api/ums/messages/:id — with every delivery attempt. */
export function fetchMessage(id: number, options?: RequestOptions) {
  return request<MessageDetailAnswer>(`/api/ums/messages/${id}`, { method: 'GET', ...options });
}

/** POST /api/ums/messages/:id/resend — failed messages only, 409 otherwise. */
export function resendMessage(id: number, options?: RequestOptions) {
  return request<MessageActionAnswer>(`/api/ums/messages/${id}/resend`, { method: 'POST', data: {}, ...options });
}

/** POST /api/ums/messages/:id/cancel — queued (or scheduled) and retrying messages only, 409 otherwise. */
export function cancelMessage(id: number, options?: RequestOptions) {
  return request<MessageActionAnswer>(`/api/ums/messages/${id}/cancel`, { method: 'POST', data: {}, ...options });
}

// ---------- statistics ----------

/** GET /api/ums/stats — counts by status, 14 days of delivered/failed, channel health. */
export function fetchUmsStats(options?: RequestOptions) {
  return request<UmsStatsAnswer>('/api/ums/stats', { method: 'GET', ...options });
}
