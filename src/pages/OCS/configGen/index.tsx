/**
 * /OCS/configGen: builds the AnswererWrapper JSON that plugs this portal into the OCS userscript as a
 * question bank, its subscription URL, and a live test. A token just created on /OCS/tokenGen or
 * /user/tokenGen arrives prefilled through tokenHandoff (this tab's memory, never the URL).
 */
import { clearHandedOffToken, peekHandedOffToken } from '@/components/tokenHandoff';
import { buildAnswererConfig, subscriptionUrl, type OcsMethod, type OcsRequestType } from '@/contract';
import * as ocsApi from '@/contract/api/ocs';
import { errorMessageOf } from '@/requestErrorConfig';
import * as userApi from '@/contract/api/user';
import { urlOf } from '@/services/url';
import { call } from '@/services/call';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Alert, Card, Empty, Form, Grid, Radio, Skeleton, Space, Switch, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import ConfigOutput from './components/ConfigOutput';
import ConfigTester from './components/ConfigTester';
import TokenPicker from './components/TokenPicker';

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export default function ConfigGenPage() {
  const [token, setToken] = useState(() => peekHandedOffToken().trim());
  const [requestType, setRequestType] = useState<OcsRequestType>('GM_xmlhttpRequest');
  const [method, setMethod] = useState<OcsMethod>('get');
  // OCS's answer panel shows the handler's question text: the source and confidence can ride on it.
  const [detail, setDetail] = useState(false);
  // On a phone the request-type buttons (GM_xmlhttpRequest（推荐）| fetch) are wider than the card:
  // labels go above the switches and the request types become a stacked radio list.
  const narrow = !Grid.useBreakpoint().sm;

  // Read once: coming back to this page later starts empty again.
  useEffect(() => clearHandedOffToken(), []);

  const info = useRequest(() => call(ocsApi.scriptInfo, {}, { skipErrorHandler: true }));
  const tokens = useRequest(() =>
    call(userApi.listTokens, { query: { current: 1, pageSize: 100, status: 'active' } }, { skipErrorHandler: true }),
  );
  const ocsTokens = useMemo(
    () => (tokens.data?.data ?? []).filter((t) => t.scopes.includes('ocs:query')),
    [tokens.data],
  );
  // Without script-info the page can still build a config for the address it was opened at.
  const baseUrl = info.data?.data.baseUrl ?? (info.error ? window.location.origin : undefined);
  const subscriptionBase = info.data?.data.subscriptionBase ?? `${baseUrl}${urlOf(ocsApi.config)}`;

  const config = useMemo(
    () => (baseUrl && token ? buildAnswererConfig({ baseUrl, token, requestType, method, detail }) : null),
    [baseUrl, token, requestType, method, detail],
  );

  return (
    <PageContainer title="配置生成" content="生成 OCS 网课助手的题库配置，让 OCS 使用本站题库答题。">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {info.error && (
          <Alert
            type="warning"
            showIcon
            message={`站点信息加载失败（${errorMessageOf(info.error)}），已按当前访问地址生成配置`}
          />
        )}
        <Card title="1. 令牌">
          <TokenPicker tokens={ocsTokens} loading={tokens.loading} value={token} onChange={setToken} />
          {tokens.error && (
            <Typography.Text type="danger">令牌列表加载失败：{errorMessageOf(tokens.error)}</Typography.Text>
          )}
        </Card>
        <Card title="2. 请求方式">
          <Form layout={narrow ? 'vertical' : 'inline'} component="div" data-testid="request-form">
            <Form.Item label="请求类型">
              <Radio.Group
                optionType={narrow ? 'default' : 'button'}
                style={narrow ? { display: 'flex', flexDirection: 'column', gap: 8 } : undefined}
                value={requestType}
                onChange={(e) => setRequestType(e.target.value)}
                options={[
                  { value: 'GM_xmlhttpRequest', label: 'GM_xmlhttpRequest（推荐）' },
                  { value: 'fetch', label: 'fetch' },
                ]}
              />
            </Form.Item>
            <Form.Item label="请求方法">
              <Radio.Group
                optionType="button"
                value={method}
                onChange={(e) => setMethod(e.target.value)}
                options={[
                  { value: 'get', label: 'GET' },
                  { value: 'post', label: 'POST' },
                ]}
              />
            </Form.Item>
            <Form.Item
              label="答案面板显示来源与置信度"
              tooltip="在 OCS 的答案面板中，题目后面会显示答案来源（题库、已核实、AI、上游题库）与置信度，例如“〔已核实 98%〕”；填入的答案不受影响。"
            >
              <Switch aria-label="答案面板显示来源与置信度" checked={detail} onChange={setDetail} />
            </Form.Item>
          </Form>
          {baseUrl && (
            <Alert
              type="info"
              showIcon
              style={{ marginTop: 16 }}
              message={
                <>
                  OCS 脚本的 @connect 需要允许访问 <Typography.Text code>{hostOf(baseUrl)}</Typography.Text>
                </>
              }
              description="使用 GM_xmlhttpRequest 时，脚本管理器首次请求会询问是否允许跨域访问该域名，请选择“总是允许”；若 OCS 的 @connect 未包含该域名，请在脚本管理器中把它加入“用户域名白名单”。使用 fetch 时由本站的跨域设置放行。"
            />
          )}
        </Card>
        <Card title="3. 配置">
          {!baseUrl && <Skeleton active />}
          {baseUrl && !config && <Empty description="填写令牌后生成配置" />}
          {config && (
            <Space direction="vertical" size="large" style={{ width: '100%' }}>
              <ConfigOutput
                json={JSON.stringify(config, null, 2)}
                subscription={subscriptionUrl(subscriptionBase, { token, type: requestType, method, detail })}
              />
              <ConfigTester wrapper={config[0]} detail={detail} />
            </Space>
          )}
        </Card>
      </Space>
    </PageContainer>
  );
}
