/** /OCS/OCSAdmin/bank: statistics, import (preview, then a background write with progress), export, and the question table. */
import { fetchBankStats } from '@/services/ocsAdmin';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Card, Space } from 'antd';
import { useCallback, useState } from 'react';
import BankStats from './components/BankStats';
import ImportPanel from './components/ImportPanel';
import QuestionTable from './components/QuestionTable';

export default function BankAdminPage() {
  const stats = useRequest(() => fetchBankStats());
  // Bumped after an import: the question table starts over with the new rows.
  const [reloadKey, setReloadKey] = useState(0);
  const refreshStats = stats.refresh;
  const onImported = useCallback(() => {
    refreshStats();
    setReloadKey((k) => k + 1);
  }, [refreshStats]);

  return (
    <PageContainer
      title="题库管理"
      content="导入与导出题库、搜索和修改题目、核实 AI 答案。标为错误的题目不再参与匹配。"
    >
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <BankStats stats={stats.data?.data} loading={stats.loading} />
        <Card size="small" title="导入题库">
          <ImportPanel onImported={onImported} />
        </Card>
        <QuestionTable reloadKey={reloadKey} onChanged={refreshStats} />
      </Space>
    </PageContainer>
  );
}
