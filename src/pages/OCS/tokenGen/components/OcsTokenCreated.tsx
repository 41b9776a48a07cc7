/**
 * The new token, shown once, and the way on: generate the OCS config with it. The token travels to
 * /OCS/configGen in this tab's memory (tokenHandoff), never in the URL.
 */
import CopyableSecret from '@/components/CopyableSecret';
import { formatTime } from '@/components/time';
import { handOffToken } from '@/components/tokenHandoff';
import * as userApi from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
import { SettingOutlined } from '@ant-design/icons';
import { useNavigate } from '@umijs/max';
import { Button, Descriptions, Result, Space } from 'antd';

interface Props {
  token: AnswerOf<typeof userApi.createToken>['data'];
  onAgain: () => void;
}

export default function OcsTokenCreated({ token, onAgain }: Props) {
  const navigate = useNavigate();
  const toConfig = () => {
    handOffToken(token.token);
    // Afresh: an open 配置生成 tab takes the token only when its page starts.
    navigate('/OCS/configGen', { state: { freshTab: true } });
  };
  return (
    <Result
      status="success"
      title={`令牌「${token.name}」已生成`}
      subTitle="下一步：用它生成 OCS 脚本的题库配置。离开本页后将无法再次查看完整令牌。"
      extra={
        <Space wrap>
          <Button type="primary" icon={<SettingOutlined aria-hidden />} onClick={toConfig}>
            用此令牌生成配置
          </Button>
          <Button onClick={onAgain}>再生成一个</Button>
        </Space>
      }
    >
      <CopyableSecret value={token.token} label="令牌" />
      <Descriptions column={1} size="small" style={{ marginTop: 16 }}>
        <Descriptions.Item label="前缀">{token.prefix}</Descriptions.Item>
        <Descriptions.Item label="过期时间">{formatTime(token.expiresAt, '永不过期')}</Descriptions.Item>
      </Descriptions>
    </Result>
  );
}
