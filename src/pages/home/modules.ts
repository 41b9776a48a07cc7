/** The four modules the landing page presents; access flags come from config/routes.ts. */
import type { AccessFlags } from '@/access';
import routes from '../../../config/routes';

export interface PortalModule {
  key: string;
  title: string;
  /** Route group whose access flag decides entry. */
  group: string;
  /** Where 进入 leads. */
  entry: string;
  offers: string[];
}

export const MODULES: PortalModule[] = [
  {
    key: 'user',
    title: '用户中心',
    group: '/user',
    entry: '/user/me',
    offers: ['注册与登录', '个人资料', '生成与管理个人 API 令牌'],
  },
  {
    key: 'ocs',
    title: 'OCS 网课助手',
    group: '/OCS',
    entry: '/OCS',
    offers: ['AI 辅助答题与题库模糊匹配', '积分钱包、账单、每日领取与兑换码', '配置生成与油猴脚本下载'],
  },
  {
    key: 'ums',
    title: 'UMS 消息推送',
    group: '/UMS',
    entry: '/UMS',
    offers: ['通过钉钉机器人给自己发消息', '网页发送或 HTTP 接口调用', '失败重试与完整的投递记录'],
  },
  {
    key: 'njit',
    title: 'NJIT 学生信息',
    group: '/njit',
    entry: '/njit',
    offers: ['学生名册导入与检索', '隐私信息脱敏', '查询审计'],
  },
];

export type EntryState = 'enter' | 'login' | 'forbidden';

export function accessFlagOf(group: string): keyof AccessFlags | undefined {
  return routes.find((r) => r.path === group)?.access;
}

/** May the visitor enter this module, must they log in first, or is it closed to them? */
export function entryState(group: string, access: AccessFlags): EntryState {
  const flag = accessFlagOf(group);
  if (!flag || access[flag]) return 'enter';
  return access.isLoggedIn ? 'forbidden' : 'login';
}
