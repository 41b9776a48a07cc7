/** The preview and validation report of an uploaded roster, before anything is written. */
import type { ImportPreview } from '@/contract';
import { Alert, Card, Col, Row, Statistic, Table, Tabs } from 'antd';

export default function ImportReport({ preview }: { preview: ImportPreview }) {
  const p = preview;
  const encoding =
    p.format === 'xlsx' ? 'Excel 表格' : `CSV（${p.encoding === 'gbk' ? 'GBK 编码，已自动转换' : 'UTF-8 编码'}）`;
  return (
    <Card size="small" title={`预览：${p.fileName}`} extra={encoding}>
      <Row gutter={16}>
        <Col span={4}>
          <Statistic title="数据行" value={p.totalRows} />
        </Col>
        <Col span={4}>
          <Statistic title="可导入" value={p.validRows} valueStyle={{ color: '#3f8600' }} />
        </Col>
        <Col span={4}>
          <Statistic title="将新增" value={p.toInsert} />
        </Col>
        <Col span={4}>
          <Statistic title="将更新" value={p.toUpdate} />
        </Col>
        <Col span={4}>
          <Statistic
            title="有问题（不导入）"
            value={p.rejectedRows}
            valueStyle={p.rejectedRows ? { color: '#cf1322' } : undefined}
          />
        </Col>
      </Row>
      {p.rejectedRows > 0 ? (
        <Alert
          style={{ marginTop: 16 }}
          type="warning"
          showIcon
          message={`${p.rejectedRows} 行有问题，确认导入时将跳过这些行；共 ${p.issueCount} 个问题${p.issueCount > p.issues.length ? `，下方列出前 ${p.issues.length} 个` : ''}。`}
        />
      ) : (
        <Alert style={{ marginTop: 16 }} type="success" showIcon message="校验通过，没有发现问题。" />
      )}
      <Tabs
        style={{ marginTop: 8 }}
        items={[
          {
            key: 'issues',
            label: `问题（${p.issueCount}）`,
            children: (
              <Table
                size="small"
                rowKey={(r) => `${r.row}-${r.field}-${r.message}`}
                dataSource={p.issues}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                columns={[
                  { title: '行号', dataIndex: 'row', width: 80 },
                  { title: '字段', dataIndex: 'field', width: 120 },
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
                  { title: '学号', dataIndex: 'studentNo' },
                  { title: '姓名', dataIndex: 'name' },
                  { title: '性别', dataIndex: 'gender' },
                  { title: '学院', dataIndex: 'college' },
                  { title: '专业', dataIndex: 'major' },
                  { title: '班级', dataIndex: 'className' },
                  { title: '年级', dataIndex: 'grade' },
                  { title: '状态', dataIndex: 'status' },
                  { title: '手机号', dataIndex: 'phone' },
                  { title: '身份证号', dataIndex: 'idCard' },
                ]}
              />
            ),
          },
          {
            key: 'columns',
            label: '识别的列',
            children: (
              <Table
                size="small"
                rowKey="header"
                pagination={false}
                dataSource={Object.entries(p.columns).map(([header, field]) => ({ header, field }))}
                columns={[
                  { title: '文件中的表头', dataIndex: 'header' },
                  { title: '对应字段', dataIndex: 'field' },
                ]}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}
