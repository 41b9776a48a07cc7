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
    // Placeholders (a select's shows as text): rgba(0,0,0,0.25) was 1.8:1; 0.55 is 4.7:1 and still
    // lighter than a value.
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    // Error texts (a form field's message, a danger link): #ff4d4f was 3.3:1; red-7 is 5.6:1.
    colorError: '#cf1322',
    // Success and warning texts and tags (color="success" / "warning"): #52c41a and #faad14 were 2.2:1 and
    // 1.9:1 on their pale backgrounds; green-8 and orange-8 are 5.4:1 and 5.1:1.
    colorSuccess: '#237804',
    colorWarning: '#ad4e00',
    // The text shade of the preset tag colours (color="green", "orange", …), drawn on their lightest
    // shade: antd's 7th shades were 2.5–4.4:1 there; these are 4.5:1 or more.
    green7: '#237804',
    orange7: '#ad4e00',
    gold7: '#874d00',
    volcano7: '#ad2102',
    cyan7: '#006d75',
    lime7: '#3f6600',
    yellow7: '#876800',
    // A loading button keeps 90% of its colours (65% made white on the primary blue 3.1:1).
    opacityLoading: 0.9,
  },
};

/** No colorPrimary: the layout takes the antd theme's, which is the user's choice (components/preferences/). */
const defaultSettings: ProLayoutProps & { logo: string } = {
  navTheme: 'light',
  layout: 'mix',
  contentWidth: 'Fluid',
  fixedHeader: true,
  fixSiderbar: true,
  splitMenus: false,
  title: FULL_TITLE,
  logo: '/logo.svg',
};

export default defaultSettings;
