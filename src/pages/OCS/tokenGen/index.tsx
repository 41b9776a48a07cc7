/**
 * /OCS/tokenGen: create an ocs:query token for the OCS script and go straight on to the config page
 * with it. The full token lives only in this page's state; the user's existing OCS tokens are below.
 */
import * as userApi from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
import { PageContainer } from '@ant-design/pro-components';
import { Card, Space } from 'antd';
import { useState } from 'react';
import OcsTokenCreated from './components/OcsTokenCreated';
import OcsTokenForm from './components/OcsTokenForm';
import OcsTokenList from './components/OcsTokenList';

export default function OcsTokenGenPage() {
  const [created, setCreated] = useState<AnswerOf<typeof userApi.createToken>['data'] | null>(null);
  const [count, setCount] = useState(0);

  const onCreated = (t: AnswerOf<typeof userApi.createToken>['data']) => {
    setCreated(t);
    setCount((n) => n + 1);
  };

  return (
    <PageContainer
      title="令牌生成"
      content="OCS 脚本用令牌向本站查题。令牌只有查题权限（ocs:query），生成后只显示一次。"
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Card>
          {created ? (
            <OcsTokenCreated token={created} onAgain={() => setCreated(null)} />
          ) : (
            <OcsTokenForm onCreated={onCreated} />
          )}
        </Card>
        <OcsTokenList refreshKey={count} />
      </Space>
    </PageContainer>
  );
}
