/** Before/after of an audit entry as readable lines: 角色：NJIT → 管理员、NJIT. */
import { ROLE_LABELS, USER_STATUS_LABELS } from '@/components/roles';

const FIELD_LABELS: Record<string, string> = {
  username: '用户名',
  nickname: '昵称',
  roles: '角色',
  status: '状态',
  password: '密码',
  generatedPassword: '自动生成密码',
  endedSessions: '结束会话数',
};

function show(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '空';
  if (Array.isArray(value)) {
    if (value.length === 0) return '无';
    return value
      .map((v) => (field === 'roles' ? (ROLE_LABELS[v as keyof typeof ROLE_LABELS] ?? String(v)) : String(v)))
      .join('、');
  }
  if (field === 'status') return USER_STATUS_LABELS[value as keyof typeof USER_STATUS_LABELS] ?? String(value);
  if (typeof value === 'boolean') return value ? '是' : '否';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export interface DiffLine {
  field: string;
  label: string;
  text: string;
}

export function auditDiff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): DiffLine[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => {
    const label = FIELD_LABELS[field] ?? field;
    let text: string;
    if (!before) text = show(field, after?.[field]);
    else if (!after) text = `${show(field, before[field])}（已删除）`;
    else text = `${show(field, before[field])} → ${show(field, after[field])}`;
    return { field, label, text };
  });
}
