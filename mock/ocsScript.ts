/**
 * Dev mocks of GET /api/ocs/script-info and of the script it links to (`npm run dev`), typed by
 * src/contract/ocsConfig.ts. The version and changelog are the real ones, so the download page shows
 * what the server would; the script is a stand-in with the real metadata (the server builds the real
 * one, server/modules/ocs/script/userscript.ts), so 安装脚本 leads to a script manager's install page.
 */
import { USERSCRIPT_CHANGELOG, USERSCRIPT_VERSION } from '../src/contract';
import * as ocsApi from '../src/contract/api/ocs';
import { defineMocks, on } from './_lib/endpoint';

export default defineMocks(
  on(ocsApi.userscript, (req, res) => {
    const baseUrl = `http://${req.headers?.host ?? 'localhost:8000'}`;
    const scriptUrl = `${baseUrl}${ocsApi.userscript.path}`;
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.send(
      [
        '// ==UserScript==',
        '// @name         Portal 题库助手（开发模拟）',
        `// @namespace    ${baseUrl}`,
        `// @version      ${USERSCRIPT_VERSION}`,
        '// @match        *://*/*',
        `// @downloadURL  ${scriptUrl}`,
        '// ==/UserScript==',
        "console.info('Portal 题库助手：这是开发模拟（npm run dev）提供的占位脚本，真实脚本由服务器生成。');",
        '',
      ].join('\n'),
    );
  }),
  on(ocsApi.scriptInfo, (req, res) => {
    const baseUrl = `http://${req.headers?.host ?? 'localhost:8000'}`;
    res.json({
      success: true,
      data: {
        baseUrl,
        version: USERSCRIPT_VERSION,
        changelog: USERSCRIPT_CHANGELOG,
        userscriptUrl: `${baseUrl}${ocsApi.userscript.path}`,
        subscriptionBase: `${baseUrl}${ocsApi.config.path}`,
      },
    });
  }),
);
