/**
 * /OCS/downloadUserScript: install the portal's own userscript (select a question, Alt+Q), with the
 * steps, the current version and its changelog. The script is served by the API with this portal's
 * address baked in, so it also updates itself from here.
 */
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsApi from '@/contract/api/ocs';
import { call } from '@/services/call';
import { CheckOutlined, CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Alert, Button, Card, Skeleton, Space, Steps, Tag, Timeline, Typography } from 'antd';

const copyIcons = [
  <span key="copy">
    <CopyOutlined aria-hidden /> 复制
  </span>,
  <span key="copied">
    <CheckOutlined aria-hidden /> 已复制
  </span>,
];

const steps = [
  {
    title: '安装脚本管理器',
    description: (
      <>
        在浏览器中安装{' '}
        <Typography.Link href="https://www.tampermonkey.net/" target="_blank" rel="noreferrer">
          Tampermonkey（油猴）
        </Typography.Link>{' '}
        或{' '}
        <Typography.Link href="https://docs.scriptcat.org/" target="_blank" rel="noreferrer">
          ScriptCat（脚本猫）
        </Typography.Link>{' '}
        扩展。
      </>
    ),
  },
  { title: '安装本脚本', description: '点击上方“安装脚本”，在脚本管理器打开的页面中确认安装；以后会自动从本站更新。' },
  {
    title: '准备令牌',
    description: (
      <>
        在 <Link to="/OCS/tokenGen">令牌生成</Link> 创建一个 ocs:query
        权限的令牌并复制；首次查询时脚本会请你粘贴它，之后可在脚本菜单“设置令牌”中修改。
      </>
    ),
  },
  {
    title: '选中题目查询',
    description:
      '在网页上用鼠标选中题目（可连同下面的选项一起选中），按 Alt+Q 或点击右下角的“题”按钮，答案会显示在小面板里，按 Esc 关闭。',
  },
];

export default function DownloadUserScriptPage() {
  const { data, error, loading, refresh } = useRequest(() => call(ocsApi.scriptInfo, {}, { skipErrorHandler: true }));
  const info = data?.data;
  return (
    <PageContainer title="下载脚本" content="Portal 题库助手：在任意网页选中题目即可查询本站题库，无需配置 OCS。">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {error && !info && (
          <Alert
            type="error"
            showIcon
            message={`脚本信息加载失败：${errorMessageOf(error)}`}
            action={
              <Button size="small" loading={loading} onClick={refresh}>
                重试
              </Button>
            }
          />
        )}
        {!info && !error && <Skeleton active />}
        {info && (
          <Card>
            <Space direction="vertical" size="middle" style={{ width: '100%' }}>
              <Space wrap>
                <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
                  Portal 题库助手
                </Typography.Title>
                <Tag color="blue">v{info.version}</Tag>
              </Space>
              <Button type="primary" size="large" icon={<DownloadOutlined aria-hidden />} href={info.userscriptUrl}>
                安装脚本
              </Button>
              <div>
                <Typography.Text type="secondary">脚本地址（也可在脚本管理器中“从网址安装”）：</Typography.Text>
                <Typography.Paragraph
                  data-testid="userscript-url"
                  copyable={{ text: info.userscriptUrl, tooltips: ['复制', '已复制'], icon: copyIcons }}
                  style={{ fontFamily: 'monospace', wordBreak: 'break-all', marginBottom: 0 }}
                >
                  {info.userscriptUrl}
                </Typography.Paragraph>
              </div>
              <Alert
                type="info"
                showIcon
                message="已经在用 OCS 网课助手？在配置生成页生成题库配置即可，两者可同时使用。"
                action={<Link to="/OCS/configGen">配置生成</Link>}
              />
            </Space>
          </Card>
        )}
        <Card title="安装步骤">
          <Steps direction="vertical" current={-1} items={steps} />
        </Card>
        {info && (
          <Card title="更新日志">
            <Timeline
              items={info.changelog.map((e) => ({
                children: (
                  <div data-testid="changelog-entry">
                    <Typography.Text strong>v{e.version}</Typography.Text>{' '}
                    <Typography.Text type="secondary">{e.date}</Typography.Text>
                    <ul style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
                      {e.changes.map((c) => (
                        <li key={c}>{c}</li>
                      ))}
                    </ul>
                  </div>
                ),
              }))}
            />
          </Card>
        )}
      </Space>
    </PageContainer>
  );
}
