/**
 * The header's bell: the signed-in user's unread notifications, told live by the server's event stream
 * (`GET /api/notifications/stream`: the count when it opens or reopens, then on every new notification
 * and every marking read in another tab). While the stream is not open (the browser has no
 * EventSource, the server refused it or is reconnecting it) the count is asked every minute while the
 * page is shown, and always when the window gets the focus back and whenever a page marks some read
 * (`unreadChanged()`); a link to the notification centre (/user/notifications).
 */
import * as api from '@/contract/api/notifications';
import { call } from '@/services/call';
import { urlOf } from '@/services/url';
import { BellOutlined } from '@ant-design/icons';
import { Link } from '@umijs/max';
import { useRequest } from 'ahooks';
import { theme } from 'antd';
import { useEffect, useState } from 'react';

const CHANGED = 'portal:notifications-changed';
const POLL_MS = 60_000;
/** A stream the server refused is tried again this much later (counts are polled meanwhile). */
const RETRY_STREAM_MS = POLL_MS;

/** Tells the bell to count again (after marking read on a page). */
export function unreadChanged(): void {
  window.dispatchEvent(new Event(CHANGED));
}

/** Where the stream stands: connecting (or reconnecting by itself), open, or closed for good. */
type StreamState = 'connecting' | 'open' | 'closed';

/**
 * The stream's counts, and where it stands. EventSource reconnects by itself after a dropped
 * connection (the server opens each connection with the count, so nothing is missed); an answer other
 * than a stream (401 once the session ended, an instance restarting) closes it for good: then the
 * count is asked as before, and a new `attempt` tries the stream again later.
 */
function useUnreadStream(onUnread: (n: number) => void, attempt: number): StreamState {
  const [state, setState] = useState<StreamState>(typeof EventSource === 'undefined' ? 'closed' : 'connecting');
  useEffect(() => {
    if (typeof EventSource === 'undefined') return undefined;
    const source = new EventSource(urlOf(api.stream));
    setState('connecting');
    const told = (e: MessageEvent<string>) => {
      const unread = (JSON.parse(e.data) as { unread?: unknown }).unread;
      if (typeof unread === 'number') onUnread(unread);
    };
    source.addEventListener('unread', told);
    source.addEventListener('notification', told);
    source.onopen = () => setState('open');
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'closed' : 'connecting');
    return () => source.close();
  }, [attempt, onUnread]);
  return state;
}

export default function NotificationBell() {
  const [unread, setUnread] = useState(0);
  const [attempt, setAttempt] = useState(0);
  const stream = useUnreadStream(setUnread, attempt);
  // A failed call that means the session ended is handled by the shell (services/call.ts), as everywhere.
  const { refresh } = useRequest(() => call(api.unreadCount), {
    pollingInterval: stream === 'open' ? 0 : POLL_MS,
    pollingWhenHidden: false,
    refreshOnWindowFocus: true,
    onSuccess: (res) => setUnread(res.data.unread),
  });
  // Closed for good: count at once (a 401 there takes the visitor to sign in, as any call's would),
  // and try the stream again a polling interval later.
  useEffect(() => {
    // Without EventSource there never was a stream: the polling started with the page.
    if (stream !== 'closed' || typeof EventSource === 'undefined') return undefined;
    refresh();
    const retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_STREAM_MS);
    return () => clearTimeout(retry);
  }, [stream, refresh]);
  useEffect(() => {
    window.addEventListener(CHANGED, refresh);
    return () => window.removeEventListener(CHANGED, refresh);
  }, [refresh]);
  const { token } = theme.useToken();
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
              // Red 7, not antd's error red: white on it reads at 5.6:1 (WCAG AA), on the error red at 3.3:1.
              background: token.red7,
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
