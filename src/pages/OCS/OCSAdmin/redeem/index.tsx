/** /OCS/OCSAdmin/redeem: redeem-code batches — create, download the codes once, watch their use, disable. */
import type { RedeemBatch } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import { TABLE_PAGINATION } from '@/requestDefaults';
import * as ocsFreeApi from '@/contract/api/ocsFree';
import { call } from '@/services/call';
import { PageContainer, ProTable, type ActionType } from '@ant-design/pro-components';
import { message } from 'antd';
import { useRef } from 'react';
import SetupChecklist from '../components/SetupChecklist';
import { batchColumns } from './components/batchColumns';
import CreateBatchForm from './components/CreateBatchForm';
import { useTableSettings } from '@/components/tableSettings';

export default function RedeemAdminPage() {
  const tableSettings = useTableSettings('OCS.admin.redeem');
  const actionRef = useRef<ActionType>();
  const reload = () => actionRef.current?.reload();

  const disable = async (b: RedeemBatch) => {
    try {
      await call(ocsFreeApi.disableRedeemBatch, { params: { id: b.id } }, { skipErrorHandler: true });
      message.success(`批次 #${b.id} 已停用`);
    } catch (e) {
      message.error(errorMessageOf(e));
    }
    reload();
  };

  return (
    <PageContainer title="兑换码" content="按批次生成兑换码；生成后请立即下载 CSV，兑换码只能下载一次。">
      <SetupChecklist />
      <ProTable<RedeemBatch>
        rowKey="id"
        headerTitle="兑换码批次"
        actionRef={actionRef}
        columns={batchColumns({ onDisable: disable, reload })}
        request={({ current, pageSize }) => call(ocsFreeApi.listRedeemBatches, { query: { current, pageSize } })}
        pagination={TABLE_PAGINATION}
        search={false}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '还没有兑换码批次' }}
        toolBarRender={() => [<CreateBatchForm key="new" onCreated={reload} />]}
      />
    </PageContainer>
  );
}
