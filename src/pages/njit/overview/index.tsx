/**
 * /njit/overview: roster size and distributions, the last import, and my lookups against the limit.
 * Two even rows of three: the numbers, then the three distributions, every card as tall as its row.
 */
import { formatTime } from '@/components/time';
import * as njitApi from '@/contract/api/njit';
import type { AnswerOf } from '@/contract/endpoint';
import { call } from '@/services/call';
import { PageContainer, StatisticCard } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { Button, Card, Col, Progress, Result, Row, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { gradeLabel } from '../labels';
import BarChart from './BarChart';

const TITLE = 'NJIT 概览';
/** Each card fills its column, so the cards of a row end at one line. */
const FILL = { height: '100%' };

/** A distribution, or why there is none: the server leaves out one whose field the role does not see in full. */
function Distribution({
  data,
  field,
  color,
}: {
  data: { name: string; count: number }[] | undefined;
  field: string;
  color?: string;
}) {
  if (!data) return <Typography.Text type="secondary">你的角色不能完整查看「{field}」，不显示该分布。</Typography.Text>;
  return <BarChart data={data} color={color} />;
}

export default function NjitOverviewPage() {
  const [data, setData] = useState<AnswerOf<typeof njitApi.overview>['data'] | null>(null);
  const [failed, setFailed] = useState(false);
  const load = () => {
    setFailed(false);
    call(njitApi.overview)
      .then((res) => setData(res.data))
      .catch(() => setFailed(true));
  };
  useEffect(load, []);

  if (failed) {
    return (
      <PageContainer title={TITLE}>
        <Result
          status="warning"
          title="概览加载失败"
          subTitle="请检查网络后重试。"
          extra={<Button onClick={load}>重试</Button>}
        />
      </PageContainer>
    );
  }
  if (!data) {
    return (
      <PageContainer title={TITLE}>
        <Skeleton active />
      </PageContainer>
    );
  }
  const limit = data.queryLimitPerMinute;
  const last = data.lastImport;
  return (
    <PageContainer title={TITLE} content={<Link to="/njit/queryStuInfo">前往学生信息查询</Link>}>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <StatisticCard style={FILL} statistic={{ title: '学生总数', value: data.total, suffix: '人' }} />
        </Col>
        <Col xs={24} md={8}>
          <StatisticCard
            style={FILL}
            statistic={{
              title: '最近一次导入',
              value: last ? formatTime(last.createdAt) : '尚未导入',
              description: last ? (
                <Typography.Text type="secondary">
                  {last.userName} 导入 {last.fileName}：新增 {last.inserted}，更新 {last.updated}，跳过 {last.rejected}
                </Typography.Text>
              ) : undefined,
            }}
          />
        </Col>
        <Col xs={24} md={8}>
          <StatisticCard
            style={FILL}
            statistic={{
              title: '我今天的查询次数',
              value: data.queriesToday,
              suffix: '次',
              description: limit ? (
                <div>
                  <Typography.Text type="secondary">
                    本分钟 {data.queriesThisMinute} / {limit} 次（每人每分钟最多 {limit} 次）
                  </Typography.Text>
                  <Progress
                    aria-label="本分钟已用的查询次数"
                    percent={Math.min(100, (data.queriesThisMinute / limit) * 100)}
                    showInfo={false}
                    size="small"
                  />
                </div>
              ) : (
                <Typography.Text type="secondary">未设置查询频率限制</Typography.Text>
              ),
            }}
          />
        </Col>
        <Col xs={24} lg={8}>
          <Card title="按学院" style={FILL}>
            <Distribution data={data.byCollege} field="学院" />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title="按年级" style={FILL}>
            <Distribution
              data={data.byGrade?.map((b) => ({ ...b, name: gradeLabel(b.name) }))}
              field="年级"
              color="#13c2c2"
            />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title="按学籍状态" style={FILL}>
            <Distribution data={data.byStatus} field="学籍状态" color="#722ed1" />
          </Card>
        </Col>
      </Row>
    </PageContainer>
  );
}
