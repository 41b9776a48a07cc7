/**
 * The one screen that shows a new token in full; the value is held only in the page's state. A token
 * that may query OCS can go straight on to /OCS/configGen (in this tab's memory, never in the URL).
 */
import CopyableSecret from '@/components/CopyableSecret';
import { formatTime } from '@/components/time';
import { handOffToken } from '@/components/tokenHandoff';
import { TOKEN_SCOPE_LABELS } from '@/contract';
import * as userApi from '@/contract/api/user';
import type { AnswerOf } from '@/contract/endpoint';
import { Link, useNavigate } from '@umijs/max';
import { Button, Descriptions, Result, Space, Tag } from 'antd';

interface Props {
  token: AnswerOf<typeof userApi.createToken>['data'];
  onAgain: () => void;
}

export default function TokenCreated({ token, onAgain }: Props) {
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
      subTitle="请把令牌复制到需要调用接口的脚本或程序中。离开本页后将无法再次查看完整令牌。"
      extra={
        <Space wrap>
          {token.scopes.includes('ocs:query') && (
            <Button type="primary" onClick={toConfig}>
              用此令牌生成配置
            </Button>
          )}
          <Link to="/user/tokenManage">
            <Button type={token.scopes.includes('ocs:query') ? 'default' : 'primary'}>前往令牌管理</Button>
          </Link>
          <Button onClick={onAgain}>再生成一个</Button>
        </Space>
      }
    >
      <CopyableSecret value={token.token} label="令牌" />
      <Descriptions column={1} size="small" style={{ marginTop: 16 }}>
        <Descriptions.Item label="前缀">{token.prefix}</Descriptions.Item>
        <Descriptions.Item label="权限范围">
          {token.scopes.map((s) => (
            <Tag key={s}>{TOKEN_SCOPE_LABELS[s] ?? s}</Tag>
          ))}
        </Descriptions.Item>
        <Descriptions.Item label="过期时间">{formatTime(token.expiresAt, '永不过期')}</Descriptions.Item>
      </Descriptions>
    </Result>
  );
}
