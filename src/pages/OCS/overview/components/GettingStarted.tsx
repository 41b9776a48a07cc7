/** Token → config → userscript: the three steps before the OCS script can query this portal. */
import { Link } from '@umijs/max';
import { Card, Steps } from 'antd';

export default function GettingStarted({ hasToken }: { hasToken: boolean }) {
  return (
    <Card title="开始使用">
      <Steps
        // Only step 1 can be known here (an active ocs:query token); the others happen in the browser.
        current={hasToken ? 1 : 0}
        items={[
          {
            title: '创建令牌',
            description: hasToken ? (
              <>
                已有可用令牌，<Link to="/OCS/tokenGen">再建一个</Link>
              </>
            ) : (
              <>
                创建权限为 ocs:query 的令牌，<Link to="/OCS/tokenGen">去创建</Link>
              </>
            ),
          },
          {
            title: '生成配置',
            description: (
              <>
                用令牌生成 OCS 题库配置，<Link to="/OCS/configGen">去生成</Link>
              </>
            ),
          },
          {
            title: '安装脚本',
            description: (
              <>
                安装油猴脚本并导入配置，<Link to="/OCS/downloadUserScript">去安装</Link>
              </>
            ),
          },
        ]}
      />
    </Card>
  );
}
