/**
 * /user/security (账号安全): two-factor sign-in, the e-mail address for password reset, and linked
 * campus identities. A user whose role requires two-factor sign-in and has not set it up lands here
 * and sees only the set-up (the server refuses everything else until then).
 */
import { safeRedirect } from '@/components/redirect';
import { ssoErrorMessage } from '@/contract/ssoErrors';
import { rememberUser } from '@/initialState';
import { fetchCurrentUser } from '@/services/probes';
import { PageContainer } from '@ant-design/pro-components';
import { useLocation, useModel, useNavigate } from '@umijs/max';
import { Alert, Col, Row } from 'antd';
import EmailCard from './components/EmailCard';
import IdentitiesCard from './components/IdentitiesCard';
import TwoFactorCard from './components/TwoFactorCard';

export default function SecurityPage() {
  const { initialState, setInitialState } = useModel('@@initialState');
  const location = useLocation();
  const navigate = useNavigate();
  const query = new URLSearchParams(location.search);
  const ssoError = ssoErrorMessage(query.get('sso_error'));
  const mustEnroll = !!initialState?.currentUser?.mustEnrollTwoFactor;

  // Enrolled at last: the session is whole again; go where the user was going.
  const onEnrolled = async () => {
    try {
      const me = await fetchCurrentUser();
      if (me.success) {
        rememberUser(me.data);
        await setInitialState((s) => ({ ...s, currentUser: me.data }));
      }
    } catch {
      // The request layer has shown the error.
    }
    navigate(safeRedirect(query.get('redirect')), { replace: true });
  };

  if (mustEnroll) {
    return (
      <PageContainer title="开启两步验证">
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message="你的账号需要先开启两步验证"
          description="你的账号角色（管理员或可查看学生信息）要求登录时使用两步验证。开启前，无法使用门户的其他功能。"
        />
        <TwoFactorCard onEnabled={onEnrolled} />
      </PageContainer>
    );
  }

  return (
    <PageContainer title="账号安全">
      {ssoError && <Alert type="error" showIcon closable message={ssoError} style={{ marginBottom: 16 }} />}
      {query.get('linked') === '1' && (
        <Alert
          type="success"
          showIcon
          closable
          message="已关联统一身份，下次可以直接用它登录"
          style={{ marginBottom: 16 }}
        />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <TwoFactorCard />
        </Col>
        <Col xs={24} xl={12}>
          <EmailCard />
        </Col>
        <Col span={24}>
          <IdentitiesCard />
        </Col>
      </Row>
    </PageContainer>
  );
}
