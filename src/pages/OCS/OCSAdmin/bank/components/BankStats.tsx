/** The bank at a glance: size, by source and by status, and the 20 most-hit questions. */
import { BANK_SOURCE_LABELS, BANK_STATUS_LABELS, OCS_TYPE_LABELS, type BankStats as Stats } from '@/contract';
import { Card, Col, List, Row, Statistic, Tag } from 'antd';

/** The two cards side by side are as tall as each other (the row stretches both columns). */
export default function BankStats({ stats, loading }: { stats?: Stats; loading: boolean }) {
  const s = stats;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={10}>
        <Card size="small" title="题库概况" loading={loading && !s} style={{ height: '100%' }}>
          <Row gutter={[16, 16]}>
            <Col span={8}>
              <Statistic title="题目总数" value={s?.total ?? 0} />
            </Col>
            {(['import', 'manual', 'ai', 'corrected', 'upstream'] as const).map((k) => (
              <Col span={8} key={k}>
                <Statistic title={`来源：${BANK_SOURCE_LABELS[k]}`} value={s?.bySource[k] ?? 0} />
              </Col>
            ))}
            <Col span={8}>
              <Statistic title="已核实" value={s?.byStatus.verified ?? 0} valueStyle={{ color: '#3f8600' }} />
            </Col>
            <Col span={8}>
              <Statistic title="未核实" value={s?.byStatus.unverified ?? 0} />
            </Col>
            <Col span={8}>
              <Statistic
                title="标为错误"
                value={s?.byStatus.wrong ?? 0}
                valueStyle={s?.byStatus.wrong ? { color: '#cf1322' } : undefined}
              />
            </Col>
          </Row>
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <Card
          size="small"
          title="命中最多的题目"
          loading={loading && !s}
          style={{ height: '100%' }}
          styles={{ body: { maxHeight: 260, overflow: 'auto' } }}
        >
          <List
            size="small"
            dataSource={s?.topHits ?? []}
            locale={{ emptyText: '还没有题目被命中' }}
            renderItem={(q, i) => (
              <List.Item extra={<span>{q.hitCount} 次</span>}>
                <span>
                  {i + 1}. <Tag>{OCS_TYPE_LABELS[q.type]}</Tag>
                  {q.title}
                  {q.status !== 'verified' && (
                    <Tag color={q.status === 'wrong' ? 'red' : 'orange'} style={{ marginLeft: 8 }}>
                      {BANK_STATUS_LABELS[q.status]}
                    </Tag>
                  )}
                </span>
              </List.Item>
            )}
          />
        </Card>
      </Col>
    </Row>
  );
}
