/**
 * User administration end to end, as an administrator: create a user; that user logs in and creates a token;
 * the administrator disables the user; the user's session and token stop working at once.
 */
import type { Browser } from 'playwright-core';
import { BASE, checkSurely, clickSurely, launch, loginAt, newPage, snap } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

async function tokenWorks(token: string): Promise<number> {
  const res = await fetch(`${BASE()}/api/token/check?scope=ums:send`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return res.status;
}

test('admin creates a user, the user makes a token, admin disables the user, session and token stop', async () => {
  const admin = await newPage(browser);
  const user = await newPage(browser);
  const username = `staff_${process.pid}`;
  const password = 'staff-password-1';
  try {
    // 1. The administrator creates the user.
    await loginAt(admin.page, 'admin', process.env.E2E_ADMIN_PASSWORD!, '/user/admin/createUser');
    await admin.page.getByLabel('用户名').fill(username);
    await admin.page.getByLabel('初始密码', { exact: true }).fill(password);
    await admin.page.getByLabel('昵称').fill('职员');
    await admin.page.getByRole('button', { name: /创建用户/ }).click();
    await admin.page.getByText(`用户 ${username} 已创建`).waitFor();

    // 2. The user logs in and generates a ums:send token, shown once.
    await loginAt(user.page, username, password, '/user/tokenGen');
    await checkSurely(user.page.getByLabel('UMS 消息推送'));
    await user.page.getByLabel('令牌名称').fill('e2e 脚本');
    await checkSurely(user.page.getByLabel('UMS 消息推送')); // still checked (a no-op when it is)
    await user.page.getByRole('button', { name: /生成令牌/ }).click();
    await user.page.getByText('只显示这一次').first().waitFor();
    const token = /pt_[A-Za-z0-9_-]{32}/.exec(await user.page.locator('body').innerText())?.[0];
    expect(token).toBeDefined();
    expect(await tokenWorks(token!)).toBe(200);

    // 3. The administrator disables the user, confirming what it does.
    const list = await admin.page.request.get(`${BASE()}/api/user/admin/users?keyword=${username}`);
    const uid = (await list.json()).data[0].uid as number;
    await admin.page.goto(`${BASE()}/user/admin/editUser?uid=${uid}`);
    await admin.page.getByLabel('账号状态').click();
    await admin.page.getByRole('button', { name: /保\s*存/ }).click();
    // The confirm dialog, with what disabling does (the form's own help text says it too).
    const dialog = admin.page.getByRole('dialog').filter({ hasText: `停用用户 ${username}` });
    await dialog.getByText('停用后会立即结束该用户的所有登录会话').waitFor();
    const saved = admin.page.waitForResponse(
      (r) => r.url().includes(`/api/user/admin/users/${uid}`) && r.request().method() === 'PATCH',
    );
    await clickSurely(dialog.getByRole('button', { name: /停用并保存/ }), () =>
      dialog.waitFor({ state: 'hidden', timeout: 5_000 }),
    );
    expect((await saved).status()).toBe(200);

    // 4. The user's session and token stop working.
    expect(await tokenWorks(token!)).toBe(401);
    const me = await user.page.request.get(`${BASE()}/api/user/me`);
    expect(me.status()).toBe(401);
    // The page they were on (/user/tokenGen) is for logged-in users: a reload lands on the login page.
    await user.page.reload();
    await user.page.waitForURL(/\/user\/login\?redirect=%2Fuser%2FtokenGen/);
    await user.page.getByLabel('用户名').waitFor();
  } catch (err) {
    await snap(admin.page, 'user-admin-admin').catch(() => undefined);
    await snap(user.page, 'user-admin-user').catch(() => undefined);
    throw err;
  } finally {
    await admin.context.close();
    await user.context.close();
  }
});
