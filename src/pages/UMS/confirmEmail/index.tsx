/**
 * /UMS/confirmEmail#token=…: the link of an e-mail channel's confirmation mail. Its reader (who may
 * have no account) agrees to receive one user's pushes at this address; until then nothing is sent.
 */
import { errorMessageOf } from '@/requestErrorConfig';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { useLocation } from '@umijs/max';
import { linkToken } from '@/components/linkToken';
import type { EmailConfirmResult } from '@/contract';
import { Link } from '@umijs/max';
import { Alert, Card, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';

export default function ConfirmEmailPage() {
  const location = useLocation();
  const token = linkToken(location.hash);
  const [done, setDone] = useState<EmailConfirmResult>();
  const [error, setError] = useState<string | undefined>(token ? undefined : '链接不完整，请从邮件中完整复制链接');
  // A link works once: never send it twice, even if the effect runs twice.
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    call(umsApi.confirmEmail, { body: { token } }, { skipErrorHandler: true })
      .then((res) => setDone(res.data))
      .catch((e) => setError(errorMessageOf(e)));
  }, [token]);

  return (
    // Outside the layout: the address's owner may have no account. 440 px wide at most, full width at 375 px.
    <div style={{ minHeight: '100vh', background: '#f5f5f5', padding: '48px 16px', boxSizing: 'border-box' }}>
      <Card style={{ maxWidth: 440, margin: '0 auto' }}>
        <Typography.Title level={3} style={{ textAlign: 'center', marginTop: 0 }}>
          统一门户 · 确认接收推送
        </Typography.Title>
        {error && <Alert type="error" showIcon message="确认失败" description={error} />}
        {done && (
          <Alert
            type="success"
            showIcon
            message="已确认"
            description={`${done.email} 将接收用户「${done.owner}」通过渠道「${done.channelName}」推送的消息。不想再接收时，请联系对方删除该渠道。`}
          />
        )}
        {!error && !done && <Spin style={{ display: 'block', margin: '24px auto' }} />}
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <Link to="/home">返回首页</Link>
        </div>
      </Card>
    </div>
  );
}
