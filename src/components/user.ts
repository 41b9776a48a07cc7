/** How the header names and pictures the current user. */
import type { CurrentUser } from '@/contract';

export const DEFAULT_AVATAR = '/assets/avatar/default.png';

type UserLike = Pick<CurrentUser, 'nickname' | 'username' | 'avatar'> | null | undefined;

/** Nickname, else username, else 未登录. */
export function displayName(user: UserLike): string {
  return user?.nickname?.trim() || user?.username?.trim() || '未登录';
}

export function avatarOf(user: UserLike): string {
  return user?.avatar || DEFAULT_AVATAR;
}
