/** The only Umi config (config/config.ts would be ignored). */
import path from 'node:path';
import { defineConfig } from '@umijs/max';
import defaultSettings from './config/defaultSettings';
import proxy from './config/proxy';
import routes from './config/routes';

export default defineConfig({
  npmClient: 'npm',
  base: '/',
  publicPath: '/',
  hash: true,
  // Umi's esbuild minifier can give two async chunks clashing helper names; wrapping each in an IIFE avoids it.
  esbuildMinifyIIFE: true,
  // Browsers from 2022 on, which run antd, React and our code natively.
  targets: { chrome: 100, edge: 100, firefox: 100, safari: 15 },
  // No core-js: nothing here uses a built-in these browsers lack (checked: src uses flatMap and
  // Object.fromEntries at most), and `core-js/stable` cost 132 KiB of umi.js for features such as
  // structuredClone that no code calls. Nor regenerator-runtime, which Umi's polyfill step adds even
  // with no core-js: nothing reads the global it sets (checked in the built chunks; the babel helpers
  // of Umi's own code carry their own copy).
  polyfill: false,
  // No react-helmet-async (its provider wrapped every page; nothing here sets the head through it).
  // With regenerator-runtime above: 26 KB of umi.js.
  helmet: false,
  title: defaultSettings.title as string,
  favicons: ['/logo.svg'],
  // In place of Umi's default viewport, which forbids zooming (user-scalable=no, maximum-scale=1):
  // people who need larger text must be able to pinch.
  metas: [{ name: 'viewport', content: 'width=device-width, initial-scale=1' }],
  // The signed-in user's dark mode before the first paint (public/theme-boot.js; a file, not inline: the
  // CSP allows only the site's own scripts).
  headScripts: [{ src: '/theme-boot.js' }],
  // <html lang="zh-CN">
  plugins: [require.resolve('./config/htmlPlugin')],
  // The ConfigProvider itself is filled at run time (src/app.tsx `antd`): antd's Chinese locale.
  antd: { configProvider: {} },
  access: {},
  model: {},
  initialState: { loading: '@/components/PageLoading' },
  request: {},
  layout: { title: defaultSettings.title, locale: false },
  routes,
  // The layout plugin imports menu icons from its own older @ant-design/icons (4.x, with lodash);
  // pointing it at the app's 5.x leaves one icon runtime in umi.js instead of two.
  alias: {
    [path.resolve(__dirname, 'node_modules/@umijs/plugins/node_modules/@ant-design/icons')]: path.resolve(
      __dirname,
      'node_modules/@ant-design/icons',
    ),
    // Umi's antd plugin imports lodash/merge for one call (see src/shims/lodashMerge.ts): not in umi.js.
    [`${path.resolve(__dirname, 'node_modules/lodash/merge')}$`]: path.resolve(__dirname, 'src/shims/lodashMerge.ts'),
  },
  // mock/ answers in `max dev`; MOCK=none switches it off and proxies to the real server.
  proxy: process.env.MOCK === 'none' ? proxy : {},
  // mock/_lib holds helpers shared by the mock files, not mocks.
  mock: { exclude: ['mock/_lib/**'] },
  // `ANALYZE=1 npm run build` writes bench/out/bundle-report.html (what each chunk holds).
  analyze: {
    analyzerMode: 'static',
    openAnalyzer: false,
    reportFilename: '../bench/out/bundle-report.html',
    generateStatsFile: true,
    statsFilename: '../bench/out/bundle-stats.json',
  },
  chainWebpack(config) {
    // Umi provides a global Buffer polyfill (47 KiB in umi.js) for Node-style code; only axios's
    // toFormData mentions Buffer, on a path browsers never take (they have Blob).
    config.plugin('node-polyfill-provider').tap(([provide]) => [{ process: provide.process }]);
    // The request plugin imports @ahooksjs/use-request for its useRequest, which nothing here calls
    // (pages use ahooks' own; one that called it would bring the package back). The package does not say it is free
    // of side effects, so webpack kept it (and lodash.debounce and .throttle) in umi.js.
    config.module
      .rule('unused-use-request')
      .test(/[\\/]@ahooksjs[\\/]use-request[\\/]/)
      .sideEffects(false);
    // The browser build only (not in `alias`, which the UI tests' jsdom shares: it has no ResizeObserver
    // and keeps the polyfill). See src/shims/resizeObserver.ts.
    config.resolve.alias.set('resize-observer-polyfill$', path.resolve(__dirname, 'src/shims/resizeObserver.ts'));
    // Slow links: give a page chunk 120 s before webpack reports ChunkLoadError.
    config.output.chunkLoadTimeout(120000);
  },
});
