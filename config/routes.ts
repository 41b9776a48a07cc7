/**
 * The route table of the whole portal, in one place (issue 2).
 * `access` names a flag from src/access.ts; children inherit their parent's flag.
 * Components resolve against src/pages and are loaded on demand.
 */
export interface PortalRoute {
  path: string;
  name?: string;
  icon?: string;
  component?: string;
  redirect?: string;
  access?: 'isAdmin' | 'isNjit' | 'isLoggedIn';
  layout?: false;
  hideInMenu?: boolean;
  routes?: PortalRoute[];
}

const routes: PortalRoute[] = [
  { path: '/', redirect: '/home' },
  { path: '/home', name: '首页', icon: 'home', component: './home' },
  // Login and register sit outside the shared layout: no header, no menu.
  { path: '/user/login', name: '登录', layout: false, hideInMenu: true, component: './user/login' },
  { path: '/user/register', name: '注册', layout: false, hideInMenu: true, component: './user/register' },
  {
    path: '/user',
    name: '用户中心',
    icon: 'user',
    routes: [
      { path: '/user', redirect: '/user/me' },
      { path: '/user/me', name: '个人中心', component: './user/me' },
      { path: '/user/tokenGen', name: '生成令牌', component: './user/tokenGen' },
      { path: '/user/tokenManage', name: '令牌管理', component: './user/tokenManage' },
      {
        path: '/user/admin',
        name: '用户管理',
        access: 'isAdmin',
        routes: [
          { path: '/user/admin', redirect: '/user/admin/userManage' },
          { path: '/user/admin/userManage', name: '用户列表', component: './user/admin/userManage' },
          { path: '/user/admin/createUser', name: '创建用户', component: './user/admin/createUser' },
          { path: '/user/admin/editUser', name: '编辑用户', component: './user/admin/editUser' },
        ],
      },
    ],
  },
  {
    path: '/OCS',
    name: 'OCS 网课助手',
    icon: 'read',
    access: 'isLoggedIn',
    routes: [
      { path: '/OCS', redirect: '/OCS/overview' },
      { path: '/OCS/overview', name: '概览', component: './OCS/overview' },
      {
        path: '/OCS/preferenceSetting',
        name: '偏好设置',
        routes: [
          { path: '/OCS/preferenceSetting', redirect: '/OCS/preferenceSetting/aiPrompt' },
          { path: '/OCS/preferenceSetting/aiPrompt', name: 'AI 提示词', component: './OCS/preferenceSetting/aiPrompt' },
          { path: '/OCS/preferenceSetting/aiModel', name: 'AI 模型', component: './OCS/preferenceSetting/aiModel' },
        ],
      },
      { path: '/OCS/bill', name: '账单', component: './OCS/bill' },
      { path: '/OCS/freeChange', name: '每日领取与兑换', component: './OCS/freeChange' },
      { path: '/OCS/configGen', name: '配置生成', component: './OCS/configGen' },
      { path: '/OCS/tokenGen', name: '令牌生成', component: './OCS/tokenGen' },
      { path: '/OCS/downloadUserScript', name: '下载脚本', component: './OCS/downloadUserScript' },
      { path: '/OCS/askQuestion', name: '在线提问', component: './OCS/askQuestion' },
      {
        path: '/OCS/OCSAdmin',
        name: 'OCS 管理',
        access: 'isAdmin',
        routes: [
          { path: '/OCS/OCSAdmin', redirect: '/OCS/OCSAdmin/userManage' },
          { path: '/OCS/OCSAdmin/userManage', name: '用户管理', component: './OCS/OCSAdmin/userManage' },
          { path: '/OCS/OCSAdmin/bank', name: '题库管理', component: './OCS/OCSAdmin/bank' },
          // The folder is aiModels: a page folder named `models` would be loaded as Umi global models.
          { path: '/OCS/OCSAdmin/models', name: 'AI 模型管理', component: './OCS/OCSAdmin/aiModels' },
          { path: '/OCS/OCSAdmin/redeem', name: '兑换码', component: './OCS/OCSAdmin/redeem' },
          { path: '/OCS/OCSAdmin/settings', name: '服务设置', component: './OCS/OCSAdmin/settings' },
        ],
      },
    ],
  },
  {
    path: '/UMS',
    name: 'UMS 消息推送',
    icon: 'notification',
    access: 'isLoggedIn',
    routes: [
      { path: '/UMS', redirect: '/UMS/overview' },
      { path: '/UMS/overview', name: '概览', component: './UMS/overview' },
      { path: '/UMS/self', name: '我的推送', component: './UMS/self' },
      { path: '/UMS/queryMessage', name: '消息查询', component: './UMS/queryMessage' },
      {
        path: '/UMS/dingtalk',
        name: '钉钉',
        routes: [
          { path: '/UMS/dingtalk', redirect: '/UMS/dingtalk/sendSelf' },
          { path: '/UMS/dingtalk/sendSelf', name: '发送给自己', component: './UMS/dingtalk/sendSelf' },
        ],
      },
      { path: '/UMS/createMessage', name: '创建消息', component: './UMS/createMessage' },
    ],
  },
  {
    path: '/njit',
    name: 'NJIT 学生信息',
    icon: 'team',
    access: 'isNjit',
    routes: [
      { path: '/njit', redirect: '/njit/overview' },
      { path: '/njit/overview', name: '概览', component: './njit/overview' },
      { path: '/njit/queryStuInfo', name: '学生信息查询', component: './njit/queryStuInfo' },
    ],
  },
  { path: '*', hideInMenu: true, component: './404' },
];

export default routes;
