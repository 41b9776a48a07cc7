/**
 * /user/login: username + password + 记住我; afterwards back to `redirect` (same origin only).
 * Plain antd Form rather than ProForm's LoginForm: ProForm drags ~240 kB gzip of
 * pro-field into the first page most visitors load (measured with `max build`).
 */
import { safeRedirect } from '@/components/redirect';
import { rememberUser } from '@/initialState';
import { errorMessageOf } from '@/requestErrorConfig';
import { fetchAuthSettings, login } from '@/services/user';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useLocation, useModel, useNavigate } from '@umijs/max';
import { Alert, Button, Checkbox, Form, Input } from 'antd';
import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import AuthLink from '../components/AuthLink';
import AuthShell from '../components/AuthShell';

interface LoginValues {
  username: string;
  password: string;
  remember: boolean;
}

export default function LoginPage() {
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const { setInitialState } = useModel('@@initialState');
  const navigate = useNavigate();
  const location = useLocation();
  // A plain effect, not ahooks' useRequest: it would be the login page's largest chunk after the form.
  const [registrationOpen, setRegistrationOpen] = useState(false);
  useEffect(() => {
    let live = true;
    fetchAuthSettings()
      .then((s) => live && setRegistrationOpen(s.data.registration === 'open'))
      .catch(() => undefined); // without the setting the register link stays hidden; login still works
    return () => {
      live = false;
    };
  }, []);

  const onFinish = async (values: LoginValues) => {
    setError(undefined);
    setSubmitting(true);
    try {
      const res = await login(
        { username: values.username, password: values.password, remember: Boolean(values.remember) },
        { skipErrorHandler: true },
      );
      if (!res?.success) return;
      rememberUser(res.data);
      flushSync(() => setInitialState((s) => ({ ...s, currentUser: res.data })));
      const redirect = new URLSearchParams(location.search).get('redirect');
      navigate(safeRedirect(redirect), { replace: true });
    } catch (e) {
      setError(errorMessageOf(e));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthShell title="登录" subTitle="登录以使用网课助手、消息推送等服务">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} />}
      <Form<LoginValues> name="login" size="large" initialValues={{ remember: true }} onFinish={onFinish}>
        <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
          <Input prefix={<UserOutlined />} placeholder="用户名" autoComplete="username" aria-label="用户名" />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder="密码"
            autoComplete="current-password"
            aria-label="密码"
          />
        </Form.Item>
        <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 24 }}>
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox>记住我（30 天）</Checkbox>
          </Form.Item>
          {registrationOpen && <AuthLink to={`/user/register${location.search}`}>注册账号</AuthLink>}
        </div>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          登录
        </Button>
      </Form>
    </AuthShell>
  );
}
