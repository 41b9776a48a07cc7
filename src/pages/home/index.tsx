/**
 * Landing page: for a signed-in user their dashboard first (components/Dashboard, loaded only for
 * them), then the four modules, what each offers, and whether the visitor may enter.
 */
import type { AccessFlags } from '@/access';
import { loginPath } from '@/components/redirect';
import { displayName } from '@/components/user';
import { fetchHealth } from '@/services/probes';
import { CheckOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import GrantSelfNjit from '@/components/GrantSelfNjit';
import { useAccess, useModel, useNavigate } from '@umijs/max';
import { Badge, Button, Card, Col, Row, Skeleton, Tag, Typography } from 'antd';
import { useRequest } from 'ahooks';
import { lazy, Suspense } from 'react';
import { entryState, MODULES, type PortalModule } from './modules';

// Not in a visitor's download: the home page's first-visit budget (tests/e2e/budget.json) is a visitor's.
const Dashboard = lazy(() => import('./components/Dashboard'));

/** An administrator may open the student lookup for themself; other closed modules need another administrator. */
const selfGrantable = (module: PortalModule, access: AccessFlags) => module.key === 'njit' && access.isAdmin;

/** One control per card (a button that navigates, not a button inside a link: one stop for Tab). */
function EntryAction({ module, access }: { module: PortalModule; access: AccessFlags }) {
  const navigate = useNavigate();
  const state = entryState(module.group, access);
  if (state === 'enter') {
    return (
      <Button type="primary" onClick={() => navigate(module.entry)}>
        进入
      </Button>
    );
  }
  if (state === 'login') {
    return <Button onClick={() => navigate(loginPath({ pathname: module.entry }))}>需要登录</Button>;
  }
  if (selfGrantable(module, access)) return <GrantSelfNjit size="small" />;
  return <Tag color="default">无权限</Tag>;
}

/** Why a closed module is closed; in the body, where the header has no room for it. */
function ForbiddenNote({ module, access }: { module: PortalModule; access: AccessFlags }) {
  return (
    <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
      {selfGrantable(module, access)
        ? '需要 njit 角色。你是管理员，可以为自己开通（会记入管理员审计日志）。'
        : '需要相应角色才能进入，请联系管理员。'}
    </Typography.Paragraph>
  );
}

function ServerStatus() {
  const { data, error, loading } = useRequest(fetchHealth);
  if (loading) return <Badge status="processing" text="正在检查服务状态" />;
  if (error || data?.data.status !== 'ok') return <Badge status="error" text="服务异常" />;
  return <Badge status="success" text="服务正常" />;
}

export default function HomePage() {
  const access = useAccess();
  const { initialState } = useModel('@@initialState');
  const user = initialState?.currentUser ?? null;
  return (
    <PageContainer
      title="统一门户"
      subTitle={user ? `欢迎，${displayName(user)}` : '登录后可使用更多功能'}
      extra={<ServerStatus />}
    >
      {user && (
        <Suspense fallback={<Skeleton active />}>
          <Dashboard uid={user.uid} />
        </Suspense>
      )}
      {user && (
        <Typography.Title level={2} style={{ fontSize: 20 }}>
          全部模块
        </Typography.Title>
      )}
      <Row gutter={[16, 16]}>
        {MODULES.map((m) => (
          <Col key={m.key} xs={24} sm={12} xl={6}>
            <Card
              title={m.title}
              extra={<EntryAction module={m} access={access} />}
              style={{ height: '100%' }}
              // antd cuts a long title with an ellipsis; module names are short, so wrap instead.
              styles={{ title: { whiteSpace: 'normal', overflow: 'visible' } }}
            >
              {m.offers.map((line) => (
                <Typography.Paragraph key={line} style={{ marginBottom: 8 }}>
                  <CheckOutlined aria-hidden style={{ color: '#237804', marginRight: 8 }} />
                  {line}
                </Typography.Paragraph>
              ))}
              {entryState(m.group, access) === 'forbidden' && <ForbiddenNote module={m} access={access} />}
            </Card>
          </Col>
        ))}
      </Row>
    </PageContainer>
  );
}
