/**
 * scripts/prerender-login.tsx, the build step that writes login.html: the login page's first look as
 * HTML inside a copy of index.html, and the script that starts the app once that has been painted.
 * The page really renders, in a process of its own as in the build (that the app then takes the
 * static copy's place in the browser is tests/e2e/auth.test.ts's).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prerenderedLoginHtml, START_AFTER_PAINT } from '../../scripts/prerender-login';

const INDEX =
  '<!DOCTYPE html>\n<html>\n<head>\n<title>门户</title>\n<link rel="stylesheet" href="/umi.1a2b3c4d.css">\n' +
  '<script src="/preload_helper.5e6f7a8b.js"></script>\n</head>\n<body>\n<div id="root"></div>\n' +
  '<script src="/umi.9c8d7e6f.js"></script>\n</body>\n</html>';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-prerender-'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const runStep = () =>
  spawnSync(process.execPath, ['--import', 'tsx', path.resolve('scripts/prerender-login.tsx'), dir], {
    encoding: 'utf8',
  });

test('writes login.html: the login form as the page renders it, before the hidden app root', () => {
  const run = runStep();
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const html = fs.readFileSync(path.join(dir, 'login.html'), 'utf8');
  const copy = html.slice(html.indexOf('<div id="prerendered">'), html.indexOf('<div id="root"></div>'));
  // The form itself, with antd's production class names (those of antd.css) and the page's texts.
  expect(copy).toContain('<form id="login" class="ant-form');
  expect(copy).toMatch(/<input autoComplete="username"[^>]*placeholder="用户名"|<input[^>]*autoComplete="username"/);
  expect(copy).toMatch(/<input[^>]*autoComplete="current-password"[^>]*type="password"/);
  // The browser focuses the username as soon as the copy is parsed (the app hands that focus on).
  expect(copy).toMatch(/<input[^>]*autoComplete="username"[^>]*autofocus=""/);
  expect(copy).toContain('记住我（30 天）');
  expect(copy).toContain('href="/user/forgotPassword"');
  expect(copy).toMatch(/ css-[a-z0-9]+/);
  expect(copy).not.toContain('dev-only');
  // Its button sends nothing (a form sent without the app would put the password in the URL) and turns.
  expect(copy).not.toContain('type="submit"');
  expect(copy).toMatch(/<button type="button" class="[^"]*ant-btn-loading/);
  // The app's root is hidden while the copy is there; the icons' styles are in the head, marked as
  // @ant-design/icons marks them.
  expect(html).toContain('<style>#prerendered~#root{display:none}</style>');
  expect(html).toMatch(
    /<head>[\s\S]*<style data-rc-order="prepend" rc-util-key="@ant-design-icons">[\s\S]*\.anticon \{/,
  );
  expect(html.indexOf('rc-util-key')).toBeLessThan(html.indexOf('</head>'));
  // umi.js is fetched from the start and run by the starter, which is the only script tag left for it.
  expect(html).toContain('<link rel="preload" as="script" href="/umi.9c8d7e6f.js">');
  expect(html).not.toContain('<script src="/umi.9c8d7e6f.js">');
  const starter = /<script src="\/(start\.[0-9a-f]{8}\.js)" data-app="\/umi\.9c8d7e6f\.js"><\/script>/.exec(html);
  expect(starter).not.toBeNull();
  expect(fs.readFileSync(path.join(dir, starter![1]), 'utf8')).toBe(START_AFTER_PAINT);
  expect(html).toContain('<script src="/preload_helper.5e6f7a8b.js"></script>');
  // index.html itself is left as it was.
  expect(fs.readFileSync(path.join(dir, 'index.html'), 'utf8')).toBe(INDEX);

  // Again: the same files, one starter.
  expect(runStep().status).toBe(0);
  expect(fs.readFileSync(path.join(dir, 'login.html'), 'utf8')).toBe(html);
  expect(fs.readdirSync(dir).filter((f) => f.startsWith('start.'))).toEqual([starter![1]]);
});

test('an index.html without the app root or the umi.js tag is refused', () => {
  expect(() => prerenderedLoginHtml(INDEX.replace('<div id="root"></div>', ''), '<form></form>', '', '/s.js')).toThrow(
    /not exactly one <div id="root"><\/div>/,
  );
  expect(() =>
    prerenderedLoginHtml(INDEX.replace('<script src="/umi.9c8d7e6f.js"></script>', ''), '<form></form>', '', '/s.js'),
  ).toThrow(/no umi\.js script tag/);
  expect(() => prerenderedLoginHtml(INDEX.replace('</head>', ''), '<form></form>', '', '/s.js')).toThrow(/no <\/head>/);
});
