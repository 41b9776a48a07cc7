/**
 * Umi gives folder names under src/ a meaning of their own: a page folder called `models` is loaded
 * as global models on every page (that is how an admin page once ended up in every visitor's umi.js,
 * with its API calls and console errors). No folder under src/pages may take such a name.
 */
import fs from 'node:fs';
import path from 'node:path';

const RESERVED = new Set(['models', 'locales', 'layouts', 'wrappers']);

function folders(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => {
      const full = path.join(dir, e.name);
      return [full, ...folders(full)];
    });
}

test('no page folder is named after a Umi convention', () => {
  const pages = path.join(__dirname, '../../../src/pages');
  const clashes = folders(pages)
    .filter((f) => RESERVED.has(path.basename(f)))
    .map((f) => path.relative(pages, f));
  expect(clashes).toEqual([]);
});

test('the check sees the folders it must see', () => {
  const pages = path.join(__dirname, '../../../src/pages');
  expect(folders(pages).map((f) => path.relative(pages, f))).toContain(path.join('OCS', 'OCSAdmin', 'aiModels'));
});
