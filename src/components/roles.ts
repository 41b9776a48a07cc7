/** How roles and account states read in the UI (the role set itself is ROLES in src/contract). */
import type { Role, UserStatus } from '@/contract';

export const ROLE_LABELS: Record<Role, string> = {
  admin: '管理员',
  njit: 'NJIT',
  njit_counselor: 'NJIT 辅导员',
  njit_teacher: 'NJIT 教师',
};
export const ROLE_COLORS: Record<Role, string> = {
  admin: 'red',
  njit: 'blue',
  njit_counselor: 'cyan',
  njit_teacher: 'geekblue',
};
export const USER_STATUS_LABELS: Record<UserStatus, string> = { active: '正常', disabled: '停用' };
