/**
 * The full record of one student (masked), with reveal buttons and 编辑 for administrators; the fields
 * corrected by hand are marked.
 */
import { formatTime } from '@/components/time';
import type { EditableField, RevealField, StudentDetail } from '@/contract';
import * as njitApi from '@/contract/api/njit';
import { call } from '@/services/call';
import { urlOf } from '@/services/url';
import { EditOutlined, EyeOutlined, FileSearchOutlined } from '@ant-design/icons';
import { Button, Descriptions, Drawer, Skeleton, Space, Tag, Tooltip } from 'antd';
import { useMemoizedFn } from 'ahooks';
import { useEffect, useState } from 'react';
import { gradeLabel, HIDDEN_TEXT, shown, STATUS_COLORS } from '../../labels';
import RevealModal from './RevealModal';
import StudentEditModal from './StudentEditModal';

export default function StudentDrawer(props: {
  studentId: number | null;
  isAdmin: boolean;
  /** Four-eyes reveals: these fields are asked for, and another administrator approves. */
  approval?: { fields: RevealField[]; minutes: number };
  onClose: () => void;
}) {
  const { studentId, isAdmin, approval = { fields: [], minutes: 10 }, onClose } = props;
  const [student, setStudent] = useState<StudentDetail | null>(null);
  const [editing, setEditing] = useState(false);
  const [revealed, setRevealed] = useState<Partial<Record<RevealField, string | null>>>({});
  const [asking, setAsking] = useState<RevealField | null>(null);

  // A stable handle on the parent's callback: the effect reruns for a new student only.
  const close = useMemoizedFn(onClose);
  useEffect(() => {
    setStudent(null);
    setRevealed({});
    if (studentId === null) return;
    let live = true;
    call(njitApi.getStudent, { params: { id: studentId } })
      .then((res) => live && setStudent(res.data))
      .catch(() => live && close());
    return () => {
      live = false;
    };
  }, [studentId, close]);

  const sensitive = (field: RevealField, masked: string | null | undefined) => {
    if (masked === undefined) return HIDDEN_TEXT;
    if (field in revealed) return <span data-testid={`revealed-${field}`}>{revealed[field] ?? '-'}</span>;
    if (!masked) return '-';
    return (
      <span>
        {masked}
        {isAdmin && (
          <Button type="link" size="small" icon={<EyeOutlined aria-hidden />} onClick={() => setAsking(field)}>
            {approval.fields.includes(field) ? '申请查看' : '查看完整'}
          </Button>
        )}
      </span>
    );
  };

  /** A field's label, marked when the field was corrected by hand (the next import keeps it by default). */
  const label = (text: string, field: EditableField) => {
    const edit = student?.manualEdits.find((e) => e.field === field);
    if (!edit) return text;
    return (
      <Space size={4} wrap>
        {text}
        <Tooltip title={`${edit.userName} 于 ${formatTime(edit.editedAt)} 手动修改；导入名单时默认保留`}>
          <Tag color="purple" style={{ marginInlineEnd: 0 }} tabIndex={0}>
            手动修改
          </Tag>
        </Tooltip>
      </Space>
    );
  };

  return (
    <Drawer
      title={student ? `${shown(student.name)}（${shown(student.studentNo)}）` : '学生详情'}
      open={studentId !== null}
      onClose={onClose}
      width={560}
      extra={
        isAdmin &&
        student && (
          <Space wrap>
            <Button size="small" icon={<EditOutlined aria-hidden />} onClick={() => setEditing(true)}>
              编辑
            </Button>
            {/* The student's access report: every search that listed them, every view, reveal and export. */}
            <Button
              size="small"
              icon={<FileSearchOutlined aria-hidden />}
              href={urlOf(njitApi.exportAudit, { query: { studentId: student.id } })}
            >
              访问记录
            </Button>
          </Space>
        )
      }
    >
      {!student ? (
        <Skeleton active />
      ) : (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label="学号">{shown(student.studentNo)}</Descriptions.Item>
          <Descriptions.Item label={label('姓名', 'name')}>{shown(student.name)}</Descriptions.Item>
          <Descriptions.Item label={label('性别', 'gender')}>{shown(student.gender)}</Descriptions.Item>
          <Descriptions.Item label={label('学院', 'college')}>{shown(student.college)}</Descriptions.Item>
          <Descriptions.Item label={label('专业', 'major')}>{shown(student.major)}</Descriptions.Item>
          <Descriptions.Item label={label('班级', 'className')}>{shown(student.className)}</Descriptions.Item>
          <Descriptions.Item label={label('年级', 'grade')}>
            {student.grade === undefined ? HIDDEN_TEXT : gradeLabel(student.grade)}
          </Descriptions.Item>
          <Descriptions.Item label={label('状态', 'status')}>
            {student.status ? <Tag color={STATUS_COLORS[student.status]}>{student.status}</Tag> : HIDDEN_TEXT}
          </Descriptions.Item>
          <Descriptions.Item label={label('手机号', 'phone')}>{sensitive('phone', student.phone)}</Descriptions.Item>
          <Descriptions.Item label={label('身份证号', 'idCard')}>
            {sensitive('idCard', student.idCard)}
          </Descriptions.Item>
          <Descriptions.Item label={label('宿舍', 'dormitory')}>{shown(student.dormitory)}</Descriptions.Item>
          <Descriptions.Item label="更新时间">{formatTime(student.updatedAt)}</Descriptions.Item>
        </Descriptions>
      )}
      {student && isAdmin && (
        <StudentEditModal
          student={editing ? student : null}
          onClose={() => setEditing(false)}
          onSaved={(s) => {
            setStudent(s);
            setRevealed({});
          }}
        />
      )}
      {student && (
        <RevealModal
          studentId={student.id}
          field={asking}
          approvalMinutes={asking && approval.fields.includes(asking) ? approval.minutes : null}
          onClose={() => setAsking(null)}
          onRevealed={(field, value) => setRevealed((r) => ({ ...r, [field]: value }))}
        />
      )}
    </Drawer>
  );
}
