/**
 * /OCS/OCSAdmin/bank: statistics, import (preview, then a background write with progress) or the shipped
 * sample bank in one click, export, and the question table; the first-run checklist until OCS is set up.
 */
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Card, Space } from 'antd';
import { useCallback, useState } from 'react';
import SetupChecklist, { refreshOcsSetup } from '../components/SetupChecklist';
import BankStats from './components/BankStats';
import ImportPanel from './components/ImportPanel';
import QuestionTable from './components/QuestionTable';
import SampleImport from './components/SampleImport';

export default function BankAdminPage() {
  const stats = useRequest(() => call(ocsAdminApi.bankStats));
  // Bumped after an import: the question table starts over with the new rows.
  const [reloadKey, setReloadKey] = useState(0);
  const refreshStats = stats.refresh;
  const onImported = useCallback(() => {
    refreshStats();
    refreshOcsSetup();
    setReloadKey((k) => k + 1);
  }, [refreshStats]);
  // An edit or a deletion can empty the bank (or mark its last question wrong).
  const onChanged = useCallback(() => {
    refreshStats();
    refreshOcsSetup();
  }, [refreshStats]);

  return (
    <PageContainer
      title="题库管理"
      content="导入与导出题库、搜索和修改题目、核实 AI 答案。标为错误的题目不再参与匹配。"
    >
      <SetupChecklist />
      <Space direction="vertical" size="large" style={{ width: '100%' }}>
        <BankStats stats={stats.data?.data} loading={stats.loading} />
        <Card size="small" title="导入题库" extra={<SampleImport onImported={onImported} />}>
          <ImportPanel onImported={onImported} />
        </Card>
        <QuestionTable reloadKey={reloadKey} onChanged={onChanged} />
      </Space>
    </PageContainer>
  );
}
