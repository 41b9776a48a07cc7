/** /OCS/freeChange: the daily free claim, redeeming a code, and the latest of both from the ledger. */
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsFreeApi from '@/contract/api/ocsFree';
import { call } from '@/services/call';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Alert, Button, Col, Row, Skeleton, Space } from 'antd';
import { useRef, useState } from 'react';
import ClaimCard from './components/ClaimCard';
import RecentRows from './components/RecentRows';
import RedeemCard from './components/RedeemCard';

export default function FreeChangePage() {
  const fetchedAt = useRef(Date.now());
  const [version, setVersion] = useState(0);
  const { data, error, loading, refresh } = useRequest(async () => {
    const res = await call(ocsFreeApi.freeStatus, {}, { skipErrorHandler: true });
    fetchedAt.current = Date.now();
    return res;
  });
  const changed = () => {
    refresh();
    setVersion((v) => v + 1);
  };
  const status = data?.data;

  return (
    <PageContainer title="每日领取与兑换" content="每天免费领取积分，或输入管理员发放的兑换码。每一笔都记在账单里。">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {error && !status && (
          <Alert
            type="error"
            showIcon
            message={`加载失败：${errorMessageOf(error)}`}
            action={
              <Button size="small" loading={loading} onClick={refresh}>
                重试
              </Button>
            }
          />
        )}
        <Row gutter={[16, 16]}>
          <Col xs={24} md={12}>
            {status ? (
              <ClaimCard status={status} fetchedAt={fetchedAt.current} onChanged={changed} />
            ) : (
              !error && <Skeleton active />
            )}
          </Col>
          <Col xs={24} md={12}>
            <RedeemCard onChanged={changed} />
          </Col>
        </Row>
        <RecentRows version={version} />
      </Space>
    </PageContainer>
  );
}
