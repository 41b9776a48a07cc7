/**
 * Build step: the login page's first look as HTML (`login.html` beside index.html), so that a first
 * visit shows the form as soon as the document and its stylesheets are in, before any script has run.
 *
 * The page itself (src/pages/user/login) renders here in Node, with `prerendering` set, inside the
 * same ConfigProvider as in the browser (scripts/antd-styles.tsx holds the same), so its markup and
 * class names are those the app renders. What the page takes from Umi comes from
 * scripts/prerender/umiShim.ts. The result goes into a copy of index.html:
 * - the markup in `<div id="prerendered">` just before `#root`, and a rule hiding `#root` while it is
 *   there (the app starts inside it unseen);
 * - the icons' stylesheet in the head, marked as @ant-design/icons marks it, so the app finds it there
 *   and does not add it again.
 * When the app's login page mounts it takes the static copy's place in the same frame, with what was
 * typed into it (src/prerendered.ts). server/plugins/ui.ts sends login.html for /user/login only.
 *
 * `node --import tsx scripts/prerender-login.tsx [dist]`; `npm start` and `npm run build` run it after
 * scripts/antd-styles.tsx (login.html links the same stylesheets as index.html), before precompressing.
 */
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { PRERENDERED_ID, SUBMITTED_ATTRIBUTE } from '../src/prerendered';
import { writeHashedFile } from './antd-styles';

const PRERENDERED_FILE = 'login.html';
const ROOT = '<div id="root"></div>';
const APP_SCRIPT = /<script src="(\/umi\.[0-9a-f]{8}\.js)"><\/script>\n?/;

/**
 * login.html's last script, in place of umi.js's own tag: umi.js starts once the static form has been
 * painted. As a plain tag, an umi.js already downloaded ran right after the markup was parsed, and the
 * first frame (the form) waited for its ~100 ms. `<link rel="preload">` still fetches it from the start.
 * A hidden tab paints no frame (requestAnimationFrame waits for it to show): there a timer starts it.
 * Until the app has started, a press of the static 登录 (or Enter in a field) is noted on the copy
 * (SUBMITTED_ATTRIBUTE), and the login page sends the form as soon as it takes over (src/prerendered.ts).
 */
export const START_AFTER_PAINT = `(function () {
  var app = document.currentScript.getAttribute('data-app');
  var copy = document.getElementById('${PRERENDERED_ID}');
  if (copy) {
    var submitted = function () {
      copy.setAttribute('${SUBMITTED_ATTRIBUTE}', '');
    };
    copy.addEventListener('click', function (event) {
      if (event.target.closest('button')) submitted();
    });
    copy.addEventListener('keydown', function (event) {
      if (event.key === 'Enter' && event.target.tagName === 'INPUT' && event.target.type !== 'checkbox') submitted();
    });
  }
  var started = false;
  function start() {
    if (started) return;
    started = true;
    var script = document.createElement('script');
    script.src = app;
    document.body.appendChild(script);
  }
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 500);
})();
`;

/** The login page's markup as src/pages/user/login renders it first, with `prerendering` set. */
export function renderLoginMarkup(): string {
  // Before React and cssinjs load: production class names (css-…) and React's production build.
  process.env.NODE_ENV = 'production';
  const shim = path.join(__dirname, 'prerender', 'umiShim.ts');
  const resolve = (Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string })
    ._resolveFilename;
  (Module as unknown as { _resolveFilename: typeof resolve })._resolveFilename = function (request, ...rest) {
    return request === '@umijs/max' ? shim : resolve.call(this, request, ...rest);
  };
  try {
    const { createElement: h } = require('react') as typeof import('react');
    const { renderToString } = require('react-dom/server') as typeof import('react-dom/server');
    const { MemoryRouter } = require('react-router-dom') as typeof import('react-router-dom');
    const { ConfigProvider } = require('antd') as typeof import('antd');
    const cssinjs = require('@ant-design/cssinjs') as typeof import('@ant-design/cssinjs');
    const zhCN = (require('antd/locale/zh_CN') as typeof import('antd/locale/zh_CN')).default;
    const { antdTheme } = require('../config/defaultSettings') as typeof import('../config/defaultSettings');
    const LoginPage = (require('../src/pages/user/login') as typeof import('../src/pages/user/login')).default;
    return renderToString(
      // Its own style cache: the styles made here are not wanted (antd.css holds them).
      h(
        cssinjs.StyleProvider,
        { cache: cssinjs.createCache() },
        h(
          ConfigProvider,
          { locale: zhCN, theme: antdTheme },
          h(MemoryRouter, { initialEntries: ['/user/login'] }, h(LoginPage, { prerendering: true })),
        ),
      ),
    );
  } finally {
    (Module as unknown as { _resolveFilename: typeof resolve })._resolveFilename = resolve;
  }
}

/**
 * index.html with the static copy of the login page in it (see the top of this file); `starter` is
 * the path of START_AFTER_PAINT's file.
 */
export function prerenderedLoginHtml(indexHtml: string, markup: string, iconStyles: string, starter: string): string {
  const head = indexHtml.indexOf('</head>');
  if (head < 0) throw new Error('index.html: no </head>');
  if (indexHtml.split(ROOT).length !== 2) throw new Error(`index.html: not exactly one ${ROOT}`);
  const app = APP_SCRIPT.exec(indexHtml);
  if (!app) throw new Error('index.html: no umi.js script tag');
  const extra =
    `<link rel="preload" as="script" href="${app[1]}">\n` +
    `<style data-rc-order="prepend" rc-util-key="@ant-design-icons">${iconStyles}</style>\n` +
    `<style>#${PRERENDERED_ID}~#root{display:none}</style>\n`;
  return (indexHtml.slice(0, head) + extra + indexHtml.slice(head))
    .replace(APP_SCRIPT, `<script src="${starter}" data-app="${app[1]}"></script>\n`)
    .replace(ROOT, `<div id="${PRERENDERED_ID}">${markup}</div>\n${ROOT}`);
}

/** Writes login.html, and the script that starts the app from it, into `uiDir` from its index.html. */
export function writePrerenderedLogin(uiDir: string): string {
  const markup = renderLoginMarkup();
  const { iconStyles } = require('@ant-design/icons/lib/utils') as { iconStyles: string };
  const indexHtml = fs.readFileSync(path.join(uiDir, 'index.html'), 'utf8');
  const starter = writeHashedFile(uiDir, 'start', 'js', START_AFTER_PAINT);
  const file = path.join(uiDir, PRERENDERED_FILE);
  fs.writeFileSync(file, prerenderedLoginHtml(indexHtml, markup, iconStyles, `/${starter}`));
  return file;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  try {
    const file = writePrerenderedLogin(path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'dist')));
    console.log(`[prerender-login] ${path.basename(file)}: the login page's first look, prerendered`);
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
}
