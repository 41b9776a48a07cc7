/** 403/404 body with the way home; used by the pages and the layout's guards. */
import { useNavigate } from '@umijs/max';
import { Button, Result } from 'antd';

const TEXT = {
  403: { title: '403', subTitle: '抱歉，你无权访问该页面。' },
  404: { title: '404', subTitle: '抱歉，你访问的页面不存在。' },
} as const;

export default function ExceptionResult({ status }: { status: 403 | 404 }) {
  const navigate = useNavigate();
  return (
    <Result
      status={status === 403 ? '403' : '404'}
      title={TEXT[status].title}
      subTitle={TEXT[status].subTitle}
      extra={
        <Button type="primary" onClick={() => navigate('/home')}>
          返回首页
        </Button>
      }
    />
  );
}
