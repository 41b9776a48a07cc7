/**
 * An antd icon announces its English name ("plus", "download") unless told otherwise: beside a text
 * it turns 新建 into "plus 新建" for a screen reader. Every icon in the pages is either decorative
 * (aria-hidden) or named in Chinese (aria-label); an icon-only control names itself in Chinese.
 */
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../../src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.')) return []; // .umi*: generated
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

test('every antd icon in src/ is aria-hidden or has a Chinese aria-label', () => {
  const bad: string[] = [];
  for (const file of sources(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    // JSX uses of an icon component (<PlusOutlined ... />); its attributes up to the tag's end.
    for (const m of text.matchAll(/<([A-Z]\w*(?:Outlined|Filled|TwoTone))\b([^>]*)>/g)) {
      const attrs = m[2];
      const label = /aria-label="([^"]*)"/.exec(attrs)?.[1];
      if (/\baria-hidden\b/.test(attrs) || (label && /[\u4e00-\u9fff]/.test(label))) continue;
      const line = text.slice(0, m.index).split('\n').length;
      bad.push(`${path.relative(SRC, file)}:${line} <${m[1]}${attrs}>`);
    }
    // createElement(HomeOutlined, ...) the same.
    for (const m of text.matchAll(/createElement\(([A-Z]\w*(?:Outlined|Filled|TwoTone))\s*(?:,([^)]*))?\)/g)) {
      if (!/aria-hidden|aria-label/.test(m[2] ?? '')) bad.push(`${path.relative(SRC, file)}: createElement(${m[1]})`);
    }
  }
  expect(bad).toEqual([]);
});
