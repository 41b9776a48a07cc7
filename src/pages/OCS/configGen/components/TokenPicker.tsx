/**
 * Which token goes into the config. The server never shows a token again after creation, so the user
 * pastes it; their active ocs:query tokens (name and prefix) are listed only to check the paste against.
 */
import type { TokenInfo } from '@/contract';
import { Link } from '@umijs/max';
import { Alert, Button, Form, Input, Select } from 'antd';
import { useState } from 'react';

interface Props {
  tokens: TokenInfo[];
  loading: boolean;
  value: string;
  onChange: (token: string) => void;
}

function check(value: string, tokens: TokenInfo[], loading: boolean, selected?: TokenInfo) {
  if (!value) return { status: '' as const, help: '粘贴创建令牌时复制的完整令牌（pt_ 开头）' };
  if (!value.startsWith('pt_')) return { status: 'error' as const, help: '令牌应以 pt_ 开头' };
  const matched = tokens.find((t) => value.startsWith(t.prefix));
  if (matched) return { status: 'success' as const, help: `对应令牌：${matched.name}（${matched.prefix}…）` };
  if (selected)
    return { status: 'warning' as const, help: `与所选令牌（${selected.prefix}…）不符，请检查是否粘贴错了` };
  if (loading) return { status: '' as const, help: undefined };
  return { status: 'warning' as const, help: '这不是你当前有效的 ocs:query 令牌，查询会被拒绝' };
}

export default function TokenPicker({ tokens, loading, value, onChange }: Props) {
  const [selectedId, setSelectedId] = useState<number>();
  const matched = value ? tokens.find((t) => value.startsWith(t.prefix)) : undefined;
  const selected = tokens.find((t) => t.id === selectedId);
  const { status, help } = check(value, tokens, loading, selected);
  return (
    <Form layout="vertical" component="div">
      {!loading && tokens.length === 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message="你还没有可用于 OCS 查询（ocs:query）的有效令牌"
          action={
            <Link to="/OCS/tokenGen">
              <Button size="small" type="primary">
                去生成令牌
              </Button>
            </Link>
          }
        />
      )}
      {tokens.length > 0 && (
        <Form.Item
          label="我的 ocs:query 令牌"
          htmlFor="ocs-token-select"
          extra="仅供核对：令牌全文只在创建时显示一次。"
        >
          <Select
            id="ocs-token-select"
            allowClear
            loading={loading}
            placeholder="选择要使用的令牌"
            value={matched?.id ?? selectedId}
            onChange={setSelectedId}
            options={tokens.map((t) => ({ value: t.id, label: `${t.name}（${t.prefix}…）` }))}
          />
        </Form.Item>
      )}
      <Form.Item label="令牌全文" htmlFor="ocs-token" validateStatus={status} help={help} style={{ marginBottom: 0 }}>
        <Input
          id="ocs-token"
          allowClear
          autoComplete="off"
          spellCheck={false}
          placeholder="pt_…"
          value={value}
          onChange={(e) => onChange(e.target.value.trim())}
          style={{ fontFamily: 'monospace' }}
        />
      </Form.Item>
    </Form>
  );
}
