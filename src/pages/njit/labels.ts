/** Chinese labels shared by the njit pages. */
export const STATUS_COLORS: Record<string, string> = {
  在读: 'green',
  休学: 'orange',
  毕业: 'blue',
  退学: 'default',
  离校: 'default',
};

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  search: '查询',
  detail: '查看详情',
  reveal: '查看敏感字段',
  reveal_request: '申请查看敏感字段',
  reveal_decide: '审批查看申请',
  import: '导入',
  audit_export: '导出审计日志',
  purge_preview: '查看到期清除名单',
  purge: '清除到期学生记录',
  edit: '修改学生信息',
  policy_change: '修改字段策略',
  scope_change: '修改查询范围',
  policy_preview: '按角色预览学生记录',
};

/** A field the caller's field policy hides is absent from the record the server sends. */
export const HIDDEN_TEXT = '无权查看';
/** A value as shown: hidden, blank or itself. */
export function shown(value: string | number | null | undefined): string | number {
  if (value === undefined) return HIDDEN_TEXT;
  return value ?? '-';
}

export const REVEAL_LABELS = { phone: '手机号', idCard: '身份证号' } as const;

/** 2023 → 2023 级, the way the table, its filter, the drawer and the overview all show a grade. */
export function gradeLabel(grade: number | string | null | undefined): string {
  if (grade === null || grade === undefined || grade === '') return '-';
  return /^\d+$/.test(String(grade)) ? `${grade} 级` : String(grade);
}
