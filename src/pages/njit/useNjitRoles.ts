/** The current user's njit-relevant roles, read from the shell's initial state. */
import { useModel } from '@umijs/max';

export function useNjitRoles(): { isAdmin: boolean; isNjit: boolean } {
  const { initialState } = useModel('@@initialState');
  const roles: readonly string[] = initialState?.currentUser?.roles ?? [];
  return { isAdmin: roles.includes('admin'), isNjit: roles.includes('njit') };
}
