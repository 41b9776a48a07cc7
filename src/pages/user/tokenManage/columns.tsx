/** Columns of the token list; the status column doubles as the only search field. */
import { formatTime } from '@/components/time';
import { TOKEN_SCOPE_LABELS, type TokenInfo } from '@/contract';
import type { ProColumns } from '@ant-design/pro-components';
import { Button, Popconfirm, Tag, Typography } from 'antd';

export const TOKEN_STATUS_ENUM = {
  active: { text: '有效', status: 'Success' },
  expired: { text: '已过期', status: 'Warning' },
  revoked: { text: '已撤销', status: 'Default' },
} as const;

export function tokenColumns(onRevoke: (token: TokenInfo) => Promise<void>): ProColumns<TokenInfo>[] {
  return [
    { title: '名称', dataIndex: 'name', search: false, ellipsis: true },
    {
      title: '前缀',
      dataIndex: 'prefix',
      search: false,
      render: (_, t) => <Typography.Text code>{t.prefix}…</Typography.Text>,
    },
    {
      title: '权限范围',
      dataIndex: 'scopes',
      search: false,
      render: (_, t) => t.scopes.map((s) => <Tag key={s}>{TOKEN_SCOPE_LABELS[s] ?? s}</Tag>),
    },
    { title: '创建时间', dataIndex: 'createdAt', search: false, render: (_, t) => formatTime(t.createdAt) },
    { title: '过期时间', dataIndex: 'expiresAt', search: false, render: (_, t) => formatTime(t.expiresAt, '永不过期') },
    {
      title: '最近使用',
      dataIndex: 'lastUsedAt',
      search: false,
      render: (_, t) =>
        t.lastUsedAt ? (
          <>
            {formatTime(t.lastUsedAt)}
            {t.lastUsedIp && <Typography.Text type="secondary">（{t.lastUsedIp}）</Typography.Text>}
          </>
        ) : (
          '从未使用'
        ),
    },
    { title: '状态', dataIndex: 'status', valueType: 'select', valueEnum: TOKEN_STATUS_ENUM },
    {
      title: '操作',
      // Stays in view while a narrow screen scrolls the table sideways.
      fixed: 'right',
      valueType: 'option',
      key: 'option',
      render: (_, t) =>
        t.status === 'active'
          ? [
              <Popconfirm
                key="revoke"
                title={`撤销令牌「${t.name}」？`}
                description="撤销立即生效，使用该令牌的脚本和程序将无法再调用接口，且不可恢复。"
                okText="撤销"
                okButtonProps={{ danger: true }}
                cancelText="取消"
                onConfirm={() => onRevoke(t)}
              >
                <Button type="link" danger size="small">
                  撤销
                </Button>
              </Popconfirm>,
            ]
          : [],
    },
  ];
}
