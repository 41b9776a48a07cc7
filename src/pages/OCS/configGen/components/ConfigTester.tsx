/**
 * Runs one sample question through the generated config against the live API, the way the OCS
 * script would, and shows the raw answer and what the handler makes of it. The handler string cannot
 * be evaluated here (CSP forbids eval), so applyOcsHandler applies the same rule.
 */
import { applyOcsHandler, type AnswererWrapper } from '@/contract';
import { testAnswererWrapper, type WrapperTestResult } from '@/services/ocsScript';
import { ExperimentOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { codeStyle } from './copy';

const SAMPLE_OPTIONS = 'A. 北京\nB. 上海\nC. 广州\nD. 深圳';

const show = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v));

function Outcome({ result, detail }: { result: WrapperTestResult; detail: boolean }) {
  const json =
    typeof result.body === 'object' && result.body !== null ? (result.body as { code?: unknown; msg?: unknown }) : null;
  const [question, answer] = applyOcsHandler(result.body, detail);
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
        <Descriptions.Item label="原始响应">
          <pre style={codeStyle}>{json ? JSON.stringify(json, null, 2) : String(result.body)}</pre>
        </Descriptions.Item>
      </Descriptions>
    </Space>
  );
}

export default function ConfigTester({ wrapper, detail = false }: { wrapper: AnswererWrapper; detail?: boolean }) {
  const [title, setTitle] = useState('中华人民共和国的首都是哪座城市？');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<WrapperTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async () => {
    setRunning(true);
    setError(null);
    setResult(null);
    try {
      setResult(await testAnswererWrapper(wrapper, { title, type: 'single', options: SAMPLE_OPTIONS }));
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
        用一道单选题（选项 {SAMPLE_OPTIONS.replace(/\n/g, ' ')}）按当前配置真实调用一次查询接口，与 OCS
        发出的请求相同，可能消耗点数。
      </Typography.Text>
      <Space.Compact style={{ width: '100%' }}>
        <Input aria-label="测试题目" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
        <Button
          type="primary"
          icon={<ExperimentOutlined aria-hidden />}
          loading={running}
          disabled={!title.trim()}
          onClick={run}
        >
          测试配置
        </Button>
      </Space.Compact>
      {error && <Alert type="error" showIcon message="测试失败" description={error} />}
      {result && <Outcome result={result} detail={detail} />}
    </Space>
  );
}
