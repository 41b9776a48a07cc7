/**
 * After a sign-in (password, second step, linking a campus identity, a new account): remember the
 * user, say so, and go to the `redirect` target (same origin only). A user whose role requires
 * two-factor sign-in and has not set it up is taken from there to its set-up by the shell
 * (src/app.tsx), with the way back.
 */
import { safeRedirect } from '@/components/redirect';
import type { CurrentUser } from '@/contract';
import { rememberUser } from '@/initialState';
import { useModel, useNavigate } from '@umijs/max';
import { message } from 'antd';
import { flushSync } from 'react-dom';

export default function useFinishSignIn(): (user: CurrentUser, redirect: string | null, notice?: string) => void {
  const { setInitialState } = useModel('@@initialState');
  const navigate = useNavigate();
  return (user, redirect, notice = '登录成功') => {
    rememberUser(user);
    flushSync(() => setInitialState((s) => ({ ...s, currentUser: user })));
    navigate(safeRedirect(redirect), { replace: true });
    void message.success(notice);
  };
}
