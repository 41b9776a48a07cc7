/**
 * Honest placeholder for module pages that later issues build: the route resolves,
 * the page says so and offers the way home — no fake data, no dead buttons.
 */
import { PageContainer } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { Button, Result } from 'antd';

export default function Building() {
  return (
    <PageContainer>
      <Result
        status="info"
        title="功能建设中"
        subTitle="该页面正在开发，完成后会在这里提供服务。"
        extra={
          <Link to="/home">
            <Button type="primary">返回首页</Button>
          </Link>
        }
      />
    </PageContainer>
  );
}
