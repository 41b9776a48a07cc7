/** What the edit form changed, as an AdminUpdateUserBody (only the changed fields). */
import type { AdminUpdateUserBody, AdminUser, Role } from '@/contract';

export interface EditValues {
  nickname?: string;
  roles: Role[];
  active: boolean;
}

export function changesOf(user: AdminUser, v: EditValues): AdminUpdateUserBody | null {
  const body: AdminUpdateUserBody = {};
  const nickname = v.nickname?.trim() || null;
  if (nickname !== (user.nickname || null)) body.nickname = nickname;
  const roles = [...v.roles].sort();
  if (roles.join() !== [...user.roles].sort().join()) body.roles = roles;
  const status = v.active ? 'active' : 'disabled';
  if (status !== user.status) body.status = status;
  return Object.keys(body).length ? body : null;
}
