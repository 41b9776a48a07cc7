/**
 * A Umi plugin (.umirc.ts `plugins`) for what Umi's config cannot say about index.html: the page's
 * language, so screen readers speak Chinese and browsers do not offer to translate it.
 */
import type { IApi } from '@umijs/max';

export default (api: IApi) => {
  api.modifyHTML(($) => {
    $('html').attr('lang', 'zh-CN');
    return $;
  });
};
