/**
 * /OCS/preferenceSetting/aiPrompt: the user's own AI prompt template (one for every question type;
 * empty means the built-in default of each type), with variables, a live preview, reset to a type's
 * default and save.
 */
import { OCS_TYPE_LABELS, type AiPromptDefaults, type OcsAiType, type OcsPreferences } from '@/contract';
import { errorMessageOf, fieldErrorsOf } from '@/requestErrorConfig';
import * as ocsAiApi from '@/contract/api/ocsAi';
import { call } from '@/services/call';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Alert, Button, Card, Col, Popconfirm, Row, Segmented, Skeleton, Space, Tag, message } from 'antd';
import { useEffect, useState } from 'react';
import PromptPreview from './components/PromptPreview';
import TemplateEditor from './components/TemplateEditor';

const TYPES: OcsAiType[] = ['single', 'multiple', 'judgement', 'completion', 'any'];
const typeLabel = (t: OcsAiType) => (t === 'any' ? '未知题型' : OCS_TYPE_LABELS[t]);

export default function AiPromptPage() {
  const defaults = useRequest<AiPromptDefaults, []>(() =>
    call(ocsAiApi.promptDefaults, {}, { skipErrorHandler: true }).then((r) => r.data),
  );
  const prefs = useRequest<OcsPreferences, []>(() =>
    call(ocsAiApi.getPreferences, {}, { skipErrorHandler: true }).then((r) => r.data),
  );
  const [template, setTemplate] = useState('');
  const [saved, setSaved] = useState<string | null>(null);
  const [type, setType] = useState<OcsAiType>('single');
  const [problem, setProblem] = useState<string>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!prefs.data) return;
    setTemplate(prefs.data.promptTemplate ?? '');
    setSaved(prefs.data.promptTemplate);
  }, [prefs.data]);

  const d = defaults.data;
  const custom = template.trim() !== '';
  const save = async () => {
    setSaving(true);
    try {
      const res = await call(
        ocsAiApi.savePreferences,
        { body: { promptTemplate: custom ? template : null } },
        { skipErrorHandler: true },
      );
      setSaved(res.data.promptTemplate);
      message.success(custom ? '提示词模板已保存' : '已恢复为系统默认模板');
    } catch (e) {
      setProblem(fieldErrorsOf(e).promptTemplate?.[0] ?? problem);
      message.error(errorMessageOf(e));
    } finally {
      setSaving(false);
    }
  };

  const failed = defaults.error ?? prefs.error;
  return (
    <PageContainer
      title="AI 提示词"
      content="找不到题库答案时，AI 按这里的模板收到题目。自定义模板用于所有题型；留空则按题型使用系统默认模板。"
    >
      {failed && (
        <Alert
          type="error"
          showIcon
          message={`加载失败：${errorMessageOf(failed)}`}
          action={
            <Button
              size="small"
              onClick={() => {
                defaults.refresh();
                prefs.refresh();
              }}
            >
              重试
            </Button>
          }
        />
      )}
      {!failed && (!d || !prefs.data) && <Skeleton active paragraph={{ rows: 10 }} />}
      {d && prefs.data && (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={13}>
            <Card
              title="提示词模板"
              extra={saved === null ? <Tag>正在使用系统默认模板</Tag> : <Tag color="blue">正在使用自定义模板</Tag>}
            >
              <Space direction="vertical" style={{ width: '100%' }} size="middle">
                {/* Five types are wider than a phone: they scroll inside this strip, never the page. */}
                <div data-testid="type-tabs" style={{ maxWidth: '100%', overflowX: 'auto' }}>
                  <Segmented<OcsAiType>
                    aria-label="题型"
                    options={TYPES.map((t) => ({ label: typeLabel(t), value: t }))}
                    value={type}
                    onChange={setType}
                  />
                </div>
                <TemplateEditor
                  value={template}
                  onChange={setTemplate}
                  variables={d.variables}
                  maxLength={d.maxLength}
                  placeholder={`留空则使用系统默认模板。当前题型的默认模板：\n\n${d.templates[type]}`}
                  error={problem}
                />
                <Space wrap>
                  <Button type="primary" loading={saving} disabled={Boolean(problem)} onClick={save}>
                    保存
                  </Button>
                  <Popconfirm
                    title={`用「${typeLabel(type)}」的默认模板替换编辑框中的内容？`}
                    okText="替换"
                    cancelText="取消"
                    onConfirm={() => setTemplate(d.templates[type])}
                  >
                    <Button>恢复为{typeLabel(type)}默认模板</Button>
                  </Popconfirm>
                  <Button onClick={() => setTemplate('')} disabled={!custom}>
                    清空（按题型使用默认）
                  </Button>
                </Space>
              </Space>
            </Card>
          </Col>
          <Col xs={24} lg={11}>
            <PromptPreview template={custom ? template : d.templates[type]} type={type} onProblem={setProblem} />
          </Col>
        </Row>
      )}
    </PageContainer>
  );
}
