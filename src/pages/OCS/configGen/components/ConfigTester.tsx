/**
 * Runs one question of the user's choosing (type, title, options as the page shows them) through the
 * generated config against the live API, the way the OCS script would, and shows the raw answer, what
 * the handler makes of it and the pieces the script reads from it. The handler string cannot be
 * evaluated here (CSP forbids eval), so applyOcsHandler applies the same rule.
 */
import { applyOcsHandler, splitOcsAnswer, type AnswererWrapper } from '@/contract';
import { testAnswererWrapper, type WrapperTestResult } from '@/services/answererTest';
import { ExperimentOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { codeStyle } from './copy';

/** The types the script sends as ${type}, with a sample of each (blanks have no options). */
const SAMPLES = {
  single: { label: '单选题', title: '中华人民共和国的首都是哪座城市？', options: 'A. 北京\nB. 上海\nC. 广州\nD. 深圳' },
  multiple: { label: '多选题', title: '下列属于直辖市的有', options: 'A. 北京\nB. 上海\nC. 广州\nD. 天津' },
  judgement: { label: '判断题', title: '光在真空中的传播速度约为每秒 30 万千米', options: '对\n错' },
  completion: { label: '填空题', title: '《史记》的作者是____', options: '' },
  unknown: { label: '其他（unknown）', title: '', options: '' },
} as const;
type SampleType = keyof typeof SAMPLES;

const show = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v));

function Outcome({ result, detail }: { result: WrapperTestResult; detail: boolean }) {
  const json =
    typeof result.body === 'object' && result.body !== null ? (result.body as { code?: unknown; msg?: unknown }) : null;
  const [question, answer] = applyOcsHandler(result.body, detail);
  const pieces = typeof answer === 'string' ? splitOcsAnswer(answer) : [];
  let alert = <Alert type="error" showIcon message={`接口返回 HTTP ${result.status}，OCS 无法使用这个答复`} />;
  if (result.status === 200 && json?.code === 1)
    alert = <Alert type="success" showIcon message="配置可用：查到了答案" />;
  else if (result.status === 200 && json)
    alert = <Alert type="warning" showIcon message={`接口可用，但没有答案：${String(json.msg ?? '')}`} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="ocs-test-result">
      {alert}
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="handler 结果">
          <Typography.Text
            code
            data-testid="ocs-handler-result"
          >{`[${show(question)}, ${show(answer)}]`}</Typography.Text>
        </Descriptions.Item>
        {pieces.length > 0 && (
          <Descriptions.Item label="OCS 读到的答案">
            <Space wrap size={4} data-testid="ocs-answer-pieces">
              {pieces.map((p, i) => (
                <Tag key={i}>{p}</Tag>
              ))}
            </Space>
          </Descriptions.Item>
        )}
        <Descriptions.Item label="原始响应">
          <pre style={codeStyle}>{json ? JSON.stringify(json, null, 2) : String(result.body)}</pre>
        </Descriptions.Item>
      </Descriptions>
    </Space>
  );
}

export default function ConfigTester({ wrapper, detail = false }: { wrapper: AnswererWrapper; detail?: boolean }) {
  const [type, setType] = useState<SampleType>('single');
  const [title, setTitle] = useState<string>(SAMPLES.single.title);
  const [options, setOptions] = useState<string>(SAMPLES.single.options);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<WrapperTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const pickType = (t: SampleType) => {
    setType(t);
    if (SAMPLES[t].title) setTitle(SAMPLES[t].title);
    setOptions(SAMPLES[t].options);
  };

  const run = async () => {
    setRunning(true);
    setError(null);
    setResult(null);
    try {
      setResult(await testAnswererWrapper(wrapper, { title, type, options }));
    } catch {
      setError(
        `无法连接 ${wrapper.url}。若配置中的地址与当前访问的地址不同，浏览器会阻止本页测试，请直接在 OCS 中试用。`,
      );
    } finally {
      setRunning(false);
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">
        按当前配置真实调用一次查询接口，与 OCS
        发出的请求相同，可能消耗点数。题型、题目和选项（每行一个，按页面显示的样子填写）都可以改成你要试的题。
      </Typography.Text>
      <Form layout="vertical" component="div">
        <Form.Item label="题型" htmlFor="ocs-test-type" style={{ marginBottom: 12 }}>
          <Select
            id="ocs-test-type"
            value={type}
            onChange={pickType}
            style={{ maxWidth: 240 }}
            options={Object.entries(SAMPLES).map(([value, s]) => ({ value, label: s.label }))}
          />
        </Form.Item>
        <Form.Item label="题目" htmlFor="ocs-test-title" style={{ marginBottom: 12 }}>
          <Input id="ocs-test-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={2000} />
        </Form.Item>
        <Form.Item label="选项（每行一个；填空题留空）" htmlFor="ocs-test-options" style={{ marginBottom: 12 }}>
          <Input.TextArea
            id="ocs-test-options"
            value={options}
            onChange={(e) => setOptions(e.target.value)}
            autoSize={{ minRows: 2, maxRows: 8 }}
            maxLength={20000}
          />
        </Form.Item>
        <Button
          type="primary"
          icon={<ExperimentOutlined aria-hidden />}
          loading={running}
          disabled={!title.trim()}
          onClick={run}
        >
          测试配置
        </Button>
      </Form>
      {error && <Alert type="error" showIcon message="测试失败" description={error} />}
      {result && <Outcome result={result} detail={detail} />}
    </Space>
  );
}
