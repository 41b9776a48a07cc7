/**
 * An administrator without the njit role opens the student lookup for themself in one step (POST
 * /api/user/admin/self/njit, recorded in the administrators' audit log), instead of being told to ask
 * an administrator. Shown where the lookup is closed to them: its 403 page and the home page's card.
 */
import { fetchCurrentUser } from '@/services/probes';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { rememberUser } from '@/initialState';
import { useModel, useNavigate } from '@umijs/max';
import { Button, message, Popconfirm } from 'antd';
import { useState } from 'react';

export const NJIT_ENTRY = '/njit/overview';

export default function GrantSelfNjit({ size }: { size?: 'small' | 'middle' }) {
  const { setInitialState } = useModel('@@initialState');
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const grant = async () => {
    setBusy(true);
    try {
      await call(userApi.adminGrantSelfNjit);
      // The user as the server now sees them: the role, and whether it asks for two-factor sign-in.
      const me = await fetchCurrentUser();
      if (me.success) {
        rememberUser(me.data);
        await setInitialState((s) => ({ ...s, currentUser: me.data }));
      }
      void message.success('已为你开通 NJIT 学生信息查询');
      navigate(NJIT_ENTRY);
    } catch {
      // The request layer has shown why.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Popconfirm
      title="为自己开通学生信息查询？"
      description="你将获得 njit 角色，可以查询学生信息；此操作会记入管理员审计日志。"
      okText="开通"
      cancelText="取消"
      onConfirm={grant}
    >
      <Button type="primary" size={size} loading={busy}>
        为自己开通
      </Button>
    </Popconfirm>
  );
}
