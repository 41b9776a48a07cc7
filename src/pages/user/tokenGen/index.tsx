/**
 * /user/tokenGen: create a personal API token and show it once. `?scope=ocs:query`
 * preselects a scope (other modules link here). The token is kept only in this
 * component's state: leaving the page drops it for good. A visitor never gets here: the /user
 * routes require a login (config/routes.ts) and the layout sends them to the login page.
 */
import { TokenScope } from '@/contract';
import * as userApi from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
import { PageContainer } from '@ant-design/pro-components';
import { Link, useLocation } from '@umijs/max';
import { Card } from 'antd';
import { useState } from 'react';
import TokenCreated from './components/TokenCreated';
import TokenForm from './components/TokenForm';

/** Scopes named in the query (`?scope=a&scope=b` or `?scope=a,b`), unknown ones dropped. */
export function scopesFromSearch(search: string): TokenScope[] {
  const raw = new URLSearchParams(search).getAll('scope').flatMap((v) => v.split(','));
  return [...new Set(raw.map((v) => v.trim()).filter((v) => TokenScope.safeParse(v).success))] as TokenScope[];
}

function TokenGen() {
  const location = useLocation();
  const [created, setCreated] = useState<AnswerOf<typeof userApi.createToken>['data'] | null>(null);
  return (
    <Card>
      {created ? (
        <TokenCreated token={created} onAgain={() => setCreated(null)} />
      ) : (
        <TokenForm initialScopes={scopesFromSearch(location.search)} onCreated={setCreated} />
      )}
    </Card>
  );
}

export default function TokenGenPage() {
  return (
    <PageContainer
      title="生成令牌"
      content={
        <>
          个人 API 令牌用于 OCS 脚本查询、UMS 接口推送等程序调用。已有令牌请在
          <Link to="/user/tokenManage">令牌管理</Link>中查看或撤销。
        </>
      }
    >
      <TokenGen />
    </PageContainer>
  );
}
