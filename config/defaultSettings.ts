/** ProLayout settings shared by the runtime layout (src/app.tsx), and the antd theme of every page. */
import type { ProLayoutProps } from '@ant-design/pro-components';
import type { ThemeConfig } from 'antd';

export const FULL_TITLE = '统一门户';
export const SHORT_TITLE = '门户';
/** Below this width (px) the header shows SHORT_TITLE. */
export const SHORT_TITLE_BELOW = 1400;

/**
 * antd's blue-7 rather than its default blue-6 (#1677ff): white text on a primary button and a link on
 * white reach 6.2:1 (blue-6: 4.1:1), above the 4.5:1 WCAG 2.1 AA asks of small text; 5.5:1 on the
 * pale blue of a selected menu entry.
 */
export const PRIMARY = '#0958d9';

/**
 * The antd theme of every page (src/app.tsx `antd`; the build's login page styles and its static copy,
 * scripts/antd-styles.tsx and scripts/prerender-login.tsx, render with the same). Only what contrast
 * needs: text at 4.5:1 or more on white and on antd's light greys.
 */
export const antdTheme: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY,
    colorInfo: PRIMARY,
    colorLink: PRIMARY,
    // Secondary texts (Typography's secondary, descriptions, hints): rgba(0,0,0,0.45) was 3.4:1 on
    // white; 0.6 is 5.7:1 on white and 5.0:1 on #f0f0f0.
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    // Error texts (a form field's message, a danger link): #ff4d4f was 3.3:1; red-7 is 5.6:1.
    colorError: '#cf1322',
  },
};

const defaultSettings: ProLayoutProps & { logo: string } = {
  navTheme: 'light',
  colorPrimary: PRIMARY,
  layout: 'mix',
  contentWidth: 'Fluid',
  fixedHeader: true,
  fixSiderbar: true,
  splitMenus: false,
  title: FULL_TITLE,
  logo: '/logo.svg',
};

export default defaultSettings;
