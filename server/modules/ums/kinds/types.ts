/**
 * What every channel kind provides to the one outbox, worker, retry policy and timeline: how to check
 * and mask its address, how to deliver one message and classify the answer (delivered, permanent,
 * rate_limited, transient), and the pacing windows attempts are counted in.
 */
import type { Transporter } from 'nodemailer';
import type { ChannelKind, WebhookHeader } from '../../../../src/contract';
import type { SecretBox } from '../../../lib/secretbox';
import type { Outcome, RobotMessage, SendResult } from './transport';

export type { Outcome, SendResult };

/** A message as a channel sends it. */
export interface OutgoingMessage {
  id: number;
  type: RobotMessage['type'];
  title: string;
  content: string;
  extra: RobotMessage['extra'];
  createdAt: Date;
}

/** A generic webhook's stored settings (not secret); its headers are sealed separately. */
export interface WebhookConfig {
  method: 'POST' | 'PUT' | 'PATCH' | 'GET';
  bodyTemplate: string;
  successStatus: string;
  successPath: string | null;
  successValue: string | null;
  perMinute: number;
}

/** A channel with its secrets opened: server-side only, never logged. */
export interface ChannelTarget {
  id: number;
  kind: ChannelKind;
  /** The webhook URL, or the e-mail address. */
  address: string;
  secret: string | null;
  keyword: string | null;
  webhook: WebhookConfig | null;
  headers: WebhookHeader[];
}

export interface Mailer {
  transport: Transporter;
  from: string;
}

export interface PacingLimits {
  robotPerMinute: number;
  feishuPerMinute: number;
  emailPerMinute: number;
}

/** E-mail channels' consent: where links point, and how many new addresses a user may have mailed a day. */
export interface ConsentSettings {
  /** PUBLIC_URL: the base of the confirmation links (never a request's Host header); null: no e-mail channels. */
  baseUrl: string | null;
  newAddressesPerDay: number;
  /** PORTAL_TZ: what "a day" is. */
  timeZone: string;
}

/** What the UMS module hands its services: the secret box, the allow-list, timeouts, SMTP, pacing. */
export interface UmsContext {
  secrets: SecretBox;
  /** Extra accepted webhook base URLs (UMS_WEBHOOK_ALLOWLIST). */
  allowlist: string[];
  /**
   * Host names the portal is reached by (PUBLIC_URL's; a request handler adds the one its request
   * came by): webhooks and callbacks may not point there.
   */
  ownHosts: string[];
  consent: ConsentSettings;
  timeoutMs: number;
  /** The SMTP transport of the e-mail channel; null when SMTP_URL is unset. */
  mailer: Mailer | null;
  pacing: PacingLimits;
}

/** At most `max` attempts within `ms`, counted across instances in the database. */
export interface PaceWindow {
  ms: number;
  max: number;
}

export interface ChannelAdapter {
  kind: ChannelKind;
  /** Checks and normalizes the address (webhook URL or e-mail address): 400 with a field error otherwise. */
  address(raw: string, ctx: UmsContext): string;
  /** The address as the browser may see it. */
  mask(address: string): string;
  /** Attempts sharing a key share the pacing windows (a robot, an address). */
  paceKey(target: Pick<ChannelTarget, 'id' | 'address'>): string;
  windows(target: ChannelTarget, ctx: UmsContext): PaceWindow[];
  /** How long the channel pauses after a rate-limit answer that names no time. */
  throttleMs: number;
  send(target: ChannelTarget, m: OutgoingMessage, ctx: UmsContext): Promise<SendResult>;
}
