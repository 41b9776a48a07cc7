/**
 * Campus identities (CAS, OIDC) linked to the account: the list, linking another (off to the identity
 * server and back here), and unlinking while a way to sign in remains.
 */
import { formatTime } from '@/components/time';
import type { LinkedIdentity, SsoProvider } from '@/contract';
import { SSO_PROVIDER_NAMES } from '@/contract/ssoErrors';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { urlOf } from '@/services/url';
import { fetchAuthSettings } from '@/services/probes';
import { Alert, Button, Card, Popconfirm, Space, Table, Tooltip, message, type TableColumnsType } from 'antd';
import { useRequest } from 'ahooks';

export default function IdentitiesCard() {
  const { data, loading, mutate } = useRequest(() => call(identityApi.listIdentities));
  const { data: settings } = useRequest(fetchAuthSettings);
  const list = data?.data;
  const identities = list?.identities ?? [];
  const sso = settings?.data.sso;
  const configured = (['cas', 'oidc'] as SsoProvider[]).filter((p) => sso?.[p]);
  const linkable = configured.filter((p) => !identities.some((i) => i.provider === p));
  // Unlinking the only identity of an account without a working password would lock it out.
  const lastWay = !!list && !list.passwordLogin && identities.length === 1;

  const unlink = async (id: number) => {
    try {
      mutate(await call(identityApi.unlinkIdentity, { params: { id } }));
      message.success('已解除关联');
    } catch {
      // The request layer has shown the error.
    }
  };

  const nameOf = (p: SsoProvider) => sso?.[p]?.label ?? SSO_PROVIDER_NAMES[p];
  const columns: TableColumnsType<LinkedIdentity> = [
    { title: '登录方式', dataIndex: 'provider', render: (p: SsoProvider) => nameOf(p) },
    {
      title: '账号',
      dataIndex: 'subject',
      render: (subject: string, i) => (
        <span style={{ wordBreak: 'break-all' }}>
          {subject}
          {i.displayName ? `（${i.displayName}）` : ''}
        </span>
      ),
    },
    { title: '关联时间', dataIndex: 'createdAt', render: (t: string) => formatTime(t) },
    { title: '最近登录', dataIndex: 'lastLoginAt', render: (t: string | null) => formatTime(t, '从未') },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      key: 'action',
      render: (_, i) =>
        lastWay ? (
          <Tooltip title="这是你唯一的登录方式：请先设置密码或关联其他身份">
            <Button type="link" size="small" danger disabled>
              解除关联
            </Button>
          </Tooltip>
        ) : (
          <Popconfirm
            title="解除关联？"
            description="解除后不能再用该身份登录此账号。"
            okText="解除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={() => unlink(i.id)}
          >
            <Button type="link" size="small" danger>
              解除关联
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Card
      title="统一身份认证"
      extra={
        linkable.length > 0 && (
          <Space wrap>
            {linkable.map((p) => (
              <Button key={p} href={urlOf(identityApi.ssoLink, { params: { provider: p } })}>
                {`关联${nameOf(p)}`}
              </Button>
            ))}
          </Space>
        )
      }
    >
      {list && !list.passwordLogin && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="你的账号没有可用的本地密码，只能通过统一身份认证登录"
          description="如需用密码登录，可在验证邮箱后通过“忘记密码”设置，或请管理员重置密码。"
        />
      )}
      <Table<LinkedIdentity>
        rowKey="id"
        size="small"
        loading={loading}
        columns={columns}
        dataSource={identities}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{
          emptyText: configured.length > 0 ? '尚未关联统一身份，可点击右上角按钮关联' : '门户未配置统一身份认证',
        }}
      />
    </Card>
  );
}
