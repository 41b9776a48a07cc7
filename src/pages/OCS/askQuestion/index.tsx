/**
 * /OCS/askQuestion: ask one question the way the OCS script would (bank first, then AI, charged the
 * same), see the answer or why there is none, and the query history below, refreshed after each ask.
 * While the portal has neither a bank nor an AI model (a fresh install), a notice says so up front.
 */
import * as ocsApi from '@/contract/api/ocs';
import { call } from '@/services/call';
import { PageContainer } from '@ant-design/pro-components';
import { useAccess } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Col, Row, Space } from 'antd';
import { useState } from 'react';
import ServiceNotice, { cannotAnswer } from '../overview/components/ServiceNotice';
import AskForm from './components/AskForm';
import AskResult, { type AskOutcome } from './components/AskResult';
import QueryHistory from './components/QueryHistory';

export default function AskQuestionPage() {
  const [outcome, setOutcome] = useState<AskOutcome | null>(null);
  const [asked, setAsked] = useState(0);
  const isAdmin = !!useAccess()?.isAdmin;
  // Only for serviceReady; a failure leaves the page as it was (the ask itself reports errors).
  const overview = useRequest(() => call(ocsApi.overview, {}, { skipErrorHandler: true }));

  const onOutcome = (o: AskOutcome) => {
    setOutcome(o);
    // A rate-limited ask left no record; anything else did.
    if (o.kind === 'result') setAsked((n) => n + 1);
  };

  return (
    <PageContainer title="在线提问" content="不装脚本也能查题：与 OCS 脚本走同一套题库与 AI，按同样的价格扣费。">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {cannotAnswer(overview.data?.data.serviceReady) && <ServiceNotice isAdmin={isAdmin} />}
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={14}>
            <Card>
              <AskForm onOutcome={onOutcome} />
            </Card>
          </Col>
          <Col xs={24} lg={10}>
            {outcome ? (
              <AskResult outcome={outcome} onReported={() => setAsked((n) => n + 1)} />
            ) : (
              <Card>提交题目后，答案会显示在这里。</Card>
            )}
          </Col>
        </Row>
        <QueryHistory refreshKey={asked} />
      </Space>
    </PageContainer>
  );
}
