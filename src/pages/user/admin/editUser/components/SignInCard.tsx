/**
 * How one user signs in, for administrators: two-factor sign-in (reset it when a phone is lost), the
 * local password (turned off for SSO-only users while an identity remains), and the linked campus
 * identities (link one by its CAS/OIDC account, or unlink). Every change is confirmed and audited.
 */
import { formatTime } from '@/components/time';
import type { LinkedIdentity, SsoProvider } from '@/contract';
import { SSO_PROVIDER_NAMES } from '@/contract/ssoErrors';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as identityApi from '@/contract/api/identity';
import type { AnswerOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  message,
  type TableColumnsType,
} from 'antd';
import { useRequest } from 'ahooks';
import { useState } from 'react';

export default function SignInCard({ uid }: { uid: number }) {
  const { data, loading, mutate, refresh } = useRequest(
    () => call(identityApi.adminUserSecurity, { params: { id: uid } }),
    { refreshDeps: [uid] },
  );
  const [error, setError] = useState<string>();
  const [form] = Form.useForm<{ provider: SsoProvider; subject: string }>();
  const [linking, setLinking] = useState(false);
  const security = data?.data;

  const run = async (action: () => Promise<AnswerOf<typeof identityApi.adminUserSecurity>>, done: string) => {
    setError(undefined);
    try {
      mutate(await action());
      message.success(done);
    } catch (e) {
      setError(errorMessageOf(e));
      refresh();
    }
  };

  const link = async (values: { provider: SsoProvider; subject: string }) => {
    setError(undefined);
    setLinking(true);
    try {
      mutate(
        await call(
          identityApi.adminLinkIdentity,
          { params: { id: uid }, body: { provider: values.provider, subject: values.subject.trim() } },
          { skipErrorHandler: true },
        ),
      );
      form.resetFields();
      message.success('已关联统一身份');
    } catch (e) {
      const field = fieldErrorsOf(e).subject;
      if (field) form.setFields([{ name: 'subject', errors: field }]);
      else setError(errorMessageOf(e));
    } finally {
      setLinking(false);
    }
  };

  if (loading && !security) {
    return (
      <Card title="登录方式与两步验证">
        <Skeleton active />
      </Card>
    );
  }
  if (!security) {
    return (
      <Card title="登录方式与两步验证">
        <Alert type="error" showIcon message="加载失败，请刷新重试" />
      </Card>
    );
  }

  const columns: TableColumnsType<LinkedIdentity> = [
    { title: '方式', dataIndex: 'provider', render: (p: SsoProvider) => SSO_PROVIDER_NAMES[p] },
    {
      title: '账号',
      dataIndex: 'subject',
      render: (s: string, i) => (
        <span style={{ wordBreak: 'break-all' }}>
          {s}
          {i.displayName ? `（${i.displayName}）` : ''}
        </span>
      ),
    },
    { title: '最近登录', dataIndex: 'lastLoginAt', render: (t: string | null) => formatTime(t, '从未') },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      key: 'action',
      render: (_, i) => (
        <Popconfirm
          title="解除该统一身份的关联？"
          description="该用户将不能再用它登录。"
          okText="解除"
          okButtonProps={{ danger: true }}
          cancelText="取消"
          onConfirm={() =>
            run(
              () =>
                call(
                  identityApi.adminUnlinkIdentity,
                  { params: { id: uid, identityId: i.id } },
                  { skipErrorHandler: true },
                ),
              '已解除关联',
            )
          }
        >
          <Button type="link" size="small" danger>
            解除
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <Card title="登录方式与两步验证">
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} />}
      <Descriptions column={1} size="small">
        <Descriptions.Item label="两步验证">
          <Space wrap>
            {security.twoFactorEnabled ? (
              <Tag color="green">{`已开启（${formatTime(security.twoFactorEnabledAt)}）`}</Tag>
            ) : (
              <Tag>未开启</Tag>
            )}
            {security.twoFactorRequired && <Tag color="blue">角色要求</Tag>}
            {security.twoFactorEnabled && `剩余恢复码 ${security.recoveryCodesLeft} 个`}
            <Popconfirm
              title="重置该用户的两步验证？"
              description="将清除其验证器、恢复码和受信任的浏览器，并退出其全部会话。"
              okText="重置"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              onConfirm={() =>
                run(
                  () => call(identityApi.adminResetTwoFactor, { params: { id: uid } }, { skipErrorHandler: true }),
                  '已重置两步验证',
                )
              }
              disabled={!security.twoFactorEnabled}
            >
              <Button size="small" danger disabled={!security.twoFactorEnabled}>
                重置两步验证
              </Button>
            </Popconfirm>
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label="本地密码登录">
          <Space wrap>
            {security.passwordLogin ? <Tag color="green">允许</Tag> : <Tag color="red">已停用</Tag>}
            {!security.hasPassword && <Tag>未设置密码</Tag>}
            <Popconfirm
              title={security.passwordLogin ? '停用本地密码登录？' : '恢复本地密码登录？'}
              description={
                security.passwordLogin ? '该用户此后只能通过统一身份认证登录。' : '该用户将可以再用密码登录。'
              }
              okText="确定"
              cancelText="取消"
              onConfirm={() =>
                run(
                  () =>
                    call(
                      identityApi.adminSetPasswordLogin,
                      { params: { id: uid }, body: { enabled: !security.passwordLogin } },
                      { skipErrorHandler: true },
                    ),
                  security.passwordLogin ? '已停用密码登录' : '已恢复密码登录',
                )
              }
              disabled={security.passwordLogin && security.identities.length === 0}
            >
              <Button size="small" disabled={security.passwordLogin && security.identities.length === 0}>
                {security.passwordLogin ? '停用密码登录' : '恢复密码登录'}
              </Button>
            </Popconfirm>
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label="邮箱">{security.email ?? '未验证'}</Descriptions.Item>
      </Descriptions>
      <Table<LinkedIdentity>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={security.identities}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '未关联统一身份' }}
        style={{ margin: '12px 0' }}
      />
      <Form form={form} layout="inline" onFinish={link} initialValues={{ provider: 'cas' }} style={{ rowGap: 8 }}>
        <Form.Item name="provider">
          <Select
            style={{ width: 160 }}
            aria-label="登录方式"
            options={(['cas', 'oidc'] as const).map((p) => ({ value: p, label: SSO_PROVIDER_NAMES[p] }))}
          />
        </Form.Item>
        <Form.Item name="subject" rules={[{ required: true, whitespace: true, message: '请输入统一身份账号' }]}>
          <Input placeholder="学工号 / OIDC sub" maxLength={256} aria-label="统一身份账号" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" loading={linking}>
            关联
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
