/**
 * /user/loginLink#token=…: the link a login mailed while the account's failed logins made new browsers
 * wait. Signs this browser in once (or asks for the second factor, on the login page), then goes home.
 */
import { errorMessageOf } from '@/requestErrorConfig';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { useLocation, useNavigate } from '@umijs/max';
import { Alert, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import AuthLink from '../components/AuthLink';
import AuthShell from '../components/AuthShell';
import { linkToken } from '@/components/linkToken';
import useFinishSignIn from '../components/useFinishSignIn';

export default function LoginLinkPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const token = linkToken(location.hash);
  const finishSignIn = useFinishSignIn();
  const [error, setError] = useState<string | undefined>(token ? undefined : '链接不完整，请从邮件中完整复制链接');
  // A link works once: never send it twice, even if the effect runs twice.
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    call(identityApi.loginWithLink, { body: { token } }, { skipErrorHandler: true })
      .then((res) => {
        const result = res.data;
        if ('challenge' in result) navigate('/user/login?step=2fa', { replace: true });
        else finishSignIn(result, null);
      })
      .catch((e) => setError(errorMessageOf(e)));
  }, [token]); // eslint-disable-line react-hooks/exhaustive-deps -- once per link

  return (
    <AuthShell title="通过链接登录">
      {error ? (
        <Alert type="error" showIcon message="无法登录" description={error} />
      ) : (
        <Spin tip="正在登录…" style={{ display: 'block', margin: '24px auto' }}>
          <div style={{ height: 48 }} />
        </Spin>
      )}
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <AuthLink to="/user/login">返回登录</AuthLink>
      </div>
    </AuthShell>
  );
}
