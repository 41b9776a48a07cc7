/** The only Umi config (config/config.ts would be ignored). */
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
  // Browsers from 2022 on: keeps core-js polyfills out of the first download.
  targets: { chrome: 100, edge: 100, firefox: 100, safari: 15 },
  // Stable features only: the default `core-js` entry also ships every TC39 proposal.
  polyfill: { imports: ['core-js/stable'] },
  title: defaultSettings.title as string,
  favicons: ['/logo.svg'],
  // The ConfigProvider itself is filled at run time (src/app.tsx `antd`): antd's Chinese locale.
  antd: { configProvider: {} },
  access: {},
  model: {},
  initialState: { loading: '@/components/PageLoading' },
  request: {},
  layout: { title: defaultSettings.title, locale: false },
  routes,
  // mock/ answers in `max dev`; MOCK=none switches it off and proxies to the real server.
  proxy: process.env.MOCK === 'none' ? proxy : {},
  // mock/_lib holds helpers shared by the mock files, not mocks.
  mock: { exclude: ['mock/_lib/**'] },
  chainWebpack(config) {
    // Slow links: give a page chunk 120 s before webpack reports ChunkLoadError.
    config.output.chunkLoadTimeout(120000);
  },
});
