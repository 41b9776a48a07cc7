#!/usr/bin/env node
// Writes file.br (brotli, quality 11) and file.gz (gzip -9) beside every compressible file of the
// built UI, so the server sends them as they are (@fastify/static preCompressed) instead of
// compressing on every request or not at all. `npm run build` and `npm start` run it after `max build`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|xml|map|ico)$/;
/** Smaller files gain little and cost a round of encoding negotiation. */
const MIN_BYTES = 1024;

export function precompress(dir) {
  let files = 0;
  let raw = 0;
  let br = 0;
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const file = path.join(d, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (COMPRESSIBLE.test(entry.name)) {
        const body = fs.readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        const brotli = zlib.brotliCompressSync(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        });
        fs.writeFileSync(`${file}.br`, brotli);
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
        files++;
        raw += body.length;
        br += brotli.length;
      }
    }
  };
  walk(dir);
  return { files, raw, br };
}

// Run as a script (not when imported: by start.mjs, or by the tests, which compile this file without import.meta.url).
const self = import.meta.url ? fileURLToPath(import.meta.url) : undefined;
if (self && process.argv[1] === self) {
  const root = path.resolve(path.dirname(self), '..');
  const dir = path.resolve(root, process.argv[2] || process.env.UI_DIR || 'dist');
  const t0 = Date.now();
  const r = precompress(dir);
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(`[precompress] ${r.files} files, ${kib(r.raw)} -> ${kib(r.br)} brotli, in ${Date.now() - t0} ms`);
}
