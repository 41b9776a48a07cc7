/**
 * The daily free claim: what can be claimed, the balance, one button that stays disabled once today's
 * points are taken, and a countdown to the next opening (local midnight of the portal's time zone).
 */
import { formatTime } from '@/components/time';
import type { FreeStatus } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsFreeApi from '@/contract/api/ocsFree';
import { call } from '@/services/call';
import { GiftOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, message, Row, Space, Statistic, Typography } from 'antd';
import { useState } from 'react';

export interface ClaimCardProps {
  status: FreeStatus;
  /** When the status was fetched, to turn the server's clock into the browser's. */
  fetchedAt: number;
  onChanged: () => void;
}

export default function ClaimCard({ status, fetchedAt, onChanged }: ClaimCardProps) {
  const [claiming, setClaiming] = useState(false);
  // The countdown runs on the browser's clock: shift the opening by how far it is from the server's.
  const skew = Date.parse(status.serverTime) - fetchedAt;
  const opensAt = Date.parse(status.nextClaimAt) - skew;

  const claim = async () => {
    setClaiming(true);
    try {
      const res = await call(ocsFreeApi.claimFree, {}, { skipErrorHandler: true });
      message.success(`领取成功，获得 ${res.data.amount} 积分`);
    } catch (error) {
      message.error(errorMessageOf(error));
    } finally {
      setClaiming(false);
      onChanged();
    }
  };

  return (
    <Card title="每日免费领取" style={{ height: '100%' }}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Row gutter={16}>
          <Col span={12}>
            <Statistic title="每日可领" value={status.amount} suffix="积分" />
          </Col>
          <Col span={12}>
            <Statistic title="当前余额" value={status.balance} suffix="积分" />
          </Col>
        </Row>
        {!status.enabled && <Alert type="info" showIcon message="管理员已关闭每日免费领取" />}
        <Button
          type="primary"
          size="large"
          icon={<GiftOutlined aria-hidden />}
          block
          loading={claiming}
          disabled={!status.enabled || status.claimedToday}
          onClick={claim}
        >
          {status.claimedToday
            ? `今日已领取 ${status.claimedAmount ?? status.amount} 积分`
            : `领取 ${status.amount} 积分`}
        </Button>
        {status.claimedToday && (
          <Statistic.Timer type="countdown" title="距下次领取" value={opensAt} format="HH:mm:ss" onFinish={onChanged} />
        )}
        <Typography.Text type="secondary">
          每天可领取一次，下次开放：{formatTime(status.nextClaimAt)}（北京时间每天 0 点）
        </Typography.Text>
      </Space>
    </Card>
  );
}
