/**
 * NJIT end to end: an njit user searches by pinyin and sees a masked phone; a user without njit
 * gets the 403 page and no data; the administrator's 到期清除 tab holds at 375 px (no sideways scroll,
 * axe-core clean); the administrator corrects a student by hand and a later roster import, shown as a
 * diff with the manual edit flagged, keeps the correction; the administrator hides 学院 from njit on the
 * field policy page and an njit user no longer sees it, nor a 学院 input in the search form. The first roster is imported through the API.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { BASE, launch, loginAt, newPage, snap, withPage } from './browser';

let browser: Browser;
let adminCookie = '';
const suffix = `${process.pid}${Date.now() % 100000}`;
const PASSWORD = 'njit-e2e-password';

async function api(path: string, init: { method?: string; cookie?: string; json?: unknown; body?: FormData } = {}) {
  const res = await fetch(`${BASE()}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.json ? { 'content-type': 'application/json' } : {}),
    },
    body: init.json ? JSON.stringify(init.json) : init.body,
  });
  return res;
}

/** WCAG 2.1 AA violations on the page, as `rule: targets` lines. */
async function axeViolations(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode(true)
    .analyze();
  return axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

beforeAll(async () => {
  browser = await launch();
  const login = await api('/api/user/login', {
    method: 'POST',
    json: { username: 'admin', password: process.env.E2E_ADMIN_PASSWORD },
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  adminCookie = cookie;
  const uid = ((await login.json()) as { data: { uid: number } }).data.uid;
  expect(
    (await api(`/api/user/admin/users/${uid}`, { method: 'PATCH', cookie, json: { roles: ['admin', 'njit'] } })).status,
  ).toBe(200);
  for (const [name, roles] of [
    [`njit_${suffix}`, ['njit']],
    [`plain_${suffix}`, []],
  ] as const) {
    const res = await api('/api/user/admin/users', {
      method: 'POST',
      cookie,
      json: { username: name, password: PASSWORD, roles },
    });
    expect(res.status).toBe(200);
  }
  const csv =
    '学号,姓名,性别,学院,手机号\r\n202101010001,张三,男,计算机工程学院,13812341234\r\n202101010002,李四,女,计算机工程学院,15011112222\r\n';
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'e2e.csv');
  const up = await api('/api/njit/imports', { method: 'POST', cookie, body: form });
  expect(up.status).toBe(200);
  const { importId } = ((await up.json()) as { data: { importId: string } }).data;
  expect((await api(`/api/njit/imports/${importId}/commit`, { method: 'POST', cookie, json: {} })).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
});

/** The njit user signs in, searches 张三 by pinyin and waits for the masked phone; the page's text. */
async function searchZhangsan(page: Page): Promise<string> {
  await loginAt(page, `njit_${suffix}`, PASSWORD, '/njit/queryStuInfo');
  await page.getByPlaceholder('张三 / zhangsan / zs').fill('zhangsan');
  await page.getByRole('button', { name: /查\s*询/ }).click();
  // Masked (a later test's roster import changes the number, not its shape).
  await page
    .getByText(/^1[3-9]\d\*{4}\d{4}$/)
    .first()
    .waitFor();
  return page.locator('body').innerText();
}

test('an njit user searches by pinyin and sees the masked phone, never the full one', async () => {
  await withPage(browser, 'njit-search', async (page) => {
    const body = await searchZhangsan(page);
    expect(body).toContain('张三');
    expect(body).not.toContain('13812341234');
    expect(body).not.toContain('李四');
  });
});

test('a user without njit gets the 403 page and no data', async () => {
  await withPage(browser, 'njit-forbidden', async (page) => {
    const responses: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/njit/')) responses.push(r.status());
    });
    await loginAt(page, `plain_${suffix}`, PASSWORD, '/home');
    await page.goto(`${BASE()}/njit/queryStuInfo`);
    await page.getByText('抱歉，你无权访问该页面。').waitFor();
    const body = await page.locator('body').innerText();
    expect(body).not.toContain('张三');
    expect(responses.every((s) => s === 403)).toBe(true);
    const direct = await page.evaluate(async () => (await fetch('/api/njit/students?name=zs')).status);
    expect(direct).toBe(403);
  });
});

test("the administrator's 到期清除 tab at 375 px: no sideways scroll, axe-core clean", async () => {
  const { context, page } = await newPage(browser, 375);
  try {
    await loginAt(page, 'admin', process.env.E2E_ADMIN_PASSWORD!, '/njit/queryStuInfo');
    await page.getByRole('tab', { name: '到期清除' }).click();
    await page.getByText('到期待清除的学生').waitFor();
    await page.getByRole('button', { name: /立即清除/ }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    expect(await axeViolations(page)).toEqual([]);
  } catch (err) {
    const file = await snap(page, 'njit-retention-phone').catch(() => 'no screenshot');
    throw new Error(`${(err as Error).message}\n(screenshot: ${file})`);
  } finally {
    await context.close();
  }
});

test('a correction by hand survives the next roster import: the diff flags it and the default keeps it', async () => {
  const { context, page } = await newPage(browser, 375);
  try {
    const found = await api('/api/njit/students?studentNo=202101010002&studentNoMode=exact', { cookie: adminCookie });
    const li = ((await found.json()) as { data: { id: number }[] }).data[0]!;
    await loginAt(page, 'admin', process.env.E2E_ADMIN_PASSWORD!, `/njit/queryStuInfo?student=${li.id}`);
    await page.getByRole('button', { name: /编\s*辑/ }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '编辑 李四' });
    await dialog.getByLabel('学院').fill('信息工程学院');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByRole('button', { name: '确认修改' }).click();
    await page.locator('.ant-drawer').getByText('手动修改').waitFor();
    await page.locator('.ant-drawer-close').click();

    // The next roster still says 计算机工程学院 for 李四, and changes 张三's phone.
    await page.getByRole('tab', { name: '名单导入' }).click();
    const csv =
      '学号,姓名,性别,学院,手机号\r\n202101010001,张三,男,计算机工程学院,13900002222\r\n202101010002,李四,女,计算机工程学院,15011112222\r\n';
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'e2e-2.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByText('与现有数据对比').waitFor();
    await page.getByText('名单将改动 1 个手动修改过的字段').waitFor();
    const perField = page.getByRole('radiogroup', { name: '李四的学院' });
    await perField.waitFor();
    expect(await perField.getByRole('radio', { name: '保留手动修改' }).isChecked()).toBe(true);
    // The phone change is shown masked, never in full.
    await page.getByText('139****2222').waitFor();
    expect(await page.locator('body').innerText()).not.toContain('13900002222');
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: /确认导入 2 行/ }).click();
    await page.getByText('导入完成').waitFor();
    await page.getByText(/保留手动修改 1 项/).waitFor();
    const after = await api(`/api/njit/students/${li.id}`, { cookie: adminCookie });
    const data = ((await after.json()) as { data: { college: string; manualEdits: { field: string }[] } }).data;
    expect(data.college).toBe('信息工程学院');
    expect(data.manualEdits.map((e) => e.field)).toEqual(['college']);
  } catch (err) {
    const file = await snap(page, 'njit-edit-import').catch(() => 'no screenshot');
    throw new Error(`${(err as Error).message}\n(screenshot: ${file})`);
  } finally {
    await context.close();
  }
});

test('the administrator hides 学院 from njit on the field policy page (375 px, axe clean), and an njit user no longer sees it', async () => {
  const { context, page } = await newPage(browser, 375);
  try {
    await loginAt(page, 'admin', process.env.E2E_ADMIN_PASSWORD!, '/njit/fieldPolicy');
    const cell = page.getByRole('combobox', { name: 'NJIT：学院' });
    await cell.waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    // The page's own content: the header's bell badge (antd's white on red) is the shell's, and shows
    // only once this run's sign-ins have left notifications.
    const axe = await new AxeBuilder({ page })
      .include('.ant-pro-page-container')
      .options({ resultTypes: ['violations'] })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .setLegacyMode(true)
      .analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`)).toEqual([]);
    // By keyboard: open the cell's choices, move to 隐藏, take it.
    await cell.focus();
    await page.keyboard.press('Enter');
    await page.locator('.ant-select-item-option[title="隐藏"]').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: '保存字段策略' }).click();
    await page
      .locator('.ant-popover')
      .getByRole('button', { name: /保\s*存/ })
      .click();
    await page.getByText('字段策略已保存，立即生效').waitFor();
  } catch (err) {
    const file = await snap(page, 'njit-field-policy-phone').catch(() => 'no screenshot');
    throw new Error(`${(err as Error).message}\n(screenshot: ${file})`);
  } finally {
    await context.close();
  }
  try {
    await withPage(browser, 'njit-hidden-field', async (page) => {
      const body = await searchZhangsan(page);
      expect(body).toContain('张三');
      expect(body).not.toContain('计算机工程学院');
      // The search form offers no 学院 criterion once it knows the user's policy; 学号 stays.
      await page.waitForFunction(() => {
        const labels = [...document.querySelectorAll('.ant-pro-table-search .ant-form-item-label label')].map(
          (l) => l.textContent,
        );
        return labels.includes('学号') && !labels.includes('学院');
      });
      expect(await page.locator('.ant-pro-table-search #college').count()).toBe(0);
      const direct = await page.evaluate(async () => (await fetch('/api/njit/students?name=zs')).json());
      expect(direct.data[0]).not.toHaveProperty('college');
    });
  } finally {
    // Back to the defaults for whatever runs next on this server.
    const policy = (await (await api('/api/njit/policy', { cookie: adminCookie })).json()) as {
      data: { roles: { role: string; fields: Record<string, string> }[] };
    };
    const roles = policy.data.roles.map((r) =>
      r.role === 'njit' ? { ...r, fields: { ...r.fields, college: 'full' } } : r,
    );
    expect((await api('/api/njit/policy', { method: 'PUT', cookie: adminCookie, json: { roles } })).status).toBe(200);
  }
});
