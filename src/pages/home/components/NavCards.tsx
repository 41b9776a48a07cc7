/** Where to go next: the user's recent pages (kept in this browser) and the main tasks open to them. */
import type { AccessFlags } from '@/access';
import { recentPaths } from '@/components/recentPages';
import { Link, useNavigate } from '@umijs/max';
import { Button, Card, Empty, Flex, List, Typography } from 'antd';
import { useMemo } from 'react';
import { openablePage, openablePages } from '../pages';

const SHOWN = 8;

/** The main tasks, in the order most users need them; each shown only when the user may open it. */
export const QUICK_ACTIONS = [
  '/OCS/askQuestion',
  '/OCS/freeChange',
  '/OCS/configGen',
  '/UMS/createMessage',
  '/UMS/self',
  '/user/tokenGen',
  '/njit/queryStuInfo',
  '/user/admin/userManage',
];

export function RecentCard({ uid, access }: { uid: number; access: AccessFlags }) {
  const pages = useMemo(() => openablePages(recentPaths(uid), access, SHOWN), [uid, access]);
  return (
    <Card title="最近访问" size="small" style={{ height: '100%' }}>
      {pages.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有访问记录，打开的页面会列在这里" />
      ) : (
        <nav aria-label="最近访问的页面">
          <List
            size="small"
            dataSource={pages}
            renderItem={(p) => (
              <List.Item>
                <Link to={p.path}>{p.name}</Link>
                {p.module && <Typography.Text type="secondary">{p.module}</Typography.Text>}
              </List.Item>
            )}
          />
        </nav>
      )}
    </Card>
  );
}

export function QuickActions({ access }: { access: AccessFlags }) {
  const navigate = useNavigate();
  const pages = QUICK_ACTIONS.flatMap((p) => openablePage(p, access) ?? []);
  return (
    <Card title="快捷操作" size="small" style={{ height: '100%' }}>
      <nav aria-label="快捷操作">
        <Flex wrap gap={8}>
          {pages.map((p) => (
            <Button key={p.path} onClick={() => navigate(p.path)}>
              {p.name}
            </Button>
          ))}
        </Flex>
      </nav>
    </Card>
  );
}
