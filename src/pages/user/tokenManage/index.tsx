/** /user/tokenManage: the user's personal API tokens (page size 10), revoke with confirmation (logged-in users only). */
import type { TokenInfo, TokenStatus } from '@/contract';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { PlusOutlined } from '@ant-design/icons';
import { PageContainer, ProTable, type ActionType } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { Button, Empty, message } from 'antd';
import { useRef } from 'react';
import { tokenColumns } from './columns';
import { useTableSettings } from '@/components/tableSettings';

function TokenTable() {
  const tableSettings = useTableSettings('user.tokens');
  const actionRef = useRef<ActionType>();

  const revoke = async (token: TokenInfo) => {
    try {
      await call(userApi.revokeToken, { params: { id: token.id } });
      message.success(`令牌「${token.name}」已撤销`);
      actionRef.current?.reload();
    } catch {
      // The request layer has shown the error.
    }
  };

  return (
    <ProTable<TokenInfo, { status?: TokenStatus }>
      rowKey="id"
      headerTitle="我的令牌"
      actionRef={actionRef}
      columns={tokenColumns(revoke)}
      request={({ current, pageSize, status }) => call(userApi.listTokens, { query: { current, pageSize, status } })}
      pagination={TABLE_PAGINATION}
      search={{ labelWidth: 'auto' }}
      {...tableSettings}
      scroll={{ x: 'max-content' }}
      locale={{
        emptyText: (
          <Empty description="还没有令牌">
            <Link to="/user/tokenGen">生成第一个令牌</Link>
          </Empty>
        ),
      }}
      toolBarRender={() => [
        <Link key="new" to="/user/tokenGen">
          <Button type="primary" icon={<PlusOutlined aria-hidden />}>
            生成令牌
          </Button>
        </Link>,
      ]}
    />
  );
}

export default function TokenManagePage() {
  return (
    <PageContainer title="令牌管理" content="令牌的完整内容只在生成时显示一次；这里列出前缀以便区分。">
      <TokenTable />
    </PageContainer>
  );
}
