/**
 * Account e-mail (address verification, password reset) through nodemailer and SMTP_URL. Sending never
 * logs the message: the links in it are credentials.
 */
import nodemailer from 'nodemailer';
import type { Config } from '../../../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** SMTP_URL is set. */
  readonly enabled: boolean;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP_FROM, else the SMTP user when it is an address, else portal@localhost; named 统一门户. */
export function senderOf(config: Pick<Config, 'SMTP_URL' | 'SMTP_FROM'>): string {
  if (config.SMTP_FROM?.trim()) return config.SMTP_FROM.trim();
  let user = '';
  try {
    user = decodeURIComponent(new URL(config.SMTP_URL ?? '').username);
  } catch {
    // no URL, or none with a user
  }
  return `统一门户 <${user.includes('@') ? user : 'portal@localhost'}>`;
}

export function createMailer(config: Pick<Config, 'SMTP_URL' | 'SMTP_FROM'>): Mailer {
  if (!config.SMTP_URL) {
    return {
      enabled: false,
      send: async () => {
        throw new Error('SMTP_URL is not set');
      },
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport(config.SMTP_URL, { from: senderOf(config) });
  return {
    enabled: true,
    async send(message) {
      await transport.sendMail(message);
    },
    close: () => transport.close(),
  };
}

/**
 * Mails sent after the answer, so that how long the answer took tells nothing (whether an account
 * exists, whether a password was right); a shutdown waits for them, then closes the mailer.
 */
export class MailQueue {
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(readonly mailer: Mailer) {}

  later(task: () => Promise<unknown>, onError: (err: Error) => void): void {
    const running: Promise<unknown> = task()
      .catch(onError)
      .finally(() => this.inFlight.delete(running));
    this.inFlight.add(running);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.mailer.close();
  }
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A short message with one link: plain text and the same as simple HTML. */
export function linkMail(
  to: string,
  subject: string,
  lines: string[],
  link: { text: string; url: string },
): MailMessage {
  const text = [
    ...lines,
    '',
    `${link.text}：`,
    link.url,
    '',
    '如果这不是你本人的操作，请忽略本邮件。',
    '—— 统一门户',
  ].join('\n');
  const html = `<div style="font-family:sans-serif;line-height:1.6">${lines
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join('')}<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.text)}</a></p><p style="color:#888">${escapeHtml(
    '如果这不是你本人的操作，请忽略本邮件。',
  )}</p><p>—— 统一门户</p></div>`;
  return { to, subject, text, html };
}
