/**
 * Issues 4 and 5 end to end: the administrator imports a question; a new user claims the daily free
 * points, creates an ocs:query token, carries it to the config page, and the "test" button answers
 * the sample question through the live API (1 point charged); the bill shows the claim and the charge.
 * Then the user reports a wrong answer from the ask page, the administrator accepts the correction
 * in the review queue, and the user's bill shows the refund.
 */
import type { Browser } from 'playwright-core';
import { BASE, checkSurely, launch, loginAt, withPage } from './browser';

let browser: Browser;
const suffix = `${process.pid}${Date.now() % 100000}`;
const USER = `ocs_${suffix}`;
const PASSWORD = 'ocs-e2e-password';

async function api(path: string, init: { method?: string; cookie?: string; json?: unknown; body?: FormData } = {}) {
  return fetch(`${BASE()}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.json ? { 'content-type': 'application/json' } : {}),
    },
    body: init.json ? JSON.stringify(init.json) : init.body,
  });
}

beforeAll(async () => {
  browser = await launch();
  const login = await api('/api/user/login', {
    method: 'POST',
    json: { username: 'admin', password: process.env.E2E_ADMIN_PASSWORD },
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  expect(
    (
      await api('/api/user/admin/users', {
        method: 'POST',
        cookie,
        json: { username: USER, password: PASSWORD, roles: [] },
      })
    ).status,
  ).toBe(200);
  const bank = JSON.stringify([
    {
      title: '中华人民共和国的首都是哪座城市？',
      type: 'single',
      options: ['北京', '上海', '广州', '深圳'],
      answer: 'A',
    },
    // Wrong on purpose: a user reports it, an administrator corrects it.
    { title: '太阳系中离太阳最近的行星是？', type: 'single', options: ['金星', '水星', '火星'], answer: 'A' },
  ]);
  const form = new FormData();
  form.append('file', new Blob([bank], { type: 'application/json' }), 'e2e-bank.json');
  const up = await api('/api/ocs/admin/bank/imports', { method: 'POST', cookie, body: form });
  expect(up.status).toBe(200);
  const { id } = ((await up.json()) as { data: { id: string } }).data;
  expect((await api(`/api/ocs/admin/bank/imports/${id}/commit`, { method: 'POST', cookie, json: {} })).status).toBe(
    200,
  );
  // The commit runs in the background: poll its job until done.
  for (let i = 0; i < 100; i++) {
    const job = (
      (await (await api(`/api/ocs/admin/bank/imports/${id}`, { cookie })).json()) as { data: { status: string } }
    ).data;
    if (job.status === 'done') return;
    expect(job.status).toBe('running');
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error('import did not finish');
});
afterAll(async () => {
  await browser?.close();
});

test('claim free points, make a token, generate the config and test it against the live API', async () => {
  await withPage(browser, 'ocs-flow', async (page) => {
    await loginAt(page, USER, PASSWORD, '/OCS/freeChange');
    await page.getByRole('button', { name: /领取 10 积分/ }).click();
    await page.getByRole('button', { name: /今日已领取 10 积分/ }).waitFor();

    await page.goto(`${BASE()}/OCS/tokenGen`);
    await page.getByLabel('令牌名称').fill('e2e 脚本');
    await page.getByRole('button', { name: /生成令牌/ }).click();
    await page.getByRole('button', { name: /用此令牌生成配置/ }).click();
    await page.waitForURL(/\/OCS\/configGen/);
    await page.getByText('"contentType": "json"').first().waitFor();
    expect(await page.locator('body').innerText()).toMatch(/pt_[A-Za-z0-9_-]+/);

    await page.getByRole('button', { name: /测试配置/ }).click();
    await page.getByText('配置可用：查到了答案').waitFor();
    expect(await page.getByTestId('ocs-answer-pieces').innerText()).toContain('A. 北京');

    await page.goto(`${BASE()}/OCS/bill`);
    await page.getByText('免费领取').first().waitFor();
    const bills = await page.locator('body').innerText();
    expect(bills).toContain('扣费');
    expect(bills).toContain('9');
  });
});

test('a wrong answer reported from the ask page is corrected in the review queue, and the reporter refunded', async () => {
  await withPage(browser, 'ocs-report', async (page) => {
    await loginAt(page, USER, PASSWORD, '/OCS/askQuestion');
    await page.getByLabel('题目').fill('太阳系中离太阳最近的行星是？');
    await page.getByRole('button', { name: '粘贴多行选项' }).click();
    await page.getByLabel('粘贴选项').fill('A. 金星\nB. 水星\nC. 火星');
    await page.getByRole('button', { name: '替换为这些选项' }).click();
    await page.getByRole('button', { name: /查询答案/ }).click();
    const card = page.getByTestId('ask-result');
    await card.getByText('金星').first().waitFor();
    await card.getByRole('button', { name: /答案有误/ }).click();
    const dialog = page.getByRole('dialog');
    await checkSurely(dialog.getByLabel('B. 水星'));
    await dialog.getByLabel('说明（可选）').fill('水星离太阳最近');
    await dialog.getByRole('button', { name: '提交反馈' }).click();
    await page.getByText(/已提交反馈/).waitFor();
  });
  await withPage(browser, 'ocs-review', async (page) => {
    await loginAt(page, 'admin', process.env.E2E_ADMIN_PASSWORD!, '/OCS/OCSAdmin/reviews');
    const row = page.locator('tr', { hasText: '太阳系中离太阳最近的行星是？' });
    await row.getByText('审核').click();
    const drawer = page.locator('.ant-drawer');
    await drawer.getByText('水星离太阳最近').waitFor();
    expect(await drawer.getByLabel('B. 水星').isChecked()).toBe(true);
    await drawer.getByLabel('处理说明').fill('天文常识');
    await drawer.getByRole('button', { name: '采纳并更正' }).click();
    await page
      .locator('.ant-popconfirm')
      .getByRole('button', { name: /采\s*纳/ })
      .click();
    await page.getByText(/已给 1 位反馈者退还 1 积分/).waitFor();
  });
  await withPage(browser, 'ocs-refund', async (page) => {
    await loginAt(page, USER, PASSWORD, '/OCS/bill');
    await page.getByText('答案纠错退款：太阳系中离太阳最近的行星是？').waitFor();
    await page.goto(`${BASE()}/OCS/askQuestion`);
    await page.locator('tr', { hasText: '太阳系中离太阳最近的行星是？' }).getByText('已采纳').waitFor();
  });
});
