/**
 * E-mail consent: an e-mail channel's address receives nothing — no test message, no delivery — until
 * its owner opened the link of a confirmation mail, which names the portal user who asked and says
 * that ignoring it is enough. Links are PUBLIC_URL/UMS/confirmEmail#token=…, the secret known to the
 * database only by its hash, valid UMS_EMAIL_CONFIRM_HOURS and once; a newer mail (or a new address)
 * ends the older links. A user may have mailed at most UMS_EMAIL_NEW_ADDRESSES_PER_DAY different
 * addresses a day (PORTAL_TZ), one address at most three times a day and once a minute: counted in the database under a per-user lock, so the caps hold across instances.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { UMS_EMAIL_CONFIRM_HOURS, type EmailConsent, type EmailConfirmResult } from '../../../src/contract';
import type { DB } from '../../db/schema';
import { lockFor } from '../../db/locks';
import { badRequest, conflict, HttpError, notFound, tooMany } from '../../errors';
import { randomSecret, sha256 } from '../../lib/tokens';
import type { UmsContext } from './kinds';
import { escapeHtml } from './kinds/email';

const RESEND_AFTER_MS = 60_000;
const PER_ADDRESS_PER_DAY = 3;

const addressHash = (address: string) => sha256(address.trim().toLowerCase());

/** An e-mail address its owner has not agreed to (yet): nothing is sent to it. */
export const awaitsConsent = (c: { kind: string; confirmed_at: Date | null }): boolean =>
  c.kind === 'email' && c.confirmed_at === null;

/** A confirmation mail about to go: its link's secret (the row holds only the hash). */
export interface PendingMail {
  token: string;
  channelId: number;
}

/**
 * Writes a confirmation for the channel's address, within the caps (429 past them), and ends the
 * channel's earlier links; the caller sends the mail once its transaction has committed (sendMail).
 */
export async function reserveConfirmation(
  trx: Transaction<DB>,
  ctx: UmsContext,
  userId: number,
  channelId: number,
  address: string,
  now: Date,
): Promise<PendingMail> {
  const { newAddressesPerDay: cap, timeZone } = ctx.consent;
  await lockFor(trx, 'ums-consent', userId);
  const day = await sql<{ start: Date; next: Date }>`
    select (date_trunc('day', ${now}::timestamptz at time zone ${timeZone}) at time zone ${timeZone}) as start,
           ((date_trunc('day', ${now}::timestamptz at time zone ${timeZone}) + interval '1 day')
              at time zone ${timeZone}) as next`.execute(trx);
  const { start, next } = day.rows[0];
  const untilTomorrow = (new Date(next).getTime() - now.getTime()) / 1000;
  const today = await trx
    .selectFrom('ums_email_confirmations')
    .select(['address_hash', 'created_at'])
    .where('user_id', '=', userId)
    .where('created_at', '>=', new Date(start))
    .execute();
  const hash = addressHash(address);
  const addresses = new Set(today.map((r) => r.address_hash));
  if (!addresses.has(hash) && addresses.size >= cap) {
    throw tooMany(`今天已向 ${cap} 个新邮箱发送过确认邮件（每人每天最多 ${cap} 个），请明天再添加`, untilTomorrow);
  }
  if (today.filter((r) => r.address_hash === hash).length >= PER_ADDRESS_PER_DAY) {
    throw tooMany(`今天已向该邮箱发送过 ${PER_ADDRESS_PER_DAY} 次确认邮件，请明天再试`, untilTomorrow);
  }
  const last = Math.max(0, ...today.filter((r) => r.address_hash === hash).map((r) => r.created_at.getTime()));
  if (now.getTime() - last < RESEND_AFTER_MS) {
    throw tooMany('确认邮件刚刚发出，请 1 分钟后再重新发送', (last + RESEND_AFTER_MS - now.getTime()) / 1000);
  }
  await trx
    .updateTable('ums_email_confirmations')
    .set({ expires_at: now })
    .where('channel_id', '=', channelId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
  const token = randomSecret(32);
  await trx
    .insertInto('ums_email_confirmations')
    .values({
      user_id: userId,
      channel_id: channelId,
      address_hash: hash,
      token_hash: sha256(token),
      created_at: now,
      expires_at: new Date(now.getTime() + UMS_EMAIL_CONFIRM_HOURS * 3600_000),
    })
    .execute();
  return { token, channelId };
}

/**
 * Mails the confirmation link. When the mail cannot be sent, its row goes (it counts against no cap)
 * and the answer is 502; the channel stays unconfirmed, to be sent again from the channel list.
 */
export async function sendMail(
  db: Kysely<DB>,
  ctx: UmsContext,
  mail: PendingMail,
  to: { address: string; channelName: string; owner: string },
): Promise<void> {
  const link = `${ctx.consent.baseUrl}/UMS/confirmEmail#token=${mail.token}`;
  const lines = [
    `统一门户的用户「${to.owner}」想通过渠道「${to.channelName}」把消息推送到这个邮箱（${to.address}）。`,
    `只有你打开下面的链接确认后，这个邮箱才会收到推送；链接 ${UMS_EMAIL_CONFIRM_HOURS} 小时内有效，只能使用一次。`,
    '如果你不认识对方，或不想接收，忽略本邮件即可：不确认就不会收到任何推送。',
  ];
  try {
    if (!ctx.mailer || !ctx.consent.baseUrl) throw new Error('SMTP_URL or PUBLIC_URL is not set');
    await ctx.mailer.transport.sendMail({
      from: ctx.mailer.from,
      to: to.address,
      subject: '统一门户：确认接收消息推送',
      text: [...lines, '', `确认接收：${link}`, '', '—— 统一门户'].join('\n'),
      html:
        `<div style="font-family:sans-serif;line-height:1.6">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}` +
        `<p><a href="${escapeHtml(link)}">确认接收</a></p><p>—— 统一门户</p></div>`,
    });
  } catch {
    await db.deleteFrom('ums_email_confirmations').where('token_hash', '=', sha256(mail.token)).execute();
    throw new HttpError(
      502,
      'MAIL_FAILED',
      '确认邮件发送失败：渠道已保存但尚未确认，请稍后在渠道列表中点击“重新发送确认邮件”；如果一直失败，请联系管理员',
    );
  }
}

/** The channel's owner, name and address, for the mail. */
async function recipient(db: Kysely<DB>, ctx: UmsContext, channelId: number) {
  const row = await db
    .selectFrom('ums_channels as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.name', 'c.webhook_enc', 'u.username', 'u.nickname'])
    .where('c.id', '=', channelId)
    .executeTakeFirstOrThrow();
  return { address: ctx.secrets.decrypt(row.webhook_enc), channelName: row.name, owner: row.nickname || row.username };
}

/** Reserves (in the caller's committed transaction) then mails: what creating or re-addressing a channel does. */
export async function mailConfirmation(db: Kysely<DB>, ctx: UmsContext, mail: PendingMail): Promise<void> {
  await sendMail(db, ctx, mail, await recipient(db, ctx, mail.channelId));
}

/** "重新发送确认邮件": a new link for an e-mail channel not yet confirmed. */
export async function resendConfirmation(
  db: Kysely<DB>,
  ctx: UmsContext,
  userId: number,
  channelId: number,
  now: Date,
): Promise<void> {
  const mail = await db.transaction().execute(async (trx) => {
    const ch = await trx
      .selectFrom('ums_channels')
      .select(['kind', 'webhook_enc', 'confirmed_at'])
      .where('id', '=', channelId)
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!ch) throw notFound('渠道不存在');
    if (ch.kind !== 'email') throw conflict('只有邮件渠道需要确认');
    if (ch.confirmed_at) throw conflict('该邮箱已确认，无需再次发送');
    return reserveConfirmation(trx, ctx, userId, channelId, ctx.secrets.decrypt(ch.webhook_enc), now);
  });
  await mailConfirmation(db, ctx, mail);
}

/** Opens a confirmation link: the channel's address may now receive; 400/409/410 say why a link does not work. */
export async function confirmEmail(
  db: Kysely<DB>,
  ctx: UmsContext,
  token: string,
  now: Date,
): Promise<EmailConfirmResult> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('ums_email_confirmations as e')
      .innerJoin('ums_channels as c', 'c.id', 'e.channel_id')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['e.id', 'e.channel_id', 'e.address_hash', 'e.expires_at', 'e.used_at'])
      .select(['c.name', 'c.webhook_enc', 'u.username', 'u.nickname'])
      .where('e.token_hash', '=', sha256(token))
      .forUpdate()
      .executeTakeFirst();
    if (!row) {
      throw badRequest('确认链接无效：请从邮件中完整复制链接（渠道被删除后，链接也不再有效）', {
        token: ['链接无效'],
      });
    }
    if (row.used_at)
      throw new HttpError(409, 'ALREADY_CONFIRMED', '这个链接已经用过了：该邮箱已确认接收推送，无需再次确认');
    const address = ctx.secrets.decrypt(row.webhook_enc);
    if (row.expires_at.getTime() <= now.getTime() || addressHash(address) !== row.address_hash) {
      throw new HttpError(
        410,
        'LINK_EXPIRED',
        `确认链接已失效：链接 ${UMS_EMAIL_CONFIRM_HOURS} 小时内有效，对方重新发送确认邮件或修改邮箱后，旧链接也会失效。请使用最新的确认邮件，或联系对方重新发送`,
      );
    }
    await trx.updateTable('ums_email_confirmations').set({ used_at: now }).where('id', '=', row.id).execute();
    await trx.updateTable('ums_channels').set({ confirmed_at: now }).where('id', '=', row.channel_id).execute();
    return { email: address, channelName: row.name, owner: row.nickname || row.username };
  });
}

/** Each e-mail channel's consent as the channel list shows it (the last mail's time and expiry). */
export async function consentOf(
  db: Kysely<DB> | Transaction<DB>,
  channels: { id: number; kind: string; confirmed_at: Date | null }[],
): Promise<Map<number, EmailConsent>> {
  const out = new Map<number, EmailConsent>();
  const ids = channels.filter((c) => c.kind === 'email').map((c) => c.id);
  if (ids.length === 0) return out;
  const last = await db
    .selectFrom('ums_email_confirmations')
    .select(['channel_id', 'created_at', 'expires_at'])
    .distinctOn('channel_id')
    .where('channel_id', 'in', ids)
    .orderBy('channel_id')
    .orderBy('created_at', 'desc')
    .execute();
  const byChannel = new Map(last.map((r) => [r.channel_id, r]));
  for (const c of channels) {
    if (c.kind !== 'email') continue;
    const mail = byChannel.get(c.id);
    out.set(c.id, {
      confirmed: c.confirmed_at !== null,
      confirmedAt: c.confirmed_at?.toISOString() ?? null,
      sentAt: mail?.created_at.toISOString() ?? null,
      expiresAt: mail?.expires_at.toISOString() ?? null,
    });
  }
  return out;
}
