/**
 * Where a message goes, as the form holds it and as the API takes it: one channel, several at once
 * (fan-out: one message per channel) or a chain (the next channel when one fails for good).
 */
import type { NewMessageBody, Priority } from '@/contract';

export type RouteMode = 'single' | 'fanout' | 'fallback';

export interface RouteValues {
  mode: RouteMode;
  channel?: number;
  /** Fan-out or chain, in the order chosen. */
  channels?: number[];
  priority: Priority;
}

export function routeBody(v: RouteValues): Pick<NewMessageBody, 'channel' | 'channels' | 'fallback' | 'priority'> {
  if (v.mode === 'fanout') return { channels: v.channels ?? [], priority: v.priority };
  if (v.mode === 'fallback') return { fallback: v.channels ?? [], priority: v.priority };
  return { channel: v.channel, priority: v.priority };
}

/** A key per attempt to send: a double click or a retried request never queues the message twice. */
export function newIdempotencyKey(): string {
  return `ui-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
