/**
 * The route table of the whole portal, in one place.
 * `access` names a flag from src/access.ts; children inherit their parent's flag.
 * Components resolve against src/pages and are loaded on demand.
 * Every menu entry has a `menuIcon` (the collapsed side menu shows only icons): a name from
 * src/components/menuIcons.tsx. Not Umi's `icon`, which makes the layout plugin import every icon into
 * umi.js, the first download of every page; menu.ts gives the entries their icons when a menu is drawn.
 */
export interface PortalRoute {
  path: string;
  name?: string;
  menuIcon?: string;
  component?: string;
  redirect?: string;
  access?: 'isAdmin' | 'isNjit' | 'isNjitAdmin' | 'isLoggedIn';
  layout?: false;
  hideInMenu?: boolean;
  /**
   * false: the page is not kept while its tab is in the background (src/components/tabs/), it starts
   * afresh each time it is shown. For a page that shows a secret once (a new token).
   */
  keepAlive?: false;
  routes?: PortalRoute[];
}

const routes: PortalRoute[] = [
  { path: '/', redirect: '/home' },
  { path: '/home', name: '首页', menuIcon: 'home', component: './home' },
  // Login and register sit outside the shared layout: no header, no menu.
  { path: '/user/login', name: '登录', layout: false, hideInMenu: true, component: './user/login' },
  { path: '/user/register', name: '注册', layout: false, hideInMenu: true, component: './user/register' },
  // Signing in without a password at hand: reset by e-mail, the mailed links, a campus identity to link.
  {
    path: '/user/forgotPassword',
    name: '忘记密码',
    layout: false,
    hideInMenu: true,
    component: './user/forgotPassword',
  },
  {
    path: '/user/resetPassword',
    name: '重置密码',
    layout: false,
    hideInMenu: true,
    component: './user/resetPassword',
  },
  { path: '/user/verifyEmail', name: '验证邮箱', layout: false, hideInMenu: true, component: './user/verifyEmail' },
  { path: '/user/loginLink', name: '链接登录', layout: false, hideInMenu: true, component: './user/loginLink' },
  { path: '/user/ssoBind', name: '关联账号', layout: false, hideInMenu: true, component: './user/ssoBind' },
  // The link of an e-mail channel's confirmation mail: its reader may have no account.
  {
    path: '/UMS/confirmEmail',
    name: '确认接收推送',
    layout: false,
    hideInMenu: true,
    component: './UMS/confirmEmail',
  },
  {
    path: '/user',
    name: '用户中心',
    menuIcon: 'user',
    // Every page of the personal center needs a session: a visitor goes to login and comes back.
    access: 'isLoggedIn',
    routes: [
      { path: '/user', redirect: '/user/me' },
      { path: '/user/me', name: '个人中心', menuIcon: 'idcard', component: './user/me' },
      { path: '/user/security', name: '账号安全', menuIcon: 'lock', component: './user/security' },
      { path: '/user/notifications', name: '我的通知', menuIcon: 'bell', component: './user/notifications' },
      { path: '/user/tokenGen', name: '生成令牌', menuIcon: 'key', keepAlive: false, component: './user/tokenGen' },
      { path: '/user/tokenManage', name: '令牌管理', menuIcon: 'safety', component: './user/tokenManage' },
      {
        path: '/user/admin',
        name: '用户管理',
        menuIcon: 'contacts',
        access: 'isAdmin',
        routes: [
          { path: '/user/admin', redirect: '/user/admin/userManage' },
          { path: '/user/admin/userManage', name: '用户列表', menuIcon: 'bars', component: './user/admin/userManage' },
          { path: '/user/admin/createUser', name: '创建用户', menuIcon: 'form', component: './user/admin/createUser' },
          // Edits the user picked in the list (?uid=): no menu entry, the list's 编辑 leads here.
          {
            path: '/user/admin/editUser',
            name: '编辑用户',
            menuIcon: 'edit',
            hideInMenu: true,
            component: './user/admin/editUser',
          },
        ],
      },
    ],
  },
  {
    path: '/OCS',
    name: 'OCS 网课助手',
    menuIcon: 'read',
    access: 'isLoggedIn',
    routes: [
      { path: '/OCS', redirect: '/OCS/overview' },
      { path: '/OCS/overview', name: '概览', menuIcon: 'dashboard', component: './OCS/overview' },
      {
        path: '/OCS/preferenceSetting',
        name: '偏好设置',
        menuIcon: 'setting',
        routes: [
          { path: '/OCS/preferenceSetting', redirect: '/OCS/preferenceSetting/aiPrompt' },
          {
            path: '/OCS/preferenceSetting/aiPrompt',
            name: 'AI 提示词',
            menuIcon: 'comment',
            component: './OCS/preferenceSetting/aiPrompt',
          },
          {
            path: '/OCS/preferenceSetting/aiModel',
            name: 'AI 模型',
            menuIcon: 'robot',
            component: './OCS/preferenceSetting/aiModel',
          },
        ],
      },
      { path: '/OCS/bill', name: '账单', menuIcon: 'transaction', component: './OCS/bill' },
      { path: '/OCS/freeChange', name: '每日领取与兑换', menuIcon: 'gift', component: './OCS/freeChange' },
      { path: '/OCS/configGen', name: '配置生成', menuIcon: 'code', component: './OCS/configGen' },
      { path: '/OCS/tokenGen', name: '令牌生成', menuIcon: 'key', keepAlive: false, component: './OCS/tokenGen' },
      {
        path: '/OCS/downloadUserScript',
        name: '下载脚本',
        menuIcon: 'download',
        component: './OCS/downloadUserScript',
      },
      { path: '/OCS/askQuestion', name: '在线提问', menuIcon: 'question', component: './OCS/askQuestion' },
      {
        path: '/OCS/OCSAdmin',
        name: 'OCS 管理',
        menuIcon: 'tool',
        access: 'isAdmin',
        routes: [
          { path: '/OCS/OCSAdmin', redirect: '/OCS/OCSAdmin/userManage' },
          {
            path: '/OCS/OCSAdmin/userManage',
            name: '用户管理',
            menuIcon: 'team',
            component: './OCS/OCSAdmin/userManage',
          },
          { path: '/OCS/OCSAdmin/bank', name: '题库管理', menuIcon: 'database', component: './OCS/OCSAdmin/bank' },
          { path: '/OCS/OCSAdmin/reviews', name: '纠错审核', menuIcon: 'audit', component: './OCS/OCSAdmin/reviews' },
          {
            path: '/OCS/OCSAdmin/misses',
            name: '未收录题目',
            menuIcon: 'fileSearch',
            component: './OCS/OCSAdmin/misses',
          },
          {
            path: '/OCS/OCSAdmin/upstreams',
            name: '上游题库',
            menuIcon: 'cloud',
            component: './OCS/OCSAdmin/upstreams',
          },
          // The folder is aiModels: a page folder named `models` would be loaded as Umi global models.
          { path: '/OCS/OCSAdmin/models', name: 'AI 模型管理', menuIcon: 'api', component: './OCS/OCSAdmin/aiModels' },
          { path: '/OCS/OCSAdmin/redeem', name: '兑换码', menuIcon: 'barcode', component: './OCS/OCSAdmin/redeem' },
          {
            path: '/OCS/OCSAdmin/settings',
            name: '服务设置',
            menuIcon: 'setting',
            component: './OCS/OCSAdmin/settings',
          },
        ],
      },
    ],
  },
  {
    path: '/UMS',
    name: 'UMS 消息推送',
    menuIcon: 'notification',
    access: 'isLoggedIn',
    routes: [
      { path: '/UMS', redirect: '/UMS/overview' },
      { path: '/UMS/overview', name: '概览', menuIcon: 'dashboard', component: './UMS/overview' },
      { path: '/UMS/self', name: '我的推送', menuIcon: 'robot', component: './UMS/self' },
      { path: '/UMS/queryMessage', name: '消息查询', menuIcon: 'search', component: './UMS/queryMessage' },
      {
        path: '/UMS/dingtalk',
        name: '钉钉',
        menuIcon: 'dingtalk',
        routes: [
          { path: '/UMS/dingtalk', redirect: '/UMS/dingtalk/sendSelf' },
          {
            path: '/UMS/dingtalk/sendSelf',
            name: '发送给自己',
            menuIcon: 'send',
            component: './UMS/dingtalk/sendSelf',
          },
        ],
      },
      { path: '/UMS/createMessage', name: '创建消息', menuIcon: 'edit', component: './UMS/createMessage' },
      { path: '/UMS/templates', name: '消息模板', menuIcon: 'form', component: './UMS/templates' },
    ],
  },
  {
    path: '/njit',
    name: 'NJIT 学生信息',
    menuIcon: 'team',
    access: 'isNjit',
    routes: [
      { path: '/njit', redirect: '/njit/overview' },
      { path: '/njit/overview', name: '概览', menuIcon: 'dashboard', component: './njit/overview' },
      { path: '/njit/queryStuInfo', name: '学生信息查询', menuIcon: 'search', component: './njit/queryStuInfo' },
      {
        path: '/njit/fieldPolicy',
        name: '字段策略',
        menuIcon: 'safety',
        access: 'isNjitAdmin',
        component: './njit/fieldPolicy',
      },
    ],
  },
  { path: '*', hideInMenu: true, component: './404' },
];

export default routes;
