/** ProTable's params and sorter -> the admin user-list query of the contract. */
import type { AdminUserListQuery, Role, UserStatus } from '@/contract';

export interface UserSearchParams {
  current?: number;
  pageSize?: number;
  keyword?: string;
  role?: Role;
  status?: UserStatus;
}

type SortState = Record<string, 'ascend' | 'descend' | null | undefined> | undefined;

const SORTABLE = ['createdAt', 'lastLoginAt'] as const;

export function toUserListQuery(params: UserSearchParams, sort: SortState): AdminUserListQuery {
  const sorted = Object.entries(sort ?? {}).find(
    ([field, order]) => order && (SORTABLE as readonly string[]).includes(field),
  );
  const keyword = params.keyword?.trim();
  return {
    current: params.current ?? 1,
    pageSize: params.pageSize ?? 10,
    ...(keyword ? { keyword } : {}),
    ...(params.role ? { role: params.role } : {}),
    ...(params.status ? { status: params.status } : {}),
    sortBy: (sorted?.[0] as (typeof SORTABLE)[number] | undefined) ?? 'createdAt',
    order: sorted?.[1] === 'ascend' ? 'ascend' : 'descend',
  };
}
