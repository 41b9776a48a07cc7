/**
 * /user/login: username + password + 记住我, then — for an account with two-factor sign-in — the code
 * (./components/TwoFactorStep, loaded only then); campus sign-in buttons (CAS, OIDC) when configured;
 * afterwards back to `redirect` (same origin only). A CAS/OIDC sign-in that needs the code comes back
 * here with `step=2fa`, and one that failed with `sso_error`.
 * Plain antd Form rather than ProForm's LoginForm: ProForm drags ~240 kB gzip of
 * pro-field into the first page most visitors load (measured with `max build`).
 *
 * The server sends this page's first look ready-made (scripts/prerender-login.tsx renders it with
 * `prerendering`), so the form is on screen before the app has started; on mounting, the page takes
 * that static copy's place in the same frame and keeps what was typed into it (src/prerendered.ts).
 */
import type { CurrentUser, PasswordLoginResult } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import { takePrerendered } from '@/prerendered';
import { fetchAuthSettings } from '@/services/probes';
import * as userApi from '@/contract/api/account';
import type { AnswerOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { useLocation } from '@umijs/max';
import { Alert, Button, Checkbox, Form, Input, theme } from 'antd';
import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import AuthLink from '../components/AuthLink';
import AuthShell from '../components/AuthShell';
import useFinishSignIn from '../components/useFinishSignIn';

const TwoFactorStep = lazy(() => import('./components/TwoFactorStep'));

interface LoginValues {
  username: string;
  password: string;
  remember: boolean;
}

type Settings = AnswerOf<typeof userApi.settings>['data'];

export default function LoginPage({
  prerendering = false,
}: {
  /**
   * The static copy made at build time: its button is not a submit button (a form sent without the
   * app would put the password in the URL) and turns until the app has started.
   */
  prerendering?: boolean;
}) {
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  const redirect = query.get('redirect');
  const [error, setError] = useState<string>();
  // A sign-in link may be on its way (the account is under attack): for how many minutes it works.
  const [linkMinutes, setLinkMinutes] = useState<number>();
  // Why a campus sign-in failed: the texts load only when there is one (they would weigh on every visit).
  const ssoError = query.get('sso_error');
  useEffect(() => {
    if (!ssoError) return;
    let live = true;
    import('@/contract/ssoErrors').then((m) => live && setError(m.ssoErrorMessage(ssoError))).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [ssoError]);
  const [submitting, setSubmitting] = useState(false);
  const [step, setStep] = useState<'password' | 'code'>(query.get('step') === '2fa' ? 'code' : 'password');
  const [form] = Form.useForm<LoginValues>();
  const { token } = theme.useToken();
  // Before the first paint: the static copy goes, and what was typed into it (or filled in by the
  // browser) comes over, with the focus (the username's on arrival); a press of its 登录 sends the form now.
  useLayoutEffect(() => {
    const typed = takePrerendered();
    if (step !== 'password') return;
    if (typed?.username || typed?.password) form.setFieldsValue({ username: typed.username, password: typed.password });
    form.getFieldInstance(typed?.focused ?? 'username')?.focus();
    if (typed?.submitted) form.submit();
  }, [form, step]);
  // A plain effect, not ahooks' useRequest: it would be the login page's largest chunk after the form.
  const [settings, setSettings] = useState<Settings>();
  useEffect(() => {
    let live = true;
    fetchAuthSettings()
      .then((s) => live && setSettings(s.data))
      .catch(() => undefined); // without the settings the extra links stay hidden; login still works
    return () => {
      live = false;
    };
  }, []);

  const finishSignIn = useFinishSignIn();
  const finish = (user: CurrentUser) => finishSignIn(user, redirect);

  const onFinish = async (values: LoginValues) => {
    setError(undefined);
    setLinkMinutes(undefined);
    setSubmitting(true);
    try {
      const res = await call(
        userApi.login,
        { body: { username: values.username, password: values.password, remember: Boolean(values.remember) } },
        { skipErrorHandler: true },
      );
      if (res?.success) {
        const result: PasswordLoginResult = res.data;
        if ('challenge' in result) setStep('code');
        else if ('loginLink' in result) setLinkMinutes(result.minutes);
        else {
          // Signed in: the button keeps turning until the next page takes this one's place (its code may
          // still be on the way), so the form cannot be sent twice meanwhile.
          finish(result);
          return;
        }
      }
    } catch (e) {
      setError(errorMessageOf(e));
    }
    setSubmitting(false);
  };

  const sso = (['cas', 'oidc'] as const).filter((p) => settings?.sso?.[p]);

  if (step === 'code') {
    return (
      <AuthShell title="两步验证">
        <Suspense fallback={null}>
          <TwoFactorStep
            onSignedIn={finish}
            onRestart={(message) => {
              setError(message);
              setStep('password');
            }}
          />
        </Suspense>
      </AuthShell>
    );
  }

  return (
    <AuthShell title="登录" subTitle="登录以使用网课助手、消息推送等服务">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 24 }} />}
      {linkMinutes && (
        <Alert
          type="info"
          showIcon
          message="请查收登录链接"
          description={`该账号近期有多次登录失败，为保护账号，新的浏览器不能直接登录。如果密码正确，登录链接已发送到该账号验证过的邮箱，请在 ${linkMinutes} 分钟内打开。没有收到邮件，请检查密码后重试。`}
          style={{ marginBottom: 24 }}
        />
      )}
      <Form<LoginValues> form={form} name="login" size="large" initialValues={{ remember: true }} onFinish={onFinish}>
        <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
          {/* The static copy focuses it as soon as it is parsed; the app, above, when the page mounts. */}
          <Input
            prefix={<UserOutlined aria-hidden />}
            placeholder="用户名"
            autoComplete="username"
            aria-label="用户名"
            autoFocus={prerendering}
          />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
          <Input.Password
            prefix={<LockOutlined aria-hidden />}
            placeholder="密码"
            autoComplete="current-password"
            aria-label="密码"
          />
        </Form.Item>
        <div style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 8, marginBottom: 24 }}>
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox>记住我（30 天）</Checkbox>
          </Form.Item>
          <AuthLink to="/user/forgotPassword">忘记密码？</AuthLink>
        </div>
        <Button type="primary" htmlType={prerendering ? 'button' : 'submit'} block loading={submitting || prerendering}>
          登录
        </Button>
      </Form>
      {sso.length > 0 && (
        <div style={{ marginTop: 16, display: 'flex', flexDirection: 'column', gap: 8 }}>
          <div style={{ textAlign: 'center', color: token.colorTextSecondary }}>或</div>
          {sso.map((p) => (
            <Button
              key={p}
              size="large"
              block
              href={`${settings!.sso[p]!.loginUrl}${redirect ? `?redirect=${encodeURIComponent(redirect)}` : ''}`}
            >
              {settings!.sso[p]!.label}
            </Button>
          ))}
        </div>
      )}
      {settings?.registration === 'open' && (
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <AuthLink to={`/user/register${location.search}`}>注册账号</AuthLink>
        </div>
      )}
    </AuthShell>
  );
}
