/**
 * @jest-environment jsdom
 *
 * The generated userscript run in a page, with the script manager's GM_* functions stubbed.
 */
/// <reference lib="dom" />
import vm from 'node:vm';
import { buildUserscript } from '../../../server/modules/ocs/script/userscript';

interface GmRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  data: string;
  onload(r: { status: number; responseText: string }): void;
  onerror(): void;
  ontimeout(): void;
}

const store = new Map<string, unknown>();
const requests: GmRequest[] = [];
const menu: Record<string, () => void> = {};
const g = globalThis as unknown as Record<string, unknown>;

function install(baseUrl: string) {
  document.body.innerHTML =
    '<pre id="q">  1+1 等于几？\nA. 1\n\nB. 2  </pre><textarea id="t">填空：中国的首都是____</textarea>';
  store.clear();
  requests.length = 0;
  g.GM_getValue = (k: string, d: unknown) => (store.has(k) ? store.get(k) : d);
  g.GM_setValue = (k: string, v: unknown) => store.set(k, v);
  g.GM_registerMenuCommand = (name: string, fn: () => void) => (menu[name] = fn);
  g.GM_xmlhttpRequest = (r: GmRequest) => requests.push(r);
  window.prompt = jest.fn(() => ' pt_secret ');
  window.alert = jest.fn();
  (0, eval)(buildUserscript(baseUrl));
  return document.querySelector('[data-portal-ocs]')!.shadowRoot!;
}

function select(id: string) {
  const range = document.createRange();
  range.selectNodeContents(document.getElementById(id)!);
  const sel = window.getSelection()!;
  sel.removeAllRanges();
  sel.addRange(range);
}

const altQ = () =>
  window.dispatchEvent(new KeyboardEvent('keydown', { altKey: true, code: 'KeyQ', key: 'q', bubbles: true }));
const panel = (root: ShadowRoot) => root.querySelector('.panel') as HTMLElement;

// Each test installs a fresh copy; the previous copy's window listeners must not answer too.
const listeners: [string, EventListenerOrEventListenerObject, boolean | AddEventListenerOptions | undefined][] = [];
const addEventListener = window.addEventListener.bind(window);
window.addEventListener = ((
  type: string,
  fn: EventListenerOrEventListenerObject,
  opts?: boolean | AddEventListenerOptions,
) => {
  listeners.push([type, fn, opts]);
  addEventListener(type, fn, opts);
}) as typeof window.addEventListener;
afterEach(() => {
  document.querySelector('[data-portal-ocs]')?.remove();
  for (const [type, fn, opts] of listeners.splice(0)) window.removeEventListener(type, fn, opts);
});

test('Alt+Q asks for the token once, posts the selected question and shows the answer as text', () => {
  const root = install('https://portal.example.edu');
  expect(panel(root).hidden).toBe(true);
  select('q');
  altQ();
  expect(window.prompt).toHaveBeenCalledTimes(1);
  expect(requests).toHaveLength(1);
  const r = requests[0];
  expect(r.method).toBe('POST');
  expect(r.url).toBe('https://portal.example.edu/api/ocs/query');
  expect(r.headers.Authorization).toBe('Bearer pt_secret');
  expect(JSON.parse(r.data)).toEqual({ title: '1+1 等于几？', type: '', options: 'A. 1\nB. 2' });
  expect(panel(root).textContent).toContain('正在查询');

  r.onload({
    status: 200,
    responseText: JSON.stringify({
      code: 1,
      question: '1+1 等于几？',
      answer: '<img src=x onerror=alert(1)>2',
      source: 'ai',
      cost: 2,
      balance: 98,
    }),
  });
  const text = panel(root).textContent!;
  expect(text).toContain('<img src=x onerror=alert(1)>2');
  expect(text).toContain('来源：AI · 消耗 2 点 · 余额 98 点');
  expect(root.querySelector('img')).toBeNull();
  expect(panel(root).hidden).toBe(false);

  // The token is remembered; the floating button queries the same way.
  select('q');
  (root.querySelector('.fab') as HTMLButtonElement).click();
  expect(window.prompt).toHaveBeenCalledTimes(1);
  requests[1].onload({ status: 200, responseText: JSON.stringify({ code: 0, msg: '余额不足，请先充值' }) });
  expect(panel(root).textContent).toContain('余额不足，请先充值');

  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
  expect(panel(root).hidden).toBe(true);
});

test('an answer of several pieces (a JSON array) shows one piece a line, `#` and `;` kept', () => {
  const root = install('https://portal.example.edu');
  select('q');
  altQ();
  requests[0].onload({
    status: 200,
    responseText: JSON.stringify({
      code: 1,
      question: 'q',
      answer: '["B. int a; int b;","C#"]',
      source: 'import',
      cost: 1,
      balance: 9,
    }),
  });
  const a = root.querySelector('.a') as HTMLElement;
  expect(a.textContent).toBe('B. int a; int b;\nC#');
});

test('network errors, timeouts, HTTP errors and an empty selection are explained in Chinese', () => {
  const root = install('https://portal.example.edu');
  window.getSelection()!.removeAllRanges();
  altQ();
  expect(requests).toHaveLength(0);
  expect(panel(root).textContent).toContain('请先用鼠标选中题目文字');

  select('q');
  altQ();
  requests[0].onerror();
  expect(panel(root).textContent).toContain('网络错误：无法连接 https://portal.example.edu');
  altQ();
  requests[1].ontimeout();
  expect(panel(root).textContent).toContain('请求超时');
  altQ();
  requests[2].onload({ status: 502, responseText: '<html>Bad Gateway</html>' });
  expect(panel(root).textContent).toContain('查询失败（HTTP 502）');
});

test('the 设置令牌 menu command changes the stored token; text selected in a textarea counts', () => {
  install('https://portal.example.edu');
  expect(Object.keys(menu)).toContain('设置令牌');
  (window.prompt as jest.Mock).mockReturnValue('pt_other');
  menu['设置令牌']();
  const t = document.getElementById('t') as HTMLTextAreaElement;
  t.focus();
  t.setSelectionRange(0, t.value.length);
  altQ();
  expect(requests[0].headers.Authorization).toBe('Bearer pt_other');
  expect(JSON.parse(requests[0].data).title).toBe('填空：中国的首都是____');
});

test('a hostile base URL stays a string: no injected metadata, no code run', () => {
  const hostile = 'https://evil.example/"+alert(1)+"\u2028</script>\n// @grant unsafeWindow\n*/alert(2)//';
  const text = buildUserscript(hostile);
  expect(() => new vm.Script(text)).not.toThrow();
  expect(text).not.toMatch(/^\/\/ @grant\s+unsafeWindow/m);
  const metaBlock = text.slice(0, text.indexOf('// ==/UserScript==')).trimEnd();
  expect(metaBlock.split('\n').every((line) => line.startsWith('// '))).toBe(true);
  const root = install(hostile);
  expect(window.alert).not.toHaveBeenCalled();
  select('q');
  altQ();
  expect(requests[0].url).toBe(`${hostile}/api/ocs/query`);
  requests[0].onerror();
  expect(panel(root).textContent).toContain(hostile);
  expect(window.alert).not.toHaveBeenCalled();
});

test('several numbered questions in the selection go in one batch request; each answer shows its source and confidence', () => {
  const root = install('https://portal.example.edu');
  document.body.insertAdjacentHTML(
    'afterbegin',
    '<pre id="page">第一章 测验\n1. 中国的首都是？\nA. 上海\nB. 北京\n2、水的化学式是____\n(3) 地球是圆的。</pre>',
  );
  select('page');
  altQ();
  expect(requests).toHaveLength(1);
  expect(requests[0].url).toBe('https://portal.example.edu/api/ocs/query/batch');
  expect(JSON.parse(requests[0].data)).toEqual({
    questions: [
      { title: '1. 中国的首都是？', type: '', options: 'A. 上海\nB. 北京' },
      { title: '2、水的化学式是____', type: '', options: '' },
      { title: '(3) 地球是圆的。', type: '', options: '' },
    ],
  });
  requests[0].onload({
    status: 200,
    responseText: JSON.stringify({
      code: 1,
      results: [
        {
          code: 1,
          question: '中国的首都是？',
          answer: '北京',
          source: 'verified',
          confidence: 0.98,
          cost: 1,
          balance: 9,
          queryId: 7,
        },
        { code: 0, msg: '题库中未找到该题' },
        {
          code: 1,
          question: '地球是圆的',
          answer: '正确',
          source: 'upstream:示例题库',
          confidence: 0.8,
          cost: 2,
          balance: 7,
          queryId: 8,
        },
      ],
    }),
  });
  const text = panel(root).textContent!;
  expect(text).toContain('共 3 题，找到 2 题');
  expect(text).toContain('来源：题库（已核实） · 置信度 98% · 消耗 1 点 · 余额 9 点');
  expect(text).toContain('题库中未找到该题');
  expect(text).toContain('来源：上游题库 示例题库 · 置信度 80%');
  expect(root.querySelectorAll('.report')).toHaveLength(2);
});

test('答案有误？ sends a report with the answer id, the proposed answer and the same token', () => {
  const root = install('https://portal.example.edu');
  select('q');
  altQ();
  requests[0].onload({
    status: 200,
    responseText: JSON.stringify({
      code: 1,
      question: '1+1 等于几？',
      answer: '1',
      source: 'ai',
      confidence: 0.7,
      cost: 2,
      balance: 8,
      queryId: 41,
    }),
  });
  (window.prompt as jest.Mock).mockReturnValue(' B ');
  (root.querySelector('.report') as HTMLButtonElement).click();
  expect(requests).toHaveLength(2);
  expect(requests[1].url).toBe('https://portal.example.edu/api/ocs/report');
  expect(requests[1].headers.Authorization).toBe('Bearer pt_secret');
  expect(JSON.parse(requests[1].data)).toEqual({ queryId: 41, proposed: 'B' });
  requests[1].onload({
    status: 200,
    responseText: JSON.stringify({ code: 1, msg: '已收到反馈，管理员审核后会更正题库' }),
  });
  expect((root.querySelector('.report') as HTMLButtonElement).textContent).toBe('已收到反馈，管理员审核后会更正题库');
  expect((root.querySelector('.report') as HTMLButtonElement).disabled).toBe(true);
});

test('查询本页全部题目 reads the numbered questions of the page, at most 100 in one request', () => {
  install('https://portal.example.edu');
  document.body.insertAdjacentHTML(
    'beforeend',
    `<div id="exam">${Array.from({ length: 105 }, (_, i) => `<p>${i + 1}. 第${i + 1}道题目？</p><p>A. 对</p><p>B. 错</p>`).join('\n')}</div>`,
  );
  // jsdom has no layout, so innerText is not there: the script falls back to textContent.
  Object.defineProperty(document.body, 'innerText', {
    configurable: true,
    get: () => Array.from({ length: 105 }, (_, i) => `${i + 1}. 第${i + 1}道题目？\nA. 对\nB. 错`).join('\n'),
  });
  menu['查询本页全部题目']();
  expect(requests).toHaveLength(1);
  const body = JSON.parse(requests[0].data);
  expect(body.questions).toHaveLength(100);
  expect(body.questions[99]).toEqual({ title: '100. 第100道题目？', type: '', options: 'A. 对\nB. 错' });
  delete (document.body as unknown as Record<string, unknown>).innerText;
});
