// Decides whether the built UI is stale: a hash of every UI source file is written beside the build.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const INPUTS = [
  '.umirc.ts',
  'config',
  'src',
  'public',
  'package-lock.json',
  'tsconfig.json',
  'scripts/antd-styles.tsx',
  'scripts/prerender-login.tsx',
  'scripts/prerender',
];
const SKIP = /(^|\/)(\.umi[^/]*|node_modules)(\/|$)/;

function walk(root, rel, out) {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs) || SKIP.test(rel)) return;
  const stat = fs.statSync(abs);
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) walk(root, path.join(rel, name), out);
  } else {
    out.push(rel);
  }
}

export function sourceHash(root) {
  const files = [];
  for (const input of INPUTS) walk(root, input, files);
  const h = crypto.createHash('sha256');
  for (const f of files) {
    h.update(f);
    h.update('\0');
    h.update(fs.readFileSync(path.join(root, f)));
    h.update('\0');
  }
  return h.digest('hex');
}

export function uiBuildState(root, uiDir) {
  const hash = sourceHash(root);
  if (!fs.existsSync(path.join(uiDir, 'index.html'))) return { stale: true, reason: 'is not built', hash };
  let stamp = '';
  try {
    stamp = fs.readFileSync(path.join(uiDir, '.build-stamp'), 'utf8').trim();
  } catch {
    /* no stamp: built by hand */
  }
  if (stamp !== hash) return { stale: true, reason: 'is older than its sources', hash };
  return { stale: false, reason: 'is up to date', hash };
}

export function writeBuildStamp(root, uiDir, hash = sourceHash(root)) {
  fs.writeFileSync(path.join(uiDir, '.build-stamp'), `${hash}\n`);
}
