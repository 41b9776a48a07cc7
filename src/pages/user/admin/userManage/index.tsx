/** /user/admin/userManage: the user table (search, filters, sort, edit, delete) and the audit log. */
import { PageContainer } from '@ant-design/pro-components';
import { useState } from 'react';
import AuditTable from './components/AuditTable';
import UserTable from './components/UserTable';

type Tab = 'users' | 'audit';

export default function UserManagePage() {
  const [tab, setTab] = useState<Tab>('users');
  // Set by a row's 日志 action: the audit tab opens filtered to that user.
  const [auditTarget, setAuditTarget] = useState<string>();

  return (
    <PageContainer
      title="用户管理"
      tabList={[
        { key: 'users', tab: '用户列表' },
        { key: 'audit', tab: '审计日志' },
      ]}
      tabActiveKey={tab}
      onTabChange={(key) => {
        setTab(key as Tab);
        if (key === 'audit') setAuditTarget(undefined);
      }}
    >
      {tab === 'users' ? (
        <UserTable
          onAudit={(u) => {
            setAuditTarget(String(u.uid));
            setTab('audit');
          }}
        />
      ) : (
        <AuditTable key={auditTarget ?? ''} targetId={auditTarget} />
      )}
    </PageContainer>
  );
}
