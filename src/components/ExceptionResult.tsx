/** 403/404 body with the way home; used by the pages and the layout's guards. */
import { useNavigate } from '@umijs/max';
import { Button, Result } from 'antd';
import type React from 'react';

const TEXT = {
  403: { title: '403', subTitle: '抱歉，你无权访问该页面。' },
  404: { title: '404', subTitle: '抱歉，你访问的页面不存在。' },
} as const;

export default function ExceptionResult({
  status,
  subTitle = TEXT[status].subTitle,
  action,
}: {
  status: 403 | 404;
  subTitle?: string;
  /** Something the visitor can do about it, first; 返回首页 then comes second. */
  action?: React.ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <Result
      status={status === 403 ? '403' : '404'}
      title={TEXT[status].title}
      subTitle={subTitle}
      extra={
        <>
          {action}
          <Button type={action ? 'default' : 'primary'} onClick={() => navigate('/home')}>
            返回首页
          </Button>
        </>
      }
    />
  );
}
