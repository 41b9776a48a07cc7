/** One user's recent bills, for checking what an adjustment did. */
import { formatTime } from '@/components/time';
import { LEDGER_KIND_LABELS, type LedgerItem, type OcsAdminUser } from '@/contract';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { ProTable } from '@ant-design/pro-components';
import { Drawer } from 'antd';

export default function LedgerDrawer({ user, onClose }: { user: OcsAdminUser | null; onClose: () => void }) {
  return (
    <Drawer
      title={user ? `积分明细：${user.username}` : ''}
      open={!!user}
      width={720}
      onClose={onClose}
      destroyOnHidden
    >
      {user && (
        <ProTable<LedgerItem>
          rowKey="id"
          search={false}
          options={false}
          request={({ current, pageSize }) =>
            call(ocsAdminApi.userLedger, { params: { id: user.id }, query: { current, pageSize } })
          }
          pagination={{ defaultPageSize: 10, showSizeChanger: false }}
          locale={{ emptyText: '暂无积分变动' }}
          columns={[
            { title: '时间', dataIndex: 'createdAt', render: (_, r) => formatTime(r.createdAt) },
            { title: '类型', dataIndex: 'kind', render: (_, r) => LEDGER_KIND_LABELS[r.kind] },
            {
              title: '金额',
              dataIndex: 'amount',
              render: (_, r) => (r.amount > 0 ? `+${r.amount}` : String(r.amount)),
            },
            { title: '余额', dataIndex: 'balanceAfter' },
            { title: '说明', dataIndex: 'memo', ellipsis: true },
          ]}
        />
      )}
    </Drawer>
  );
}
