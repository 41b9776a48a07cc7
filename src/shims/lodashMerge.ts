/**
 * Stands in for `lodash/merge` in Umi's generated antd plugin (src/.umi/plugin-antd/runtime.tsx), whose
 * only use is `setAntdConfig` (deep-merging a ConfigProvider change into the current one). lodash's
 * merge and its helpers were 16 KB of umi.js, loaded by every first visit; rc-util's deep merge
 * is already there for antd. One difference: rc-util replaces arrays where lodash merged them index by
 * index, which is what a ConfigProvider change means (theme.algorithm: [dark, compact]).
 */
export { merge as default } from 'rc-util/es/utils/set';
