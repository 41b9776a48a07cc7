/**
 * Build step: the antd styles of the login page, written once as a stylesheet instead of being
 * generated in every visitor's browser.
 *
 * antd 5 makes each component's CSS at run time (CSS-in-JS) the first time the component renders:
 * about a third of the main thread's work before the login form shows. Here the same components
 * render in Node with the same theme, and @ant-design/cssinjs's `extractStyle` writes their CSS
 * together with its map of which style each one is (`.data-ant-cssinjs-cache-path`). In the browser
 * cssinjs reads that map first and skips generating and inserting any style listed in it; anything
 * not listed (another page's components, another theme) is still generated as before.
 *
 * `node --import tsx scripts/antd-styles.tsx [dist]` writes `antd.<hash>.css` into the built UI and
 * links it from index.html. `npm start` and `npm run build` run it after `max build`, before
 * precompressing. tests/e2e/budget.test.ts proves the login page then inserts no style of its own.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What a stylesheet link of ours looks like in index.html (one per build). */
const LINK = /<link rel="stylesheet" href="\/antd\.[0-9a-f]{8}\.css">\n?/g;

export function loginStyles(): string {
  // Loaded here, once NODE_ENV is set: @ant-design/cssinjs fixes the prefix of the class names it
  // hashes (css-… in production, css-dev-only-… otherwise) when it loads.
  process.env.NODE_ENV = 'production';
  const { createElement: h } = require('react') as typeof import('react');
  const { renderToString } = require('react-dom/server') as typeof import('react-dom/server');
  const cssinjs = require('@ant-design/cssinjs') as typeof import('@ant-design/cssinjs');
  const antd = require('antd') as typeof import('antd');
  const icons = require('@ant-design/icons') as typeof import('@ant-design/icons');
  const zhCN = (require('antd/locale/zh_CN') as typeof import('antd/locale/zh_CN')).default;
  const { antdTheme } = require('../config/defaultSettings') as typeof import('../config/defaultSettings');
  const { Button, Checkbox, ConfigProvider, Form, Input } = antd;
  const cache = cssinjs.createCache();
  // The components src/pages/user/login shows at first, with the ConfigProvider src/app.tsx gives
  // every page (its locale and theme). A change there that changes a style makes the budget test fail
  // until it is made here too. Left out: the Alert of a failed sign-in (its style is made when it
  // first shows; 1 KiB less for every first visit).
  renderToString(
    h(
      cssinjs.StyleProvider,
      { cache },
      h(
        ConfigProvider,
        { locale: zhCN, theme: antdTheme },
        h(
          Form,
          { name: 'login', size: 'large' },
          h(Form.Item, { name: 'username' }, h(Input, { prefix: h(icons.UserOutlined) })),
          h(Form.Item, { name: 'password' }, h(Input.Password, { prefix: h(icons.LockOutlined) })),
          h(Form.Item, { name: 'remember', noStyle: true }, h(Checkbox, null, '-')),
          h(Button, { type: 'primary', htmlType: 'submit', block: true }, '-'),
        ),
      ),
    ),
  );
  return cssinjs.extractStyle(cache, { plain: true, types: ['style'] });
}

/**
 * Writes `content` into `uiDir` as `<stem>.<8 hex of its hash>.<ext>` (cached for a year, as the
 * bundles are), removing any earlier one of the same stem and its compressed copies; returns the name.
 */
export function writeHashedFile(uiDir: string, stem: string, ext: string, content: string): string {
  const name = `${stem}.${crypto.createHash('sha256').update(content).digest('hex').slice(0, 8)}.${ext}`;
  const earlier = new RegExp(`^${stem}\\.[0-9a-f]{8}\\.${ext}`);
  for (const old of fs.readdirSync(uiDir).filter((f) => earlier.test(f))) fs.rmSync(path.join(uiDir, old));
  fs.writeFileSync(path.join(uiDir, name), content);
  return name;
}

/** Writes the stylesheet into `uiDir` and links it first in index.html (antd's styles come first). */
export async function writeLoginStyles(uiDir: string): Promise<string> {
  const name = writeHashedFile(uiDir, 'antd', 'css', loginStyles());
  const indexFile = path.join(uiDir, 'index.html');
  const html = fs.readFileSync(indexFile, 'utf8').replace(LINK, '');
  const at = html.indexOf('<link rel="stylesheet"');
  const pos = at >= 0 ? at : html.indexOf('</head>');
  if (pos < 0) throw new Error(`${indexFile}: no <head> to link the antd styles from`);
  fs.writeFileSync(indexFile, `${html.slice(0, pos)}<link rel="stylesheet" href="/${name}">\n${html.slice(pos)}`);
  return name;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const uiDir = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'dist'));
  writeLoginStyles(uiDir).then(
    (name) => console.log(`[antd-styles] ${name}: the login page's antd styles, prebuilt`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
