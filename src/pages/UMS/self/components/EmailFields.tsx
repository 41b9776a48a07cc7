/** The field of an e-mail channel: the address messages go to. */
import { zodRule } from '@/components/zodRule';
import { EmailAddress, type Channel } from '@/contract';
import { ProFormText } from '@ant-design/pro-components';

export default function EmailFields({ channel }: { channel?: Channel }) {
  return (
    <ProFormText
      name="email"
      label="邮箱地址"
      placeholder="name@example.edu"
      extra={
        channel
          ? '消息以邮件发到这个地址：标题作主题，Markdown 排成网页。'
          : '消息以邮件发到这个地址：标题作主题，Markdown 排成网页；每个地址每分钟有发送上限。'
      }
      fieldProps={{ inputMode: 'email', autoComplete: 'email' }}
      rules={[{ required: true, message: '请输入邮箱地址' }, zodRule(EmailAddress)]}
    />
  );
}
