/**
 * 使用模板 on the create-message form: pick one of the user's templates, fill its variables, see the
 * message as it will go. The form then sends `template` + `vars` and the server fills them, as for a
 * script.
 */
import type { Template } from '@/contract';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { Link } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Form, Select } from 'antd';
import TemplatePreview from '../../components/TemplatePreview';

interface Props {
  value?: number;
  onChange?: (id: number | undefined) => void;
  vars: Record<string, string>;
  onVarsChange: (vars: Record<string, string>) => void;
}

export function useTemplates() {
  const { data } = useRequest(() => call(umsApi.listTemplates, {}, { skipErrorHandler: true }));
  return data?.data ?? [];
}

export default function TemplatePicker({
  templates,
  value,
  onChange,
  vars,
  onVarsChange,
}: Props & { templates: Template[] }) {
  const chosen = templates.find((t) => t.id === value);
  return (
    <>
      <Form.Item
        label="使用模板"
        extra={
          templates.length === 0 ? (
            <>
              还没有模板，<Link to="/UMS/templates">去新建</Link>
            </>
          ) : (
            '选择模板后，标题和内容来自模板，只需填写变量。'
          )
        }
      >
        <Select
          allowClear
          placeholder="不使用模板"
          style={{ maxWidth: 320 }}
          value={value}
          onChange={(id: number | undefined) => {
            onChange?.(id);
            onVarsChange({});
          }}
          options={templates.map((t) => ({ value: t.id, label: t.name }))}
        />
      </Form.Item>
      {chosen && (
        <Form.Item label="变量与预览">
          <TemplatePreview
            title={chosen.title}
            content={chosen.content}
            type={chosen.type}
            vars={vars}
            onVarsChange={onVarsChange}
          />
        </Form.Item>
      )}
    </>
  );
}
