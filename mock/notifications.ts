/**
 * Dev mocks of the notification centre: a handful of notifications of every kind, filtered, paged and
 * marked read in memory, and the per-kind settings (the dev user is an administrator: every kind is
 * offered), validated with the contract's schemas.
 */
import {
  NOTIFICATION_KINDS,
  NotificationListQuery,
  NotificationPreferencesBody,
  NotificationReadBody,
  type NotificationItem,
  type NotificationKind,
} from '../src/contract';
import * as notificationsApi from '../src/contract/api/notifications';
import { defineMocks, on } from './_lib/endpoint';
import { parse } from './_lib/http';

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
const seed: Array<[NotificationKind, string, string, string | null]> = [
  ['ums.failed', '消息「夜间构建报告」发送失败', 'DingTalk 310000：关键词不匹配。', '/UMS/queryMessage'],
  ['ocs.report.accepted', '你的纠错反馈已被采纳', '题目「TCP 的三次握手」的答案已更正，已退还 1 积分。', '/OCS/bill'],
  [
    'user.new-browser',
    '你的账号在新的浏览器上登录',
    '登录地址 203.0.113.7。如果不是你本人，请立即修改密码。',
    '/user/security',
  ],
  ['ocs.report.new', '有新的答案纠错反馈待审核', '题目：计算机的核心部件是？', '/OCS/OCSAdmin/reviews'],
  ['ocs.report.rejected', '你的纠错反馈未被采纳', '题目「二进制的基数」：原答案正确。', '/OCS/overview'],
  [
    'ocs.misses.growing',
    '未收录题目已达 100 道',
    '目前有 103 道题目没有任何来源能回答，正在等待补录。补录后的答案会进入题库，下次直接命中。',
    '/OCS/OCSAdmin/misses',
  ],
  [
    'ums.channel.failing',
    '推送渠道「值班群」连续 5 次发送失败',
    '钉钉机器人渠道（属于用户 ops）连续 5 次投递失败，最近一次：机器人 access_token 缺失或无效。首页“消息投递（全站）”可看到全站等待重试和发送失败的消息数。',
    '/home',
  ],
];
const items: NotificationItem[] = seed.map(([kind, title, body, link], i) => ({
  id: seed.length - i,
  kind,
  title,
  body,
  link,
  createdAt: hoursAgo(i * 5 + 1),
  readAt: i >= 3 ? hoursAgo(i) : null,
}));
const unread = () => items.filter((n) => !n.readAt).length;

function markRead(ids: number[] | null) {
  let updated = 0;
  for (const n of items) {
    if (!n.readAt && (!ids || ids.includes(n.id))) {
      n.readAt = new Date().toISOString();
      updated++;
    }
  }
  return { updated, unread: unread() };
}

const enabled = new Map<NotificationKind, boolean>([['ocs.balance.low', false]]);
const forward = new Map<NotificationKind, boolean>([['user.new-browser', true]]);
// The dev mock's first UMS channel (mock/ums.ts); ownership and consent are the server's to check.
let forwardChannelId: number | null = 1;
const preferences = () => ({
  kinds: (Object.keys(NOTIFICATION_KINDS) as NotificationKind[]).map((kind) => ({
    kind,
    enabled: enabled.get(kind) ?? true,
    forward: forward.get(kind) ?? false,
  })),
  forwardChannelId,
});

export default defineMocks(
  on(notificationsApi.listNotifications, (req, res) => {
    const q = parse(NotificationListQuery, req.query, res);
    if (!q) return;
    const found = items.filter(
      (n) => (!q.kind || n.kind === q.kind) && (!q.read || (q.read === 'read') === (n.readAt !== null)),
    );
    res.json({
      success: true,
      data: found.slice((q.current - 1) * q.pageSize, q.current * q.pageSize),
      total: found.length,
      current: q.current,
      pageSize: q.pageSize,
    });
  }),
  on(notificationsApi.unreadCount, (_req, res) => res.json({ success: true, data: { unread: unread() } })),
  on(notificationsApi.markRead, (req, res) => {
    const body = parse(NotificationReadBody, req.body, res);
    if (body) res.json({ success: true, data: markRead(body.ids) });
  }),
  on(notificationsApi.markAllRead, (_req, res) => res.json({ success: true, data: markRead(null) })),
  on(notificationsApi.getPreferences, (_req, res) => res.json({ success: true, data: preferences() })),
  on(notificationsApi.putPreferences, (req, res) => {
    const body = parse(NotificationPreferencesBody, req.body, res);
    if (!body) return;
    for (const [kind, on] of Object.entries(body.enabled ?? {})) enabled.set(kind as NotificationKind, on!);
    for (const [kind, on] of Object.entries(body.forward ?? {})) forward.set(kind as NotificationKind, on!);
    if (body.forwardChannelId !== undefined) forwardChannelId = body.forwardChannelId;
    res.json({ success: true, data: preferences() });
  }),
);
