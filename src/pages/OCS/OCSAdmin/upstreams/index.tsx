/**
 * /OCS/OCSAdmin/upstreams: other AnswererWrapper-compatible question banks asked (all at once, each
 * within its timeout) when this bank has no answer, before the AI. Answers they agree on win and count
 * for more; an accepted answer is kept in the bank as upstream:<name> and charged the upstream's price.
 * Failures cost users nothing and show here.
 */
import type { Upstream } from '@/contract';
import { errorMessageOf } from '@/requestErrorConfig';
import * as ocsUpstreamApi from '@/contract/api/ocsUpstream';
import { call } from '@/services/call';
import { PlusOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import { useRequest } from 'ahooks';
import { Alert, Button, Card, Space } from 'antd';
import UpstreamDrawer from './components/UpstreamDrawer';
import UpstreamTable from './components/UpstreamTable';

export default function UpstreamsPage() {
  const list = useRequest<Upstream[], []>(() =>
    call(ocsUpstreamApi.listUpstreams, {}, { skipErrorHandler: true }).then((r) => r.data),
  );
  return (
    <PageContainer
      title="上游题库"
      content="本站题库没有答案时，先询问这里启用的其他题库（OCS 题库配置格式），再交给 AI；多个来源一致的答案更可信。上游出错不向用户收费。统计为全部实例合计，熔断状态为当前实例。"
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {list.error && (
          <Alert
            type="error"
            showIcon
            message={`加载失败：${errorMessageOf(list.error)}`}
            action={
              <Button size="small" onClick={list.refresh}>
                重试
              </Button>
            }
          />
        )}
        <Card
          title="上游题库"
          extra={
            <UpstreamDrawer
              onSaved={list.refresh}
              trigger={
                <Button type="primary" icon={<PlusOutlined aria-hidden />}>
                  添加上游题库
                </Button>
              }
            />
          }
        >
          <UpstreamTable upstreams={list.data ?? []} loading={list.loading} onChanged={list.refresh} />
        </Card>
      </Space>
    </PageContainer>
  );
}
