/** /user/me: profile, nickname and avatar, password change, active sessions (logged-in users only: config/routes.ts). */
import { PageContainer } from '@ant-design/pro-components';
import { Col, Row } from 'antd';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { useRequest } from 'ahooks';
import { useState } from 'react';
import PasswordCard from './components/PasswordCard';
import ProfileCard from './components/ProfileCard';
import SessionsCard from './components/SessionsCard';

function PersonalCenter() {
  const { data, loading, mutate } = useRequest(() => call(userApi.getProfile));
  // Bumped after a password change so the session list shows the ended sessions gone.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <ProfileCard
          profile={data?.data}
          loading={loading}
          onChanged={(profile) => mutate({ success: true, data: profile })}
        />
      </Col>
      <Col xs={24} xl={10}>
        <PasswordCard onChanged={() => setSessionsVersion((v) => v + 1)} />
      </Col>
      <Col span={24}>
        <SessionsCard version={sessionsVersion} />
      </Col>
    </Row>
  );
}

export default function PersonalCenterPage() {
  return (
    <PageContainer title="个人中心">
      <PersonalCenter />
    </PageContainer>
  );
}
