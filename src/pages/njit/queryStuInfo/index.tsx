/**
 * /njit/queryStuInfo: student lookup for role njit; administrators also get the roster import, reveal
 * approvals, the purge of students past retention and the audit log as tabs (the route table is fixed,
 * so they live here).
 */
import { PageContainer } from '@ant-design/pro-components';
import { useAccess } from '@umijs/max';
import { useState } from 'react';
import AuditLog from './components/AuditLog';
import ImportPanel from './components/ImportPanel';
import RetentionPanel from './components/RetentionPanel';
import RevealRequests from './components/RevealRequests';
import StudentTable from './components/StudentTable';

export default function QueryStuInfoPage() {
  const { isAdmin } = useAccess();
  const [tab, setTab] = useState('search');
  const tabs = [
    { key: 'search', tab: '学生查询' },
    ...(isAdmin
      ? [
          { key: 'import', tab: '名单导入' },
          { key: 'reveals', tab: '查看审批' },
          { key: 'retention', tab: '到期清除' },
          { key: 'audit', tab: '审计日志' },
        ]
      : []),
  ];
  return (
    <PageContainer
      content="学生个人信息受保护：手机号和身份证号默认脱敏显示，每次查询和查看都会记录审计日志。"
      tabList={tabs.length > 1 ? tabs : undefined}
      tabActiveKey={tab}
      onTabChange={setTab}
    >
      {tab === 'search' && <StudentTable isAdmin={isAdmin} />}
      {isAdmin && tab === 'import' && <ImportPanel />}
      {isAdmin && tab === 'reveals' && <RevealRequests />}
      {isAdmin && tab === 'retention' && <RetentionPanel />}
      {isAdmin && tab === 'audit' && <AuditLog />}
    </PageContainer>
  );
}
