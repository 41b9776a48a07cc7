/**
 * Stands in for `resize-observer-polyfill` (rc-resize-observer, under antd's Form, Input and most
 * components; ahooks): the polyfill hands back the browser's own ResizeObserver whenever there is one,
 * and every browser of `targets` (.umirc.ts) has one, so its 33 KiB of source were never run.
 * Only the browser build uses this (.umirc.ts chainWebpack): the UI tests' jsdom has no ResizeObserver
 * and keeps the polyfill.
 */
export default globalThis.ResizeObserver;
