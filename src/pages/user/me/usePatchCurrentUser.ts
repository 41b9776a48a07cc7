/** Keep the header (initialState.currentUser and its localStorage mirror) in step with profile edits. */
import type { CurrentUser } from '@/contract';
import { rememberUser } from '@/initialState';
import { useModel } from '@umijs/max';
import { useCallback } from 'react';

export default function usePatchCurrentUser() {
  const { setInitialState } = useModel('@@initialState');
  return useCallback(
    (patch: Partial<Pick<CurrentUser, 'nickname' | 'avatar'>>) => {
      setInitialState((s) => {
        if (!s?.currentUser) return s;
        const currentUser = { ...s.currentUser, ...patch };
        rememberUser(currentUser);
        return { ...s, currentUser };
      });
    },
    [setInitialState],
  );
}
