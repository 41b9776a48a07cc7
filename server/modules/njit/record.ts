/**
 * One student record: validation of imported values, the search keys derived from the name
 * (pinyin and initials) and the masks applied to phone and ID-card numbers.
 */
import { pinyin } from 'pinyin-pro';
import {
  ROSTER_COLUMNS,
  STUDENT_STATUSES,
  type RevealField,
  type RosterField,
  type StudentStatus,
} from '../../../src/contract';
import type { NjitStudentsTable } from '../../db/schema';
import { idCheckChar, isValidIdCard } from '../../../src/contract/idCard';

export { idCheckChar, isValidIdCard };

export const STUDENT_NO_RE = /^[A-Za-z0-9]{4,20}$/;
export const PHONE_RE = /^1[3-9]\d{9}$/;

/** A validated row, ready to upsert: the table's columns less the generated ones. */
export type StudentInput = Omit<NjitStudentsTable, 'id' | 'created_at' | 'updated_at' | 'left_at'>;

/** Raw cell texts by field, as read from a file. */
export type RawRow = Partial<Record<ImportField, string>>;

/** The columns of a roster file (the contract's ROSTER_COLUMNS, which the templates are made from). */
export const IMPORT_FIELDS = ROSTER_COLUMNS.map((c) => c.field);
export type ImportField = RosterField;

export const FIELD_LABELS = Object.fromEntries(ROSTER_COLUMNS.map((c) => [c.field, c.label])) as Record<
  ImportField,
  string
>;

export function maskPhone(phone: string | null): string | null {
  if (!phone) return phone;
  if (phone.length < 8) return '*'.repeat(phone.length);
  return `${phone.slice(0, 3)}${'*'.repeat(phone.length - 7)}${phone.slice(-4)}`;
}

export function maskIdCard(id: string | null): string | null {
  if (!id) return id;
  if (id.length < 10) return '*'.repeat(id.length);
  return `${id.slice(0, 4)}${'*'.repeat(id.length - 8)}${id.slice(-4)}`;
}

/** The stored value of the sensitive field a reveal names. */
export function sensitiveValue(
  row: { phone: string | null; id_card: string | null },
  field: RevealField,
): string | null {
  return field === 'phone' ? row.phone : row.id_card;
}

/** Search keys of a name: full pinyin without tones or spaces, and the initials ('zhangsan', 'zs'). */
export function nameKeys(name: string): { name_pinyin: string; name_initials: string } {
  const syllables = pinyin(name, { toneType: 'none', type: 'array', v: true, surname: 'head', nonZh: 'removed' });
  const clean = syllables.map((s) => s.toLowerCase().replace(/[^a-z]/g, '')).filter(Boolean);
  return { name_pinyin: clean.join(''), name_initials: clean.map((s) => s[0]).join('') };
}

const GENDER_ALIASES: Record<string, '男' | '女'> = { 男: '男', 女: '女', m: '男', f: '女', male: '男', female: '女' };

export interface RowIssue {
  field: ImportField;
  message: string;
}

/**
 * Validates one row. A problem with a required value (学号, 姓名) or with the status (which has no
 * blank: an empty one means 在读, so a wrong one cannot be dropped) refuses the row: `issues`. A
 * problem with another optional value leaves that value blank and the row imported: `warnings`.
 * Empty optional cells become null.
 */
export function validateRow(raw: RawRow): { record?: StudentInput; issues: RowIssue[]; warnings: RowIssue[] } {
  const issues: RowIssue[] = [];
  const warnings: RowIssue[] = [];
  /** An optional value that is not valid: left blank, with a warning. */
  const blank = (field: ImportField, message: string) => {
    warnings.push({ field, message });
    return null;
  };
  const text = (f: ImportField) => {
    const v = (raw[f] ?? '').replace(/\s+/g, ' ').trim();
    return v === '' ? null : v;
  };
  const limited = (f: ImportField, max: number) => {
    const v = text(f);
    if (v && v.length > max) {
      const message = `${FIELD_LABELS[f]}超过 ${max} 个字符`;
      if (f === 'name') issues.push({ field: f, message });
      else return blank(f, message);
      return null;
    }
    return v;
  };

  const studentNo = text('studentNo');
  if (!studentNo) issues.push({ field: 'studentNo', message: '缺少学号' });
  else if (!STUDENT_NO_RE.test(studentNo)) issues.push({ field: 'studentNo', message: '学号应为 4–20 位字母或数字' });

  const name = limited('name', 32);
  if (!name && !issues.some((i) => i.field === 'name')) issues.push({ field: 'name', message: '缺少姓名' });

  let gender: '男' | '女' | null = null;
  const g = text('gender');
  if (g) {
    gender = GENDER_ALIASES[g.toLowerCase()] ?? blank('gender', '性别应为“男”或“女”');
  }

  let grade: number | null = null;
  const gr = text('grade');
  if (gr) {
    const m = /^(\d{4})(级)?$/.exec(gr);
    grade = m ? Number(m[1]) : null;
    if (!grade || grade < 1950 || grade > 2100) grade = blank('grade', '年级应为四位入学年份，如 2023');
  }

  let status: StudentStatus = '在读';
  const st = text('status');
  if (st) {
    if ((STUDENT_STATUSES as readonly string[]).includes(st)) status = st as StudentStatus;
    else issues.push({ field: 'status', message: `状态应为 ${STUDENT_STATUSES.join('、')} 之一` });
  }

  let phone = text('phone');
  if (phone) {
    phone = phone.replace(/[\s-]/g, '').replace(/^\+?86/, '');
    if (!PHONE_RE.test(phone)) phone = blank('phone', '手机号格式不正确（应为 11 位，以 1 开头）');
  }

  let idCard = text('idCard');
  if (idCard) {
    idCard = idCard.replace(/\s/g, '').toUpperCase();
    if (!isValidIdCard(idCard)) idCard = blank('idCard', '身份证号格式或校验位不正确');
  }

  const college = limited('college', 64);
  const major = limited('major', 64);
  const className = limited('className', 64);
  const dormitory = limited('dormitory', 64);

  if (issues.length > 0 || !studentNo || !name) return { issues, warnings };
  return {
    issues,
    warnings,
    record: {
      student_no: studentNo,
      name,
      ...nameKeys(name),
      gender,
      college,
      major,
      class_name: className,
      grade,
      status,
      phone,
      id_card: idCard,
      dormitory,
    },
  };
}
