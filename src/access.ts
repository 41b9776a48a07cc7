/** Access flags named by config/routes.ts. */
import { hasNjitRole } from '@/contract/njitRoles';
import type { InitialState } from '@/initialState';

export interface AccessFlags {
  isLoggedIn: boolean;
  isAdmin: boolean;
  isNjit: boolean;
  /** Both: the NJIT pages only administrators see (the field policy) show student data and NJIT options. */
  isNjitAdmin: boolean;
}

export default function access(initialState: InitialState | undefined): AccessFlags {
  const user = initialState?.currentUser ?? null;
  const roles: readonly string[] = user?.roles ?? [];
  return {
    isLoggedIn: typeof user?.uid === 'number',
    isAdmin: roles.includes('admin'),
    isNjit: hasNjitRole(roles),
    isNjitAdmin: roles.includes('admin') && hasNjitRole(roles),
  };
}
