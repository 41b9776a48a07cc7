/** A user's roles as tags; 普通用户 when there are none. */
import type { Role } from '@/contract';
import { Tag } from 'antd';
import { ROLE_COLORS, ROLE_LABELS } from './roles';

export default function RoleTags({ roles }: { roles: readonly Role[] }) {
  if (roles.length === 0) return <Tag>普通用户</Tag>;
  return (
    <>
      {roles.map((r) => (
        <Tag key={r} color={ROLE_COLORS[r]}>
          {ROLE_LABELS[r] ?? r}
        </Tag>
      ))}
    </>
  );
}
