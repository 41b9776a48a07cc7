/**
 * The first-run checklist (题库已导入? AI 模型已配置? 单价已设置?) with a link to where each is done,
 * shown to administrators on the OCS overview and on every OCS admin page until all three are done.
 * The state is the server's (GET /api/ocs/admin/setup); pages that change it call refreshOcsSetup().
 * It renders nothing at all when hidden, so place it outside a <Space> (an empty item still takes a gap).
 */
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call } from '@/services/call';
import { CheckCircleFilled, ExclamationCircleOutlined } from '@ant-design/icons';
import { Link, useAccess } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, List, Typography } from 'antd';
import { useEffect, type CSSProperties } from 'react';
import ListEntry from '@/components/ListEntry';

const listeners = new Set<() => void>();

/** Reloads every checklist on screen: after an import, a saved model or saved settings. */
export function refreshOcsSetup(): void {
  listeners.forEach((reload) => reload());
}

/** Below the checklist, when it shows: the page's content. */
const GAP: CSSProperties = { marginBottom: 16 };

export default function SetupChecklist({ style = GAP }: { style?: CSSProperties }) {
  // The access context is missing outside the app (and in tests): nobody is an administrator there.
  const isAdmin = !!useAccess()?.isAdmin;
  const { data, refresh } = useRequest(() => call(ocsAdminApi.setupStatus, {}, { skipErrorHandler: true }), {
    ready: isAdmin,
    refreshOnWindowFocus: true,
  });
  useEffect(() => {
    listeners.add(refresh);
    return () => {
      listeners.delete(refresh);
    };
  }, [refresh]);

  const s = data?.data;
  // Nothing while loading, on an error (the page itself says more) or once everything is done.
  if (!isAdmin || !s || s.complete) return null;
  const items = [
    {
      key: 'bank',
      title: '题库已导入？',
      done: s.bank.done,
      detail: s.bank.done
        ? '题库中已有可用的题目。'
        : '题库还是空的，所有查询都会“未找到”。导入自己的题库，或先导入示例题库试用。',
      to: '/OCS/OCSAdmin/bank',
      action: '去导入题库',
    },
    {
      key: 'ai',
      title: 'AI 模型已配置？',
      done: s.ai.done,
      detail: s.ai.done ? `已启用 ${s.ai.models} 个模型。` : '还没有启用的 AI 模型，题库中找不到的题无法由 AI 作答。',
      to: '/OCS/OCSAdmin/models',
      action: '去配置模型',
    },
    {
      key: 'price',
      title: '单价已设置？',
      done: s.price.done,
      detail: s.price.done
        ? `题库作答每次 ${s.price.bankPrice} 积分。`
        : `题库作答单价仍是默认的 ${s.price.bankPrice} 积分/次，确认或修改后保存一次服务设置。`,
      to: '/OCS/OCSAdmin/settings',
      action: '去设置单价',
    },
  ];
  const doneCount = items.filter((i) => i.done).length;
  return (
    <Card
      size="small"
      title="OCS 首次设置"
      extra={`已完成 ${doneCount}/${items.length}`}
      data-testid="ocs-setup-checklist"
      style={style}
    >
      <List
        size="small"
        dataSource={items}
        renderItem={(item) => (
          <List.Item data-testid={`ocs-setup-${item.key}`} data-done={item.done}>
            <ListEntry
              avatar={
                item.done ? (
                  <CheckCircleFilled style={{ color: '#52c41a' }} aria-label="已完成" />
                ) : (
                  <ExclamationCircleOutlined style={{ color: '#faad14' }} aria-label="未完成" />
                )
              }
              title={item.title}
              description={
                <>
                  <Typography.Text type="secondary">{item.detail}</Typography.Text>
                  {/* Under the text, not beside it: on a phone the explanation keeps the full width. */}
                  {!item.done && (
                    <div>
                      <Link to={item.to}>{item.action}</Link>
                    </div>
                  )}
                </>
              }
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
