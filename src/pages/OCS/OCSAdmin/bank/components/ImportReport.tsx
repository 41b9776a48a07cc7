/** The preview of an uploaded bank file: counts, row-numbered problems and a sample, before anything is written. */
import { OCS_TYPE_LABELS, type BankImportPreview } from '@/contract';
import { Alert, Card, Col, Row, Statistic, Table, Tabs } from 'antd';

export default function ImportReport({ preview: p }: { preview: BankImportPreview }) {
  return (
    <Card size="small" title={`预览：${p.fileName}`}>
      <Row gutter={16}>
        <Col span={5}>
          <Statistic title="数据行" value={p.total} />
        </Col>
        <Col span={5}>
          <Statistic title="可导入" value={p.valid} valueStyle={{ color: '#3f8600' }} />
        </Col>
        <Col span={5}>
          <Statistic title="将新增" value={p.valid - p.existing} />
        </Col>
        <Col span={4}>
          <Statistic title="将更新" value={p.existing} />
        </Col>
        <Col span={5}>
          <Statistic
            title="有问题（跳过）"
            value={p.rejected}
            valueStyle={p.rejected ? { color: '#cf1322' } : undefined}
          />
        </Col>
      </Row>
      {p.rejected > 0 ? (
        <Alert
          style={{ marginTop: 16 }}
          type="warning"
          showIcon
          message={`${p.rejected} 行有问题，确认导入时将跳过这些行${p.rejected > p.issues.length ? `；下方列出前 ${p.issues.length} 个` : ''}。`}
        />
      ) : (
        <Alert style={{ marginTop: 16 }} type="success" showIcon message="校验通过，没有发现问题。" />
      )}
      <Tabs
        style={{ marginTop: 8 }}
        items={[
          {
            key: 'issues',
            label: `问题（${p.rejected}）`,
            children: (
              <Table
                size="small"
                rowKey={(r) => `${r.row}-${r.message}`}
                dataSource={p.issues}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                columns={[
                  { title: '行号', dataIndex: 'row', width: 80 },
                  { title: '问题', dataIndex: 'message' },
                ]}
                locale={{ emptyText: '没有问题' }}
              />
            ),
          },
          {
            key: 'sample',
            label: `数据预览（前 ${p.sample.length} 行）`,
            children: (
              <Table
                size="small"
                rowKey="row"
                dataSource={p.sample}
                pagination={false}
                scroll={{ x: 'max-content' }}
                columns={[
                  { title: '行号', dataIndex: 'row' },
                  { title: '题目', dataIndex: 'title', ellipsis: true },
                  {
                    title: '题型',
                    dataIndex: 'type',
                    render: (t: keyof typeof OCS_TYPE_LABELS) => OCS_TYPE_LABELS[t] ?? t,
                  },
                  { title: '选项', dataIndex: 'options', render: (o: string[]) => o.join(' / ') || '-' },
                  { title: '答案', dataIndex: 'answer', render: (a: string[]) => a.join('#') },
                ]}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
