/**
 * /user/admin/editUser?uid=<id>: nickname, roles, status, a password reset, sign-in safety (login
 * restriction, personal tokens) and how the user signs in (two-factor, password, campus identities).
 */
import type { AdminUser } from '@/contract';
import { errorMessageOf, statusOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { PageContainer } from '@ant-design/pro-components';
import { Link, useLocation, useModel } from '@umijs/max';
import { Button, Col, Result, Row, Skeleton, Space } from 'antd';
import { useRequest } from 'ahooks';
import EditUserForm from './components/EditUserForm';
import ResetPasswordCard from './components/ResetPasswordCard';
import SecurityCard from './components/SecurityCard';
import SignInCard from './components/SignInCard';

const BACK = (
  <Link to="/user/admin/userManage">
    <Button type="primary">返回用户列表</Button>
  </Link>
);

function uidOf(search: string): number | undefined {
  const raw = new URLSearchParams(search).get('uid');
  const uid = raw && /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(uid) && uid > 0 ? uid : undefined;
}

function EditUser({ uid }: { uid: number }) {
  const { initialState } = useModel('@@initialState');
  const { data, loading, error, mutate, refresh } = useRequest(
    () => call(userApi.adminGetUser, { params: { id: uid } }, { skipErrorHandler: true }),
    {
      refreshDeps: [uid],
    },
  );
  if (loading && !data) return <Skeleton active />;
  if (error || !data) {
    const notFound = statusOf(error) === 404;
    return (
      <Result
        status={notFound ? '404' : 'error'}
        title={notFound ? '用户不存在' : '加载失败'}
        subTitle={notFound ? '该用户可能已被删除。' : errorMessageOf(error)}
        extra={BACK}
      />
    );
  }
  const user = data.data;
  const onSaved = (saved: AdminUser) => mutate({ success: true, data: saved });
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <EditUserForm
          key={JSON.stringify(user)}
          user={user}
          isSelf={initialState?.currentUser?.uid === user.uid}
          onSaved={onSaved}
        />
      </Col>
      <Col xs={24} xl={10}>
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <ResetPasswordCard user={user} />
          <SecurityCard user={user} onChanged={refresh} />
          <SignInCard uid={user.uid} />
        </Space>
      </Col>
    </Row>
  );
}

export default function EditUserPage() {
  const location = useLocation();
  const uid = uidOf(location.search);
  return (
    <PageContainer title="编辑用户">
      {uid ? (
        <EditUser uid={uid} />
      ) : (
        <Result status="warning" title="缺少用户 ID" subTitle="请从用户列表进入编辑页面。" extra={BACK} />
      )}
    </PageContainer>
  );
}
