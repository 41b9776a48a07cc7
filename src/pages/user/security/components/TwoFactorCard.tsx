/**
 * Two-factor sign-in in the personal center: its state, turning it on (TwoFactorSetup), new recovery
 * codes and turning it off (each needing a code), forgetting trusted browsers. Personal API tokens are
 * not affected, and the card says so.
 */
import { formatTime } from '@/components/time';
import * as identityApi from '@/contract/api/identity';
import { call } from '@/services/call';
import { Alert, Button, Card, Descriptions, Popconfirm, Skeleton, Space, Tag, message } from 'antd';
import { useRequest } from 'ahooks';
import { useState, type ReactNode } from 'react';
import CodePrompt from './CodePrompt';
import RecoveryCodes from './RecoveryCodes';
import TwoFactorSetup from './TwoFactorSetup';

export default function TwoFactorCard({ onEnabled }: { onEnabled?: () => void }) {
  const { data, loading, refresh } = useRequest(() => call(identityApi.twoFactorStatus));
  const [settingUp, setSettingUp] = useState(false);
  const [prompt, setPrompt] = useState<'disable' | 'codes'>();
  const [newCodes, setNewCodes] = useState<string[]>();
  const status = data?.data;

  const forget = async () => {
    try {
      const res = await call(identityApi.twoFactorForgetBrowsers);
      message.success(`已取消信任 ${res.data.forgotten} 个浏览器，下次登录都需要验证码`);
      refresh();
    } catch {
      // The request layer has shown the error.
    }
  };

  const tokensNote = (
    <Alert
      type="info"
      showIcon
      message="个人 API 令牌不受两步验证影响"
      description="脚本使用的个人令牌本身就是一个独立的密钥，调用接口时不需要验证码。请像密码一样保管令牌，泄露时在“令牌管理”中撤销。"
    />
  );

  let body: ReactNode;
  if (loading && !status) body = <Skeleton active />;
  else if (!status) body = <Alert type="error" showIcon message="两步验证状态加载失败，请刷新重试" />;
  else if (newCodes) {
    body = <RecoveryCodes codes={newCodes} onDone={() => setNewCodes(undefined)} />;
  } else if (settingUp) {
    body = (
      <TwoFactorSetup
        onCancel={() => setSettingUp(false)}
        onEnabled={() => {
          setSettingUp(false);
          message.success('两步验证已开启');
          refresh();
          onEnabled?.();
        }}
      />
    );
  } else if (!status.enabled) {
    body = (
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <p style={{ margin: 0 }}>
          开启后，用密码（或统一身份认证）登录时还需输入手机验证器 App 中的 6 位验证码，密码泄露也不会被他人登录。
        </p>
        {status.required && <Alert type="warning" showIcon message="你的账号角色要求开启两步验证" />}
        <Button type="primary" onClick={() => setSettingUp(true)}>
          开启两步验证
        </Button>
        {tokensNote}
      </Space>
    );
  } else {
    body = (
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Descriptions column={1} size="small">
          <Descriptions.Item label="状态">
            <Tag color="green">已开启</Tag>
            {status.required && <Tag>角色要求</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label="开启时间">{formatTime(status.enabledAt)}</Descriptions.Item>
          <Descriptions.Item label="剩余恢复码">
            <Space wrap>
              {`${status.recoveryCodesLeft} 个`}
              {status.recoveryCodesLeft <= 3 && <Tag color="warning">即将用完，请重新生成</Tag>}
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label="受信任的浏览器">{`${status.trustedBrowsers} 个`}</Descriptions.Item>
        </Descriptions>
        <Space wrap>
          <Button onClick={() => setPrompt('codes')}>重新生成恢复码</Button>
          <Popconfirm
            title="不再信任任何浏览器？"
            description="所有浏览器下次登录都需要输入验证码。"
            okText="确定"
            cancelText="取消"
            onConfirm={forget}
            disabled={status.trustedBrowsers === 0}
          >
            <Button disabled={status.trustedBrowsers === 0}>不再信任浏览器</Button>
          </Popconfirm>
          {!status.required && (
            <Button danger onClick={() => setPrompt('disable')}>
              关闭两步验证
            </Button>
          )}
        </Space>
        {status.required && <Alert type="info" showIcon message="你的账号角色要求开启两步验证，不能关闭。" />}
        {tokensNote}
      </Space>
    );
  }

  return (
    <Card title="两步验证">
      {body}
      <CodePrompt
        open={prompt === 'disable'}
        title="关闭两步验证"
        description="关闭后，只凭密码即可登录。请输入当前验证码或一个恢复码确认。"
        okText="关闭"
        danger
        onCancel={() => setPrompt(undefined)}
        onSubmit={async (code) => {
          await call(identityApi.twoFactorDisable, { body: { code } }, { skipErrorHandler: true });
          setPrompt(undefined);
          message.success('两步验证已关闭');
          refresh();
        }}
      />
      <CodePrompt
        open={prompt === 'codes'}
        title="重新生成恢复码"
        description="新的 10 个恢复码生成后，旧的恢复码全部失效。请输入当前验证码或一个恢复码确认。"
        okText="生成"
        onCancel={() => setPrompt(undefined)}
        onSubmit={async (code) => {
          const res = await call(identityApi.twoFactorRecoveryCodes, { body: { code } }, { skipErrorHandler: true });
          setPrompt(undefined);
          setNewCodes(res.data.recoveryCodes);
          refresh();
        }}
      />
    </Card>
  );
}
