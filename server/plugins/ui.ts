/**
 * Serves the built UI (dist/) and falls back to index.html for client-side routes.
 * Unknown /api paths get a JSON 404 envelope instead.
 *
 * Files are sent as the build precompressed them (file.br / file.gz beside file, scripts/precompress.mjs)
 * when the browser accepts it, with `Vary: Accept-Encoding`; hashed files are cached for a year, the
 * other static files (logo, default avatar) for an hour, index.html never without asking.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ShowType } from '@contract/endpoint';
import { isScriptOrStylesheet } from './external';

/**
 * The login page's first look, prerendered (scripts/prerender-login.tsx): index.html with the form's
 * static copy in it. It is the document for /user/login itself only, and not when the page opens on
 * another step (the second factor, a campus sign-in's error) than the form it holds.
 */
const PRERENDERED_FILE = 'login.html';
function sendsPrerenderedLogin(url: string): boolean {
  const [pathname, query = ''] = url.split('?', 2) as [string, string?];
  if (pathname !== '/user/login') return false;
  const params = new URLSearchParams(query);
  return !params.has('step') && !params.has('sso_error');
}

/** What scripts/precompress.mjs may have compressed. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|xml|map|ico)$/;

export default fp(async function ui(app: FastifyInstance, opts: { uiDir: string }) {
  const indexFile = path.join(opts.uiDir, 'index.html');
  const hasUi = fs.existsSync(indexFile);
  const hasPrerenderedLogin = fs.existsSync(path.join(opts.uiDir, PRERENDERED_FILE));
  if (hasUi) {
    await app.register(fastifyStatic, {
      root: opts.uiDir,
      wildcard: false,
      index: false,
      cacheControl: false, // set per file below
      preCompressed: true,
      // login.html is not a page of its own (at /login.html the app would start under it, hidden).
      allowedPath: (pathname, _root, request) =>
        pathname.replace(/^\//, '') !== PRERENDERED_FILE || sendsPrerenderedLogin(request.url),
      setHeaders(res, served) {
        const filePath = served.replace(/\.(br|gz)$/, '');
        if (COMPRESSIBLE.test(filePath)) res.setHeader('vary', 'Accept-Encoding');
        // Hashed bundles never change; index.html must always be revalidated.
        if (/\.[0-9a-f]{8}\.(js|css)$/.test(filePath) || /\.(async|chunk)\./.test(filePath)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        } else if (/\.html$/.test(filePath)) {
          res.setHeader('cache-control', 'no-cache');
        } else {
          // The logo and the default avatar: the login page asked for the logo up to three times
          // (icon, image, image again), each a full answer under no-cache. An hour of reuse is
          // harmless for files that change only with a new build.
          res.setHeader('cache-control', 'public, max-age=3600');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) {
      return reply.status(404).send({
        success: false,
        errorCode: 'NOT_FOUND',
        errorMessage: `接口不存在：${request.method} ${url.split('?')[0]}`,
        showType: ShowType.ERROR_MESSAGE,
      });
    }
    // A script or stylesheet that is not there (a chunk of an older build, say) is a 404: index.html
    // in its place would be run as a script, and is a document without its security headers.
    if ((request.method === 'GET' || request.method === 'HEAD') && hasUi && !isScriptOrStylesheet(url)) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile(hasPrerenderedLogin && sendsPrerenderedLogin(url) ? PRERENDERED_FILE : 'index.html', {
          cacheControl: false,
        });
    }
    return reply
      .status(404)
      .type('text/plain; charset=utf-8')
      .send(hasUi ? 'Not Found' : '前端尚未构建：请运行 npm start（会自动构建）或 npm run build');
  });
});
