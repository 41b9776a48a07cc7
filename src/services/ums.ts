/**
 * Typed client of UMS (src/contract/api/ums.ts): channels of every kind, messages in the outbox,
 * their delivery attempts, and the statistics of the overview.
 */
import * as api from '@/contract/api/ums';
import type { AnswerOf } from '@/contract/endpoint';
import type {
  ChannelBody,
  ChannelPatchBody,
  MessageStatus,
  NewMessageBody,
  TemplateBody,
  TemplatePatchBody,
} from '@/contract';
import type { RequestOptions } from '@umijs/max';
import { call } from './call';

export type ChannelListAnswer = AnswerOf<typeof api.listChannels>;
export type ChannelKindListAnswer = AnswerOf<typeof api.channelKinds>;
export type ChannelAnswer = AnswerOf<typeof api.createChannel>;
export type ChannelTestAnswer = AnswerOf<typeof api.testChannel>;
export type DeleteChannelAnswer = AnswerOf<typeof api.deleteChannel>;
export type MessageCreatedAnswer = AnswerOf<typeof api.createMessage>;
export type MessageListAnswer = AnswerOf<typeof api.listMessages>;
export type MessageDetailAnswer = AnswerOf<typeof api.getMessage>;
export type MessageActionAnswer = AnswerOf<typeof api.resendMessage>;
export type UmsStatsAnswer = AnswerOf<typeof api.stats>;

export interface MessageListParams {
  current?: number;
  pageSize?: number;
  status?: MessageStatus;
  read?: 'read' | 'unread';
  channel?: number;
  /** Searched in title and content. */
  keyword?: string;
  /** ISO times bounding `createdAt`, both inclusive. */
  from?: string;
  to?: string;
}

// ---------- channels ----------

export const fetchChannels = (options?: RequestOptions) => call(api.listChannels, {}, options);

export const fetchChannelKinds = (options?: RequestOptions) => call(api.channelKinds, {}, options);

export const createChannel = (body: ChannelBody, options?: RequestOptions) =>
  call(api.createChannel, { body }, options);

export const updateChannel = (id: number, body: ChannelPatchBody, options?: RequestOptions) =>
  call(api.updateChannel, { params: { id }, body }, options);

export const deleteChannel = (id: number, options?: RequestOptions) =>
  call(api.deleteChannel, { params: { id } }, options);

export const testChannel = (id: number, options?: RequestOptions) => call(api.testChannel, { params: { id } }, options);

/** An e-mail channel not yet confirmed: its confirmation mail again. */
export const resendConfirmation = (id: number, options?: RequestOptions) =>
  call(api.resendConfirmation, { params: { id } }, options);

/** The link of a confirmation mail, opened by the address's owner (no session needed). */
export const confirmEmail = (token: string, options?: RequestOptions) =>
  call(api.confirmEmail, { body: { token } }, options);

// ---------- messages ----------

export const createMessage = (body: NewMessageBody, options?: RequestOptions) =>
  call(api.createMessage, { body }, options);

export const fetchMessages = (query: MessageListParams, options?: RequestOptions) =>
  call(api.listMessages, { query }, options);

export const fetchMessage = (id: number, options?: RequestOptions) => call(api.getMessage, { params: { id } }, options);

export const markRead = (id: number, options?: RequestOptions) => call(api.markRead, { params: { id } }, options);

export const markAllRead = (options?: RequestOptions) => call(api.markAllRead, {}, options);

export const resendMessage = (id: number, options?: RequestOptions) =>
  call(api.resendMessage, { params: { id } }, options);

export const cancelMessage = (id: number, options?: RequestOptions) =>
  call(api.cancelMessage, { params: { id } }, options);

// ---------- templates ----------

export const fetchTemplates = (options?: RequestOptions) => call(api.listTemplates, {}, options);

export const createTemplate = (body: TemplateBody, options?: RequestOptions) =>
  call(api.createTemplate, { body }, options);

export const updateTemplate = (id: number, body: TemplatePatchBody, options?: RequestOptions) =>
  call(api.updateTemplate, { params: { id }, body }, options);

export const deleteTemplate = (id: number, options?: RequestOptions) =>
  call(api.deleteTemplate, { params: { id } }, options);

// ---------- delivery callbacks ----------

export const fetchCallbackSecret = (options?: RequestOptions) => call(api.callbackSecret, {}, options);

export const rotateCallbackSecret = (options?: RequestOptions) => call(api.rotateCallbackSecret, {}, options);

// ---------- statistics ----------

export const fetchUmsStats = (options?: RequestOptions) => call(api.stats, {}, options);
