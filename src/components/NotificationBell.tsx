/**
 * The header's bell: the signed-in user's unread notifications, counted again every minute while the
 * page is shown, when the window gets the focus back, and whenever a page marks some read
 * (`unreadChanged()`); a link to the notification centre (/user/notifications).
 */
import * as api from '@/contract/api/notifications';
import { call } from '@/services/call';
import { BellOutlined } from '@ant-design/icons';
import { Link } from '@umijs/max';
import { useRequest } from 'ahooks';
import { theme } from 'antd';
import { useEffect } from 'react';

const CHANGED = 'portal:notifications-changed';

/** Tells the bell to count again (after marking read on a page). */
export function unreadChanged(): void {
  window.dispatchEvent(new Event(CHANGED));
}

export default function NotificationBell() {
  const { data, refresh } = useRequest(() => call(api.unreadCount), {
    pollingInterval: 60_000,
    pollingWhenHidden: false,
    refreshOnWindowFocus: true,
  });
  useEffect(() => {
    window.addEventListener(CHANGED, refresh);
    return () => window.removeEventListener(CHANGED, refresh);
  }, [refresh]);
  const { token } = theme.useToken();
  const unread = data?.data.unread ?? 0;
  const label = unread > 0 ? `通知（${unread} 条未读）` : '通知';
  return (
    <Link to="/user/notifications" aria-label={label} title={label} style={{ display: 'inline-flex' }}>
      <span aria-hidden style={{ position: 'relative', display: 'inline-flex' }}>
        <BellOutlined aria-hidden style={{ fontSize: 16 }} />
        {/* The count as antd's small Badge draws it, without its animation code on every page's first load. */}
        {unread > 0 ? (
          <span
            style={{
              position: 'absolute',
              top: -6,
              insetInlineStart: 9,
              minWidth: 16,
              height: 16,
              padding: '0 4px',
              borderRadius: 8,
              background: token.colorError,
              color: token.colorTextLightSolid,
              fontSize: 11,
              lineHeight: '16px',
              textAlign: 'center',
              boxShadow: `0 0 0 1px ${token.colorBgContainer}`,
            }}
          >
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </span>
    </Link>
  );
}
