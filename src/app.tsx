/**
 * Runtime configuration of the shell: the current user (getInitialState), the shared
 * layout (header, avatar menu, menu narrowing, guards, error boundary) and the request
 * plugin's error config.
 */
import { HomeOutlined } from '@ant-design/icons';
import type { RequestConfig, RunTimeLayoutConfig } from '@umijs/max';
import { history, Link, Navigate } from '@umijs/max';
import React, { lazy, Suspense } from 'react';
import defaultSettings, { antdTheme } from '../config/defaultSettings';
import ChunkErrorBoundary, { RememberPageImports } from './components/ChunkErrorBoundary';
import { hasSideMenu, narrowMenu, withMenuIcons } from './components/menu';
import { rememberVisit } from './components/recentPages';
import PreferencesProvider from './components/preferences/PreferencesProvider';
import { endSession, recheckUser, SessionBridge } from './components/session';
import {
  LayoutHeader,
  menuItemRender,
  rememberCollapsed,
  siderCollapseButton,
  useSiderCollapsed,
} from './components/sideMenu';
import SkipLink, { MAIN_CONTENT_ID } from './components/SkipLink';
import { avatarOf, displayName } from './components/user';
import { startLoadingInitialState, takeInitialState, type InitialState } from './initialState';
import { errorConfig, sessionEndInterceptor } from './requestErrorConfig';
import { dropPrerendered, PRERENDERED_PATH } from './prerendered';
import { preloadRouteComponents, type RouteRecord } from './routePreload';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

dayjs.locale('zh-cn');

/** antd in Chinese (pagination, empty states, pickers, confirm buttons), in the portal's theme. */
export const antd = (memo: Record<string, unknown>) => ({ ...memo, locale: zhCN, theme: antdTheme });

// Header pieces and guards load with the layout, not with umi.js: /user/login (no
// layout) then starts without antd Menu/Dropdown/Result.
const AccessDenied = lazy(() => import('./components/AccessDenied'));
const AvatarDropdown = lazy(() => import('./components/AvatarDropdown'));
const ExceptionResult = lazy(() => import('./components/ExceptionResult'));
const HeaderTitle = lazy(() => import('./components/HeaderTitle'));
const NotificationBell = lazy(() => import('./components/NotificationBell'));
const SearchButton = lazy(() => import('./components/search/SearchButton'));
const loadPageTabs = () => import('./components/tabs/PageTabs');
const PageTabs = lazy(loadPageTabs);

/**
 * The page area. A signed-in user's has the open pages' tabs, each page kept while its tab is open
 * (components/tabs/, loaded only then: a visitor's first visit does without it). A refused or unknown
 * address is shown in the same area (`exception`), so the tabs' pages stay mounted behind it: the
 * layout draws this one element for a page and for those, and React keeps its state.
 */
function pageArea(signedIn: boolean, page: React.ReactNode, exception?: React.ReactNode) {
  return (
    // The target of 跳到主要内容 (components/SkipLink.tsx).
    <div id={MAIN_CONTENT_ID} tabIndex={-1}>
      {signedIn ? (
        <Suspense fallback={null}>
          <PageTabs exception={exception} />
        </Suspense>
      ) : (
        (exception ?? page)
      )}
    </div>
  );
}

export async function getInitialState(): Promise<InitialState> {
  return takeInitialState();
}

/** Umi calls this with the route table before React's first render: the first URL's page starts loading. */
export function patchRoutes({
  routes,
  routeComponents,
}: {
  routes: Record<string, RouteRecord>;
  routeComponents: Record<string, unknown>;
}) {
  preloadRouteComponents(routes, routeComponents, window.location.pathname);
}

/**
 * Umi calls this on the first route (in React's first commit) and on every change: the login form's
 * static copy (src/prerendered.ts) is only for the login page to take over. The signed-in user's
 * recent pages (the home page's 最近访问) are kept from here.
 */
export function onRouteChange({ location }: { location: { pathname: string }; isFirst?: boolean }) {
  if (location.pathname !== PRERENDERED_PATH) dropPrerendered();
  rememberVisit(location.pathname);
}

/** Umi calls this before React's first render: the current user is asked for from here. */
export function render(oldRender: () => void) {
  startLoadingInitialState();
  oldRender();
}

export const layout: RunTimeLayoutConfig = ({ initialState }) => {
  // Umi calls this in its layout component's every render (plugin-layout's Layout, unconditionally),
  // so a hook here is that component's: the side menu follows the collapsed preference at once when it
  // changes, not only at the next load.
  const collapsed = useSiderCollapsed(); // eslint-disable-line react-hooks/rules-of-hooks
  const currentUser = initialState?.currentUser ?? null;
  // A signed-in user's tabs come with the layout: their code is asked for as soon as it starts.
  if (currentUser) void loadPageTabs();
  const { pathname } = history.location;
  return {
    ...defaultSettings,
    // The plugin's default right-hand content is replaced by avatarProps/actionsRender.
    rightContentRender: false,
    headerTitleRender: (logo, title, props) => (
      <Suspense
        fallback={
          <span>
            {logo}
            {title}
          </span>
        }
      >
        <HeaderTitle logo={logo} isMobile={props?.isMobile} />
      </Suspense>
    ),
    // On a phone ProLayout skips headerTitleRender: next to the menu button it draws only
    // menuHeaderRender(logo, null), so the short title comes from here. The side menu calls it too,
    // with its props third; in the mix layout the title is the top bar's, so the sider gets none.
    menuHeaderRender: (_logo, _title, siderProps) =>
      siderProps ? null : (
        <Suspense fallback={<img src={defaultSettings.logo} alt="logo" height={28} />}>
          <HeaderTitle logo={<img src={defaultSettings.logo} alt="logo" height={28} />} isMobile />
        </Suspense>
      ),
    actionsRender: () => [
      <Link key="home" to="/home" title="返回首页">
        <HomeOutlined aria-hidden /> 首页
      </Link>,
      ...(currentUser
        ? [
            <Suspense key="search" fallback={null}>
              <SearchButton currentUser={currentUser} />
            </Suspense>,
            <Suspense key="bell" fallback={null}>
              <NotificationBell />
            </Suspense>,
          ]
        : []),
    ],
    avatarProps: {
      src: avatarOf(currentUser),
      // The name beside it says who it is.
      alt: '',
      title: displayName(currentUser),
      size: 'small',
      render: (_props, dom) => (
        <Suspense fallback={dom}>
          <AvatarDropdown currentUser={currentUser}>{dom}</AvatarDropdown>
        </Suspense>
      ),
    },
    menuDataRender: (menuData) => narrowMenu(history.location.pathname, withMenuIcons(menuData)),
    menuItemRender,
    ...(hasSideMenu(pathname) ? {} : { menuRender: false }),
    // Collapsed or not as the user left it (desktop), and both menu toggles work from the keyboard.
    // No breakpoint: antd's Sider would set the state by the window's width as it mounts, over the user's.
    collapsed,
    onCollapse: rememberCollapsed,
    breakpoint: false,
    collapsedButtonRender: siderCollapseButton,
    headerRender: (props, dom) => (
      <LayoutHeader hasMenu={hasSideMenu(pathname)} menuOpen={!props.collapsed}>
        {dom}
      </LayoutHeader>
    ),
    unAccessible: pageArea(
      !!currentUser,
      null,
      <Suspense fallback={null}>
        <AccessDenied />
      </Suspense>,
    ),
    noFound: pageArea(
      !!currentUser,
      null,
      <Suspense fallback={null}>
        <ExceptionResult status={404} />
      </Suspense>,
    ),
    ErrorBoundary: ChunkErrorBoundary,
    // A role that requires two-factor sign-in, not set up yet: only its set-up page (the server refuses the rest).
    // The layout's outlet itself is read by the tabs (useOutlet), which keep each open page's element.
    childrenRender: (children: React.ReactNode) => {
      const here = history.location.pathname;
      if (!currentUser?.mustEnrollTwoFactor || here === ENROL_PATH) return pageArea(!!currentUser, children);
      return <Navigate to={`${ENROL_PATH}?redirect=${encodeURIComponent(here + history.location.search)}`} replace />;
    },
  };
};

const ENROL_PATH = '/user/security';

/**
 * Inside the app's state, around every page: the request layer can end a session
 * (components/session.tsx), the signed-in user's theme applies, and 跳到主要内容 comes first.
 */
export function innerProvider(container: React.ReactNode) {
  return (
    <SessionBridge>
      <PreferencesProvider>
        <SkipLink />
        {container}
      </PreferencesProvider>
    </SessionBridge>
  );
}

/** Outside the layout too (login, register): no white screen on a failed chunk. */
export function rootContainer(container: React.ReactNode) {
  return (
    <RememberPageImports>
      <ChunkErrorBoundary>{container}</ChunkErrorBoundary>
    </RememberPageImports>
  );
}

export const request: RequestConfig = {
  ...errorConfig,
  // A 401 where a session was needed: the session ended, handled once for the whole app. A 403 for a
  // role: the user's roles are asked again.
  responseInterceptors: [sessionEndInterceptor(endSession, recheckUser)],
};
