/**
 * scripts/antd-styles.tsx, the build step that writes the login page's antd styles as a stylesheet:
 * it writes one file named by its content, with cssinjs's map of the styles it holds, and links it
 * once, first among the stylesheets, however often the step runs. (That the browser then makes none
 * of them is tests/e2e/budget.test.ts's.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeLoginStyles } from '../../scripts/antd-styles';

const INDEX =
  '<!DOCTYPE html>\n<html>\n<head>\n<title>门户</title>\n<link rel="stylesheet" href="/umi.1a2b3c4d.css">\n' +
  '</head>\n<body><div id="root"></div></body>\n</html>';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-antd-styles-'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('writes the styles of the login form with their map and links them first, once', async () => {
  const name = await writeLoginStyles(dir);
  expect(name).toMatch(/^antd\.[0-9a-f]{8}\.css$/);
  const css = fs.readFileSync(path.join(dir, name), 'utf8');
  // Production class names (no dev-only prefix), for each component of the form.
  expect(css).not.toContain('dev-only');
  for (const cls of ['ant-form', 'ant-input', 'ant-checkbox', 'ant-btn', 'ant-row', 'ant-col']) {
    expect(css).toContain(cls);
  }
  const map = /\.data-ant-cssinjs-cache-path\{content:"([^"]+)";\}/.exec(css);
  expect(map).not.toBeNull();
  expect(map![1]).toMatch(/Button-Button\|ant-btn/);
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  expect(html.indexOf(`<link rel="stylesheet" href="/${name}">`)).toBeGreaterThan(0);
  expect(html.indexOf(`/${name}`)).toBeLessThan(html.indexOf('/umi.1a2b3c4d.css'));

  // Again: the same file, still one link.
  expect(await writeLoginStyles(dir)).toBe(name);
  const again = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  expect(again.match(/antd\.[0-9a-f]{8}\.css/g)).toEqual([name]);
  expect(fs.readdirSync(dir).filter((f) => f.startsWith('antd.'))).toEqual([name]);
});

test('replaces the stylesheet of an earlier build', async () => {
  fs.writeFileSync(path.join(dir, 'antd.00000000.css'), 'old');
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    INDEX.replace('<link', '<link rel="stylesheet" href="/antd.00000000.css">\n<link'),
  );
  const name = await writeLoginStyles(dir);
  expect(fs.existsSync(path.join(dir, 'antd.00000000.css'))).toBe(false);
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  expect(html).not.toContain('antd.00000000.css');
  expect(html.match(/antd\.[0-9a-f]{8}\.css/g)).toEqual([name]);
});

test('an index.html without a head is an error, not a page without its styles', async () => {
  fs.writeFileSync(path.join(dir, 'index.html'), '<div id="root"></div>');
  await expect(writeLoginStyles(dir)).rejects.toThrow(/no <head>/);
});
