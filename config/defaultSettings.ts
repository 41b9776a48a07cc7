/** ProLayout settings shared by the runtime layout (src/app.tsx). */
import type { ProLayoutProps } from '@ant-design/pro-components';

export const FULL_TITLE = '统一门户';
export const SHORT_TITLE = '门户';
/** Below this width (px) the header shows SHORT_TITLE. */
export const SHORT_TITLE_BELOW = 1400;

const defaultSettings: ProLayoutProps & { logo: string } = {
  navTheme: 'light',
  colorPrimary: '#1677ff',
  layout: 'mix',
  contentWidth: 'Fluid',
  fixedHeader: true,
  fixSiderbar: true,
  splitMenus: false,
  title: FULL_TITLE,
  logo: '/logo.svg',
};

export default defaultSettings;
