/**
 * Form values -> request bodies, per channel kind: only the fields of the kind travel. Secrets only go
 * one way: an edit sends `secret` only when a new one was typed, or '' when the user asked to remove
 * it, and a webhook's headers only when a new list was entered (or all were removed); otherwise they
 * are left out and the server keeps what it has.
 */
import {
  DEFAULT_SUCCESS_STATUS,
  DEFAULT_WEBHOOK_TEMPLATE,
  type Channel,
  type ChannelBody,
  type ChannelKind,
  type ChannelPatchBody,
  type WebhookHeader,
} from '@/contract';
import dayjs, { type Dayjs } from 'dayjs';

export interface ChannelFormValues {
  kind: ChannelKind;
  name: string;
  webhook?: string;
  secret?: string;
  removeSecret?: boolean;
  keyword?: string;
  email?: string;
  method?: 'POST' | 'PUT' | 'PATCH' | 'GET';
  headers?: { name?: string; value?: string }[];
  removeHeaders?: boolean;
  bodyTemplate?: string;
  successStatus?: string;
  successPath?: string;
  successValue?: string;
  perMinute?: number | null;
  /** Quiet hours as the time-range picker holds them. */
  quiet?: [Dayjs | string, Dayjs | string] | null;
  /** Overflow digest on, and after how many seconds of pacing delay. */
  digestOn?: boolean;
  digestAfterSeconds?: number | null;
  isDefault?: boolean;
}

const hhmm = (v: Dayjs | string) => (typeof v === 'string' ? v.slice(0, 5) : v.format('HH:mm'));

function quietOf(v: ChannelFormValues): { quietStart: string; quietEnd: string } | null {
  return v.quiet?.[0] && v.quiet[1] ? { quietStart: hhmm(v.quiet[0]), quietEnd: hhmm(v.quiet[1]) } : null;
}

const trimmed = (s?: string) => s?.trim() ?? '';
export const DEFAULT_DIGEST_SECONDS = 120;
const hasSecret = (kind: ChannelKind) => kind === 'dingtalk' || kind === 'feishu';

function headersOf(v: ChannelFormValues): WebhookHeader[] {
  return (v.headers ?? []).filter((h) => trimmed(h.name)).map((h) => ({ name: trimmed(h.name), value: h.value ?? '' }));
}

/** A webhook's settings as typed (empty path and value clear them). */
function webhookFields(v: ChannelFormValues): Partial<ChannelBody> {
  return {
    method: v.method ?? 'POST',
    bodyTemplate: v.bodyTemplate ?? '',
    ...(trimmed(v.successStatus) ? { successStatus: trimmed(v.successStatus) } : {}),
    successPath: trimmed(v.successPath),
    successValue: trimmed(v.successValue),
    ...(typeof v.perMinute === 'number' ? { perMinute: v.perMinute } : {}),
  };
}

export function createBody(v: ChannelFormValues): ChannelBody {
  const base = {
    kind: v.kind,
    name: trimmed(v.name),
    isDefault: Boolean(v.isDefault),
    ...quietOf(v),
    ...(v.digestOn ? { digestAfterSeconds: v.digestAfterSeconds ?? DEFAULT_DIGEST_SECONDS } : {}),
  };
  if (v.kind === 'email') return { ...base, email: trimmed(v.email) };
  const body: ChannelBody = { ...base, webhook: trimmed(v.webhook) };
  if (hasSecret(v.kind) && trimmed(v.secret)) body.secret = trimmed(v.secret);
  if (hasSecret(v.kind) && trimmed(v.keyword)) body.keyword = trimmed(v.keyword);
  if (v.kind === 'webhook') {
    Object.assign(body, webhookFields(v));
    const headers = headersOf(v);
    if (headers.length) body.headers = headers;
  }
  return body;
}

export function patchBody(v: ChannelFormValues, ch: Channel): ChannelPatchBody {
  const body: ChannelPatchBody = { name: trimmed(v.name) };
  if (ch.kind === 'email') {
    if (trimmed(v.email)) body.email = trimmed(v.email);
  } else if (trimmed(v.webhook)) body.webhook = trimmed(v.webhook);
  if (hasSecret(ch.kind)) {
    body.keyword = trimmed(v.keyword);
    if (v.removeSecret) body.secret = '';
    else if (trimmed(v.secret)) body.secret = trimmed(v.secret);
  }
  if (ch.kind === 'webhook') {
    Object.assign(body, webhookFields(v));
    const headers = headersOf(v);
    if (v.removeHeaders) body.headers = [];
    else if (headers.length) body.headers = headers;
  }
  // Quiet hours travel only when they changed; '' and '' remove them.
  const quiet = quietOf(v);
  const before = ch.quietHours;
  if (quiet && (quiet.quietStart !== before?.start || quiet.quietEnd !== before?.end)) Object.assign(body, quiet);
  else if (!quiet && before) Object.assign(body, { quietStart: '', quietEnd: '' });
  const digest = v.digestOn ? (v.digestAfterSeconds ?? DEFAULT_DIGEST_SECONDS) : null;
  if (digest !== ch.digestAfterSeconds) body.digestAfterSeconds = digest;
  if (v.isDefault && !ch.isDefault) body.isDefault = true;
  return body;
}

/** The form's starting values for a channel (secrets and header values never come back). */
export function initialValues(ch?: Channel): ChannelFormValues {
  const w = ch?.webhookSettings;
  return {
    kind: ch?.kind ?? 'dingtalk',
    name: ch?.name ?? '',
    keyword: ch?.keyword ?? '',
    email: ch?.kind === 'email' ? ch.webhookMasked : '',
    isDefault: ch?.isDefault ?? false,
    method: w?.method ?? 'POST',
    headers: [],
    bodyTemplate: w?.bodyTemplate ?? DEFAULT_WEBHOOK_TEMPLATE,
    successStatus: w?.successStatus ?? DEFAULT_SUCCESS_STATUS,
    successPath: w?.successPath ?? '',
    successValue: w?.successValue ?? '',
    perMinute: w?.perMinute ?? 60,
    digestOn: ch?.digestAfterSeconds != null,
    digestAfterSeconds: ch?.digestAfterSeconds ?? DEFAULT_DIGEST_SECONDS,
    quiet: ch?.quietHours
      ? [dayjs(`2000-01-01T${ch.quietHours.start}`), dayjs(`2000-01-01T${ch.quietHours.end}`)]
      : null,
  };
}
