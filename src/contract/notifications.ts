/**
 * The notification centre (marking read answers like UMS messages: MarkReadResponse): what the portal tells a user about their own things, and for
 * administrators about the portal's. Each kind has a Chinese name the page filters by.
 */
import { z } from 'zod';
import { ok, page, PageQuery, RowId } from './common';

export const NOTIFICATION_KINDS = {
  'ums.failed': '推送失败',
  'ums.channel.failing': '推送渠道连续失败',
  'ocs.report.accepted': '纠错已采纳',
  'ocs.report.rejected': '纠错未采纳',
  'ocs.report.new': '新的纠错反馈',
  'ocs.balance.low': '积分余额不足',
  'ocs.upstream.open': '上游题库熔断',
  'ocs.import.finished': '题库导入结束',
  'ocs.misses.growing': '未收录题目增多',
  'user.new-browser': '新浏览器登录',
  'user.token-expiring': '令牌即将过期',
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;
export const NotificationKind = z.enum(Object.keys(NOTIFICATION_KINDS) as [NotificationKind, ...NotificationKind[]]);

export const NotificationItem = z.object({
  id: z.number().int(),
  kind: NotificationKind,
  title: z.string(),
  body: z.string(),
  /** A page of the portal to open (a path starting with /), or null. */
  link: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NotificationItem = z.infer<typeof NotificationItem>;

export const NotificationListQuery = PageQuery.extend({
  kind: NotificationKind.optional(),
  read: z.enum(['read', 'unread']).optional(),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;
export const NotificationListResponse = page(NotificationItem);

export const UnreadCountResponse = ok(z.object({ unread: z.number().int() }));

export const NotificationReadBody = z.object({
  ids: z.array(RowId).min(1, '请选择要标为已读的通知').max(200, '一次最多标记 200 条'),
});
export type NotificationReadBody = z.infer<typeof NotificationReadBody>;

/**
 * Kinds only administrators receive (new reports waiting, an upstream bank's breaker opened, a bank
 * import they started ended, the 未收录 queue grew past its mark, a channel keeps failing): offered in
 * the preferences to administrators only.
 */
export const ADMIN_NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'ocs.report.new',
  'ocs.upstream.open',
  'ocs.import.finished',
  'ocs.misses.growing',
  'ums.channel.failing',
];

/**
 * Kinds never forwarded to a UMS channel: news of a failed UMS delivery, or of a channel that keeps
 * failing, could be about the forwarding channel itself, and forwarding it would fail again.
 */
export const UNFORWARDED_NOTIFICATION_KINDS: readonly NotificationKind[] = ['ums.failed', 'ums.channel.failing'];

/**
 * The kinds a user may receive, in the contract's order, each on (the default) or off and forwarded or
 * not; the UMS channel forwarded ones go to (null: none chosen, or it was deleted).
 */
export const NotificationPreferences = z.object({
  kinds: z.array(z.object({ kind: NotificationKind, enabled: z.boolean(), forward: z.boolean() })),
  forwardChannelId: z.number().int().nullable(),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;
export const NotificationPreferencesResponse = ok(NotificationPreferences);

const kindSwitches = (what: string) =>
  z.partialRecord(NotificationKind, z.boolean({ error: `${what}须为是或否` }), {
    // The unknown key itself is not echoed: it may be anything a caller sent.
    error: (issue) => (issue.code === 'invalid_type' ? `请给出各类通知的${what}` : '只能设置列出的通知类型'),
  });

/**
 * Kinds turned on or off (`enabled`), forwarded or not (`forward`), and the channel forwarded ones go
 * to (null: forward nothing); what is not named keeps its setting.
 */
export const NotificationPreferencesBody = z.strictObject({
  enabled: kindSwitches('开关').optional(),
  forward: kindSwitches('转发开关').optional(),
  forwardChannelId: RowId.nullable().optional(),
});
export type NotificationPreferencesBody = z.infer<typeof NotificationPreferencesBody>;
