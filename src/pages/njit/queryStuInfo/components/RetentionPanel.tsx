/**
 * Students past retention, for administrators: who graduated or left more than NJIT_STUDENT_RETENTION_DAYS
 * ago (or falls due within 30 days), with the day they left and the day they became due, and "purge now"
 * after a confirmation. The purge sends the preview's cutoff, so it erases exactly the students the preview
 * counted as due; both the listing and the purge are audited on the server.
 */
import { formatTime } from '@/components/time';
import { useTableSettings } from '@/components/tableSettings';
import type { PurgeCandidate, RetentionPreview } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import { call } from '@/services/call';
import { DeleteOutlined, ExclamationCircleOutlined, InfoCircleOutlined } from '@ant-design/icons';
import { ProTable, type ActionType } from '@ant-design/pro-components';
import { Alert, Button, message, Popconfirm, Segmented, Space, Tag } from 'antd';
import { useRef, useState } from 'react';
import { shown } from '../../labels';

type Policy = Pick<RetentionPreview, 'retentionDays' | 'cutoff' | 'dueCount'>;

function PolicyNote({ policy }: { policy: Policy | null }) {
  if (!policy) return null;
  if (policy.retentionDays === 0) {
    return (
      <Alert
        type="info"
        showIcon
        icon={<InfoCircleOutlined aria-hidden />}
        message="未启用学生记录保留期限"
        description="毕业或退学学生的记录会一直保留。设置环境变量 NJIT_STUDENT_RETENTION_DAYS（天数）后，到期记录每天自动清除。"
      />
    );
  }
  return (
    <Alert
      type={policy.dueCount > 0 ? 'warning' : 'info'}
      showIcon
      icon={policy.dueCount > 0 ? <ExclamationCircleOutlined aria-hidden /> : <InfoCircleOutlined aria-hidden />}
      message={`毕业或退学满 ${policy.retentionDays} 天的学生记录每天自动清除，当前已到期 ${policy.dueCount} 人`}
      description="清除会删除学生的全部信息（姓名、学号、手机号、身份证号等），不可恢复；审计日志只保留记录编号。"
    />
  );
}

export default function RetentionPanel() {
  const ref = useRef<ActionType>(null);
  const tableSettings = useTableSettings('njit.retention');
  const [withinDays, setWithinDays] = useState(0);
  const [policy, setPolicy] = useState<Policy | null>(null);
  const [purging, setPurging] = useState(false);

  const purge = async () => {
    if (!policy?.cutoff) return;
    setPurging(true);
    try {
      const res = await call(njitApi.purgeStudents, { body: { cutoff: policy.cutoff } });
      message.success(
        res.data.purged > 0
          ? `已清除 ${res.data.purged} 名学生的记录`
          : '没有需要清除的记录：可能已被其他管理员或定时任务清除',
      );
    } catch {
      // the request layer has shown the error (e.g. the preview is out of date)
    } finally {
      setPurging(false);
    }
    await ref.current?.reload();
  };

  const due = policy?.dueCount ?? 0;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <PolicyNote policy={policy} />
      <ProTable<PurgeCandidate, { withinDays: number }>
        actionRef={ref}
        rowKey="id"
        headerTitle="到期待清除的学生"
        search={false}
        {...tableSettings}
        scroll={{ x: 'max-content' }}
        pagination={{ defaultPageSize: 10 }}
        params={{ withinDays }}
        locale={{ emptyText: withinDays === 0 ? '没有已到期的学生记录' : '30 天内没有到期的学生记录' }}
        request={async ({ current, pageSize, withinDays: within }) => {
          const res = await call(njitApi.retentionPreview, { query: { current, pageSize, withinDays: within } });
          setPolicy({ retentionDays: res.retentionDays, cutoff: res.cutoff, dueCount: res.dueCount });
          return res;
        }}
        toolBarRender={() => [
          <Segmented
            key="range"
            aria-label="到期范围"
            value={withinDays}
            onChange={(v) => setWithinDays(Number(v))}
            options={[
              { label: '已到期', value: 0 },
              { label: '含 30 天内到期', value: 30 },
            ]}
          />,
          <Popconfirm
            key="purge"
            title={`确认清除已到期的 ${due} 名学生的全部记录？`}
            description="清除后无法恢复。"
            okText="确认清除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={purge}
            disabled={due === 0}
          >
            <Button danger icon={<DeleteOutlined aria-hidden />} disabled={due === 0} loading={purging}>
              立即清除（{due} 人）
            </Button>
          </Popconfirm>,
        ]}
        columns={[
          // As the caller's field policy shows them: masked, or 无权查看 when hidden.
          { title: '学号', dataIndex: 'studentNo', render: (_, r) => shown(r.studentNo) },
          { title: '姓名', dataIndex: 'name', render: (_, r) => shown(r.name) },
          { title: '状态', dataIndex: 'status', render: (_, r) => shown(r.status) },
          { title: '学院', dataIndex: 'college', render: (_, r) => shown(r.college) },
          { title: '班级', dataIndex: 'className', render: (_, r) => shown(r.className) },
          { title: '离校时间', dataIndex: 'leftAt', render: (_, r) => formatTime(r.leftAt) },
          {
            title: '到期时间',
            dataIndex: 'dueAt',
            render: (_, r) => (
              <Space size={4} wrap>
                {formatTime(r.dueAt)}
                {policy?.cutoff && r.leftAt <= policy.cutoff ? <Tag color="warning">已到期</Tag> : <Tag>未到期</Tag>}
              </Space>
            ),
          },
        ]}
      />
    </Space>
  );
}
