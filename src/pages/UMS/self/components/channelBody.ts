/**
 * Form values -> request bodies. Secrets only travel one way: an edit sends `secret` only when
 * a new one was typed, or '' when the user asked to remove signing; otherwise it is left out
 * and the server keeps what it has.
 */
import type { Channel, ChannelBody, ChannelPatchBody } from '@/contract';

export interface ChannelFormValues {
  name: string;
  webhook?: string;
  secret?: string;
  removeSecret?: boolean;
  keyword?: string;
  isDefault?: boolean;
}

const trimmed = (s?: string) => s?.trim() ?? '';

export function createBody(v: ChannelFormValues): ChannelBody {
  return {
    name: trimmed(v.name),
    webhook: trimmed(v.webhook),
    ...(trimmed(v.secret) ? { secret: trimmed(v.secret) } : {}),
    ...(trimmed(v.keyword) ? { keyword: trimmed(v.keyword) } : {}),
    isDefault: Boolean(v.isDefault),
  };
}

export function patchBody(v: ChannelFormValues, ch: Channel): ChannelPatchBody {
  const body: ChannelPatchBody = { name: trimmed(v.name), keyword: trimmed(v.keyword) };
  if (trimmed(v.webhook)) body.webhook = trimmed(v.webhook);
  if (v.removeSecret) body.secret = '';
  else if (trimmed(v.secret)) body.secret = trimmed(v.secret);
  if (v.isDefault && !ch.isDefault) body.isDefault = true;
  return body;
}
