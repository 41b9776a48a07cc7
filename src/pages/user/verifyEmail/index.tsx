/** /user/verifyEmail#token=…: the link of a verification mail; verifies the address once, logged in or not. */
import { errorMessageOf } from '@/requestErrorConfig';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { useLocation } from '@umijs/max';
import { Alert, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import AuthLink from '../components/AuthLink';
import AuthShell from '../components/AuthShell';
import { linkToken } from '@/components/linkToken';

export default function VerifyEmailPage() {
  const location = useLocation();
  const token = linkToken(location.hash);
  const [verified, setVerified] = useState<string>();
  const [error, setError] = useState<string | undefined>(token ? undefined : '链接不完整，请从邮件中完整复制链接');
  // A link works once: never send it twice, even if the effect runs twice.
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    call(identityApi.verifyEmail, { body: { token } }, { skipErrorHandler: true })
      .then((res) => setVerified(res.data.email))
      .catch((e) => setError(errorMessageOf(e)));
  }, [token]);

  return (
    <AuthShell title="验证邮箱">
      {error && <Alert type="error" showIcon message="验证失败" description={error} />}
      {verified && (
        <Alert
          type="success"
          showIcon
          message="邮箱已验证"
          description={`${verified} 已绑定到你的账号，忘记密码时可以通过它重置。`}
        />
      )}
      {!error && !verified && <Spin style={{ display: 'block', margin: '24px auto' }} />}
      <div style={{ textAlign: 'center', marginTop: 16 }}>
        <AuthLink to="/user/security">前往账号安全</AuthLink>
      </div>
    </AuthShell>
  );
}
