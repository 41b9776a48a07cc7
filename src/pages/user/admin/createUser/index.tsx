/** /user/admin/createUser: create an account; a generated initial password is shown once. */
import CopyableSecret from '@/components/CopyableSecret';
import * as userApi from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
import { PageContainer } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { Button, Card, Result, Space } from 'antd';
import { useState } from 'react';
import CreateUserForm from './components/CreateUserForm';

export default function CreateUserPage() {
  const [created, setCreated] = useState<AnswerOf<typeof userApi.adminCreateUser>['data'] | null>(null);
  return (
    <PageContainer title="新建用户">
      <Card>
        {created ? (
          <Result
            status="success"
            title={`用户 ${created.username} 已创建`}
            subTitle={created.generatedPassword ? '请把初始密码安全地交给该用户，并提醒其登录后修改。' : undefined}
            extra={
              <Space wrap>
                <Link to="/user/admin/userManage">
                  <Button type="primary">返回用户列表</Button>
                </Link>
                <Link to={`/user/admin/editUser?uid=${created.uid}`}>
                  <Button>编辑该用户</Button>
                </Link>
                <Button onClick={() => setCreated(null)}>继续创建</Button>
              </Space>
            }
          >
            {created.generatedPassword && <CopyableSecret value={created.generatedPassword} label="初始密码" />}
          </Result>
        ) : (
          <CreateUserForm onCreated={setCreated} />
        )}
      </Card>
    </PageContainer>
  );
}
