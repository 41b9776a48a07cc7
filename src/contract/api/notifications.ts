/** The notification centre: a signed-in user's own notifications, their unread count, marking them read. */
import { endpoint } from '../endpoint';

const tags = ['notifications'];

export const listNotifications = endpoint({
  method: 'GET',
  path: '/api/notifications',
  access: 'user',
  tags,
  summary: '我的通知（新的在前；可按类型、未读筛选）',
  schema: (c) => ({ query: c.NotificationListQuery, response: c.NotificationListResponse }),
});

export const unreadCount = endpoint({
  method: 'GET',
  path: '/api/notifications/unread-count',
  access: 'user',
  tags,
  summary: '未读通知数',
  schema: (c) => ({ response: c.UnreadCountResponse }),
});

/** Only the caller's own notifications are marked; other ids are ignored. */
export const markRead = endpoint({
  method: 'POST',
  path: '/api/notifications/read',
  access: 'user',
  tags,
  summary: '标为已读',
  schema: (c) => ({ body: c.NotificationReadBody, response: c.MarkReadResponse }),
});

export const markAllRead = endpoint({
  method: 'POST',
  path: '/api/notifications/read-all',
  access: 'user',
  tags,
  summary: '全部标为已读',
  schema: (c) => ({ response: c.MarkReadResponse }),
});

/**
 * Server-sent events (text/event-stream) for the caller's open tab: `unread` ({ unread }) when it opens
 * and whenever their count changed elsewhere, `notification` ({ unread, item: { id, kind, title } }) when
 * one of theirs is created; comments as a heartbeat. Ends when the session ends.
 */
export const stream = endpoint({
  method: 'GET',
  path: '/api/notifications/stream',
  access: 'user',
  tags,
  summary: '通知实时推送（text/event-stream）',
  schema: () => ({}),
});

/** The kinds the caller may receive (administrators' kinds only to administrators), each on or off. */
export const getPreferences = endpoint({
  method: 'GET',
  path: '/api/notifications/preferences',
  access: 'user',
  tags,
  summary: '通知设置',
  schema: (c) => ({ response: c.NotificationPreferencesResponse }),
});

/** Turns the named kinds on or off (an unknown kind is refused with nothing changed); the others keep theirs. */
export const putPreferences = endpoint({
  method: 'PUT',
  path: '/api/notifications/preferences',
  access: 'user',
  tags,
  summary: '保存通知设置',
  schema: (c) => ({ body: c.NotificationPreferencesBody, response: c.NotificationPreferencesResponse }),
});
