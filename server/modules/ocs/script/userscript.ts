/**
 * The portal's own userscript (Tampermonkey / ScriptCat): select a question on any page, press Alt+Q
 * or the floating button, and the answer from /api/ocs/query appears in a small panel. A selection
 * holding several numbered questions, or the menu's 查询本页全部题目, goes to /api/ocs/query/batch in one
 * request. Each answer says where it came from and how sure it is, and can be reported as wrong in one
 * click (/api/ocs/report, with the same token). The script is generated per base URL so it talks to
 * (and updates from) the portal that served it.
 */
import { OCS_BATCH_MAX, USERSCRIPT_VERSION } from '@contract';
import { queryBatch, queryGet, report } from '@contract/api/ocs';

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
  var BATCH_URL = BASE + ${jsString(queryBatch.path)};
  var REPORT_URL = BASE + ${jsString(report.path)};
  var BATCH_MAX = ${OCS_BATCH_MAX};
  var TOKEN_KEY = 'portal_ocs_token';
  var SOURCES = { import: '题库', verified: '题库（已核实）', ai: 'AI', corrected: '题库（已纠错）', bank: '题库' };
  // A line that starts a numbered question: 1. / 1、 / (1) / 第1题.
  var QUESTION_START = /^(?:第\\s*\\d{1,3}\\s*题|\\d{1,3}\\s*[.、．:：)）](?!\\d)|[(（]\\s*\\d{1,3}\\s*[)）])/;
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
    '.item { border-top: 1px solid #eee; padding-top: 6px; margin-top: 6px; }',
    '.report { border: none; background: none; color: #d4380d; cursor: pointer; padding: 0; font-size: 12px; }',
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

  function clear() {
    while (content.firstChild) content.removeChild(content.firstChild);
    panel.hidden = false;
  }

  function show(parts) {
    clear();
    parts.forEach(function (p) { content.appendChild(el('div', p[0], p[1])); });
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

  function toQuestion(lines) {
    return { title: lines[0] || '', options: lines.slice(1).join('\\n') };
  }

  // One question (first line the title, the rest its options), or several when at least two lines
  // start a numbered question: each block is one question, and what comes before the first is dropped.
  function parseQuestions(text) {
    var lines = text.split(/\\r?\\n/).map(function (l) { return l.trim(); }).filter(Boolean);
    var starts = [];
    lines.forEach(function (l, i) { if (QUESTION_START.test(l)) starts.push(i); });
    if (starts.length < 2) return [toQuestion(lines)];
    return starts.map(function (from, k) { return toQuestion(lines.slice(from, k + 1 < starts.length ? starts[k + 1] : lines.length)); });
  }

  function describe(res) {
    var parts = [];
    if (res.source) {
      var s = String(res.source);
      parts.push('来源：' + (s.indexOf('upstream:') === 0 ? '上游题库 ' + s.slice(9) : SOURCES[s] || s));
    }
    if (typeof res.confidence === 'number') parts.push('置信度 ' + Math.round(res.confidence * 100) + '%');
    if (typeof res.cost === 'number') parts.push('消耗 ' + res.cost + ' 点');
    if (typeof res.balance === 'number') parts.push('余额 ' + res.balance + ' 点');
    return parts.join(' · ');
  }

  function post(url, token, body, done) {
    GM_xmlhttpRequest({
      method: 'POST',
      url: url,
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + token },
      data: JSON.stringify(body),
      timeout: 30000,
      onload: function (r) {
        var res = null;
        try { res = JSON.parse(r.responseText); } catch (e) { res = null; }
        if (r.status !== 200 || !res || typeof res !== 'object') {
          var detail = res && (res.errorMessage || res.msg);
          done('查询失败（HTTP ' + r.status + '）' + (detail ? '：' + detail : ''));
        } else {
          done(null, res);
        }
      },
      onerror: function () { done('网络错误：无法连接 ' + BASE + '。请检查网络，并在脚本管理器中允许本脚本访问该域名。'); },
      ontimeout: function () { done('请求超时，请稍后重试。'); }
    });
  }

  // 答案有误？ — one click, with an optional right answer; the server checks the answer was given to this token's user.
  function reportButton(token, res, box) {
    var button = el('button', 'report', '答案有误？');
    button.type = 'button';
    button.addEventListener('click', function () {
      var proposed = window.prompt('你认为正确的答案是？（可留空；选择题可写选项字母或选项原文，多个用 # 分隔）', '');
      if (proposed === null) return;
      button.disabled = true;
      button.textContent = '正在提交…';
      post(REPORT_URL, token, { queryId: res.queryId, proposed: proposed.trim() }, function (err, r) {
        button.textContent = err ? err : String(r.msg || (r.code === 1 ? '已提交' : '提交失败'));
        button.disabled = r && r.code === 1;
      });
    });
    box.appendChild(button);
  }

  // An answer of several pieces (options, blanks) comes as a JSON array: one piece a line.
  function answerLines(answer) {
    var text = String(answer);
    try {
      var list = JSON.parse(text);
      if (Array.isArray(list)) return list.map(String).join('\\n');
    } catch (e) {}
    return text;
  }

  function renderOne(box, q, res, token) {
    if (res.code === 1) {
      box.appendChild(el('div', 'q', String(res.question || q.title)));
      box.appendChild(el('div', 'a', answerLines(res.answer)));
      box.appendChild(el('div', 'meta', describe(res)));
      if (typeof res.queryId === 'number') reportButton(token, res, box);
    } else {
      box.appendChild(el('div', 'q', q.title));
      box.appendChild(el('div', 'err', String(res.msg || '没有找到答案')));
      var meta = describe(res);
      if (meta) box.appendChild(el('div', 'meta', meta));
    }
  }

  function ask(questions) {
    if (!questions.length || !questions[0].title) {
      show([['err', '请先用鼠标选中题目文字（可连同选项一起选中），再按 Alt+Q 或点击“题”按钮。']]);
      return;
    }
    var token = GM_getValue(TOKEN_KEY, '') || askToken();
    if (!token) {
      show([['q', questions[0].title], ['err', '还没有设置令牌，无法查询。请点击下方“设置令牌”。']]);
      return;
    }
    var mine = ++seq;
    if (questions.length === 1) {
      var q = questions[0];
      show([['q', q.title], ['meta', '正在查询…']]);
      post(QUERY_URL, token, { title: q.title, type: '', options: q.options }, function (err, res) {
        if (mine !== seq) return;
        if (err) return show([['q', q.title], ['err', err]]);
        clear();
        renderOne(content, q, res, token);
      });
      return;
    }
    var page = questions.slice(0, BATCH_MAX);
    var more = questions.length - page.length;
    show([['meta', '正在查询 ' + page.length + ' 道题…' + (more > 0 ? '（一次最多 ' + BATCH_MAX + ' 道，其余 ' + more + ' 道请分次查询）' : '')]]);
    var body = { questions: page.map(function (x) { return { title: x.title, type: '', options: x.options }; }) };
    post(BATCH_URL, token, body, function (err, res) {
      if (mine !== seq) return;
      if (err) return show([['err', err]]);
      if (res.code !== 1 || !res.results) return show([['err', String(res.msg || '查询失败')]]);
      clear();
      var found = res.results.filter(function (r) { return r && r.code === 1; }).length;
      content.appendChild(el('div', 'meta', '共 ' + page.length + ' 题，找到 ' + found + ' 题' + (more > 0 ? '；其余 ' + more + ' 道未查询' : '')));
      page.forEach(function (q, i) {
        var box = el('div', 'item');
        box.appendChild(el('div', 'meta', '第 ' + (i + 1) + ' 题'));
        renderOne(box, q, res.results[i] || { code: 0, msg: '没有结果' }, token);
        content.appendChild(box);
      });
    });
  }

  function run() {
    ask(parseQuestions(selectedText()));
  }

  function runPage() {
    var text = document.body ? document.body.innerText || document.body.textContent || '' : '';
    var questions = parseQuestions(text);
    if (questions.length < 2) {
      show([['err', '没有在本页识别到多道带题号的题目（如“1. …”）。可以选中题目后按 Alt+Q 查询。']]);
      return;
    }
    ask(questions);
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
  GM_registerMenuCommand('查询本页全部题目', runPage);
})();
`;
