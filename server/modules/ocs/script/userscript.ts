/**
 * The portal's own userscript (Tampermonkey / ScriptCat): select a question on any page, press Alt+Q
 * or the floating button, and the answer from /api/ocs/query appears in a small panel. The script is
 * generated per base URL so it talks to (and updates from) the portal that served it.
 */
import { USERSCRIPT_VERSION } from '@contract';
import { queryGet } from '@contract/api/ocs';

/** A JSON string literal that is also valid JavaScript in every engine (U+2028/2029 ended strings before ES2019). */
function jsString(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Metadata values live in `//` comments: a line terminator would end the comment and start code. */
function metaValue(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).hostname;
  } catch {
    return baseUrl.replace(/^[a-z]+:\/\//i, '').split(/[/:?#]/)[0] ?? '';
  }
}

export function buildUserscript(baseUrl: string): string {
  const scriptUrl = `${baseUrl}/api/ocs/userscript.user.js`;
  const meta = [
    ['name', 'Portal 题库助手'],
    ['namespace', baseUrl],
    ['version', USERSCRIPT_VERSION],
    ['description', '选中网页上的题目，按 Alt+Q 或点击悬浮按钮，从 Portal 题库查询答案'],
    ['author', 'Portal'],
    ['match', '*://*/*'],
    ['grant', 'GM_xmlhttpRequest'],
    ['grant', 'GM_getValue'],
    ['grant', 'GM_setValue'],
    ['grant', 'GM_registerMenuCommand'],
    ['connect', hostOf(baseUrl)],
    ['updateURL', scriptUrl],
    ['downloadURL', scriptUrl],
    ['run-at', 'document-idle'],
    ['noframes', ''],
  ]
    .map(([key, value]) => `// @${key.padEnd(12)} ${metaValue(value)}`.trimEnd())
    .join('\n');
  return `// ==UserScript==\n${meta}\n// ==/UserScript==\n${body(jsString(baseUrl))}`;
}

// Plain ES2018 with no dependencies: it runs in whatever browser the student has. Everything the
// page or the server supplies is rendered with textContent.
const body = (base: string) => `
/* global GM_xmlhttpRequest, GM_getValue, GM_setValue, GM_registerMenuCommand */
(function () {
  'use strict';
  var BASE = ${base};
  var QUERY_URL = BASE + ${jsString(queryGet.path)};
  var TOKEN_KEY = 'portal_ocs_token';
  var SOURCES = { bank: '题库', ai: 'AI' };
  var CSS = [
    ':host { all: initial; }',
    '.fab { position: fixed; right: 18px; bottom: 18px; z-index: 2147483647; width: 40px; height: 40px; border-radius: 20px;',
    '  border: none; background: #1677ff; color: #fff; font: bold 16px/40px sans-serif; cursor: pointer; box-shadow: 0 2px 8px rgba(0,0,0,.3); }',
    '.panel { position: fixed; right: 18px; bottom: 66px; z-index: 2147483647; width: 320px; max-height: 60vh; overflow: auto;',
    '  background: #fff; color: #222; border-radius: 8px; box-shadow: 0 4px 16px rgba(0,0,0,.25); font: 14px/1.6 sans-serif; padding: 12px; box-sizing: border-box; }',
    '.head { display: flex; justify-content: space-between; align-items: center; font-weight: bold; margin-bottom: 8px; }',
    '.close { border: none; background: none; font-size: 18px; cursor: pointer; color: #888; }',
    '.q { color: #666; white-space: pre-wrap; word-break: break-all; margin-bottom: 6px; }',
    '.a { font-weight: bold; white-space: pre-wrap; word-break: break-all; }',
    '.err { color: #d4380d; white-space: pre-wrap; }',
    '.meta { color: #888; font-size: 12px; margin-top: 6px; }',
    '.link { border: none; background: none; color: #1677ff; cursor: pointer; padding: 0; margin-top: 8px; font-size: 12px; }',
    '[hidden] { display: none !important; }'
  ].join('\\n');

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  var host = el('div');
  host.setAttribute('data-portal-ocs', '');
  // Inline !important beats page rules such as "body > div { display: none }" aimed at the host.
  host.setAttribute('style', 'all: initial !important; display: block !important;');
  var root = host.attachShadow({ mode: 'open' });
  root.appendChild(el('style', '', CSS));
  var fab = el('button', 'fab', '题');
  fab.type = 'button';
  fab.title = '查询选中的题目（Alt+Q）';
  var panel = el('div', 'panel');
  panel.hidden = true;
  var head = el('div', 'head');
  head.appendChild(el('span', '', 'Portal 题库'));
  var close = el('button', 'close', '×');
  close.type = 'button';
  close.title = '关闭';
  head.appendChild(close);
  var content = el('div');
  var setToken = el('button', 'link', '设置令牌');
  setToken.type = 'button';
  panel.appendChild(head);
  panel.appendChild(content);
  panel.appendChild(setToken);
  root.appendChild(panel);
  root.appendChild(fab);
  (document.body || document.documentElement).appendChild(host);

  var seq = 0;

  function show(parts) {
    while (content.firstChild) content.removeChild(content.firstChild);
    parts.forEach(function (p) { content.appendChild(el('div', p[0], p[1])); });
    panel.hidden = false;
  }

  function hide() {
    seq++; // a late answer must not reopen a panel the user closed
    panel.hidden = true;
  }

  function askToken() {
    var current = GM_getValue(TOKEN_KEY, '') || '';
    var value = window.prompt('请输入 Portal 的 OCS 令牌（pt_ 开头，权限 ocs:query）。\\n没有令牌？在 ' + BASE + '/OCS/tokenGen 生成。', current);
    if (value === null) return current;
    value = value.trim();
    GM_setValue(TOKEN_KEY, value);
    return value;
  }

  function selectedText() {
    var active = document.activeElement;
    if (active && (active.tagName === 'TEXTAREA' || active.tagName === 'INPUT') && typeof active.selectionStart === 'number') {
      var picked = String(active.value || '').slice(active.selectionStart, active.selectionEnd);
      if (picked.trim()) return picked;
    }
    return String(window.getSelection ? window.getSelection() : '');
  }

  function parseQuestion(text) {
    var lines = text.split(/\\r?\\n/).map(function (l) { return l.trim(); }).filter(Boolean);
    return { title: lines[0] || '', options: lines.slice(1).join('\\n') };
  }

  function describe(res) {
    var parts = [];
    if (res.source) parts.push('来源：' + (SOURCES[res.source] || res.source));
    if (typeof res.cost === 'number') parts.push('消耗 ' + res.cost + ' 点');
    if (typeof res.balance === 'number') parts.push('余额 ' + res.balance + ' 点');
    return parts.join(' · ');
  }

  function onAnswer(q, status, text) {
    var res = null;
    try { res = JSON.parse(text); } catch (e) { res = null; }
    if (status !== 200 || !res || typeof res !== 'object') {
      var detail = res && (res.errorMessage || res.msg);
      show([['q', q.title], ['err', '查询失败（HTTP ' + status + '）' + (detail ? '：' + detail : '')]]);
      return;
    }
    if (res.code === 1) {
      show([['q', String(res.question || q.title)], ['a', String(res.answer)], ['meta', describe(res)]]);
    } else {
      show([['q', q.title], ['err', String(res.msg || '没有找到答案')], ['meta', describe(res)]]);
    }
  }

  function run() {
    var q = parseQuestion(selectedText());
    if (!q.title) {
      show([['err', '请先用鼠标选中题目文字（可连同选项一起选中），再按 Alt+Q 或点击“题”按钮。']]);
      return;
    }
    var token = GM_getValue(TOKEN_KEY, '') || askToken();
    if (!token) {
      show([['q', q.title], ['err', '还没有设置令牌，无法查询。请点击下方“设置令牌”。']]);
      return;
    }
    var mine = ++seq;
    show([['q', q.title], ['meta', '正在查询…']]);
    GM_xmlhttpRequest({
      method: 'POST',
      url: QUERY_URL,
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + token },
      data: JSON.stringify({ title: q.title, type: '', options: q.options }),
      timeout: 30000,
      onload: function (r) { if (mine === seq) onAnswer(q, r.status, r.responseText); },
      onerror: function () {
        if (mine === seq) show([['q', q.title], ['err', '网络错误：无法连接 ' + BASE + '。请检查网络，并在脚本管理器中允许本脚本访问该域名。']]);
      },
      ontimeout: function () {
        if (mine === seq) show([['q', q.title], ['err', '请求超时，请稍后重试。']]);
      }
    });
  }

  // Keep the page's text selection when the button is pressed.
  fab.addEventListener('mousedown', function (e) { e.preventDefault(); });
  fab.addEventListener('click', run);
  close.addEventListener('click', hide);
  setToken.addEventListener('click', function () {
    var token = askToken();
    show([['meta', token ? '令牌已保存。' : '令牌已清除。']]);
  });
  window.addEventListener('keydown', function (e) {
    if (e.altKey && !e.ctrlKey && !e.metaKey && (e.code === 'KeyQ' || (e.key && e.key.toLowerCase() === 'q'))) {
      e.preventDefault();
      run();
    } else if (e.key === 'Escape' && !panel.hidden) {
      hide();
    }
  }, true);
  GM_registerMenuCommand('设置令牌', askToken);
})();
`;
