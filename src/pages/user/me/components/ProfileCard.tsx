/** Profile card: avatar, username, nickname (editable), roles, created and last login. */
import RoleTags from '@/components/RoleTags';
import { formatTime } from '@/components/time';
import { zodRule } from '@/components/zodRule';
import { Nickname, type Profile } from '@/contract';
import * as userApi from '@/contract/api/user';
import { call } from '@/services/call';
import { Button, Card, Descriptions, Form, Input, message, Skeleton, Space } from 'antd';
import { useState } from 'react';
import usePatchCurrentUser from '../usePatchCurrentUser';
import AvatarUpload from './AvatarUpload';

interface Props {
  profile?: Profile;
  loading: boolean;
  onChanged: (profile: Profile) => void;
}

function NicknameForm({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [saving, setSaving] = useState(false);
  const onFinish = async ({ nickname }: { nickname?: string }) => {
    setSaving(true);
    try {
      const res = await call(userApi.updateProfile, { body: { nickname: (nickname ?? '').trim() } });
      onSaved(res.data);
      message.success('昵称已保存');
    } catch {
      // The request layer has shown the error.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Form layout="inline" initialValues={{ nickname: profile.nickname ?? '' }} onFinish={onFinish}>
      <Form.Item name="nickname" rules={[zodRule(Nickname)]} style={{ marginBottom: 0 }}>
        <Input placeholder="最多 32 个字符，留空则显示用户名" aria-label="昵称" style={{ width: 240 }} />
      </Form.Item>
      <Button htmlType="submit" loading={saving}>
        保存
      </Button>
    </Form>
  );
}

export default function ProfileCard({ profile, loading, onChanged }: Props) {
  const patchCurrentUser = usePatchCurrentUser();
  if (loading && !profile) {
    return (
      <Card title="个人资料">
        <Skeleton avatar active />
      </Card>
    );
  }
  if (!profile) return <Card title="个人资料">未能加载个人资料，请刷新重试。</Card>;

  const saved = (next: Profile) => {
    onChanged(next);
    patchCurrentUser({ nickname: next.nickname, avatar: next.avatar });
  };

  return (
    <Card title="个人资料">
      <Space align="start" size={32} wrap>
        <AvatarUpload
          user={profile}
          onChanged={(avatar) => {
            onChanged({ ...profile, avatar });
            patchCurrentUser({ avatar });
          }}
        />
        <Descriptions column={1} size="small">
          <Descriptions.Item label="用户名">{profile.username}</Descriptions.Item>
          <Descriptions.Item label="昵称">
            <NicknameForm key={profile.nickname ?? ''} profile={profile} onSaved={saved} />
          </Descriptions.Item>
          <Descriptions.Item label="角色">
            <RoleTags roles={profile.roles} />
          </Descriptions.Item>
          <Descriptions.Item label="注册时间">{formatTime(profile.createdAt)}</Descriptions.Item>
          <Descriptions.Item label="最后登录">{formatTime(profile.lastLoginAt, '从未登录')}</Descriptions.Item>
        </Descriptions>
      </Space>
    </Card>
  );
}
