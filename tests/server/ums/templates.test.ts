/**
 * Message templates: CRUD per user with {{variables}} listed, names unique per user, and sending with
 * `template` + `vars` from the UI's endpoint and the token API (vars as JSON in a query); a missing
 * variable or template is refused by name with nothing queued.
 */
import { loggedInClient } from '../helpers';
import { addChannel, message, messageCount, startKindsRig, type KindsRig } from './helpers';

let rig: KindsRig;
beforeAll(async () => {
  rig = await startKindsRig();
});
afterAll(async () => {
  await rig.close();
});

let n = 0;
async function user() {
  const { client, uid } = await loggedInClient(rig.ctx);
  n += 1;
  const key = `tpl${process.pid}-${n}`;
  await addChannel(client, { kind: 'wecom', name: 'w', webhook: rig.wecom.robot(key) });
  return { client, uid, key };
}
const count = (uid: number) => messageCount(rig, uid);

test('create, list with variables, rename, delete; names are unique per user', async () => {
  const u = await user();
  const created = await u.client.post('/api/ums/templates', {
    name: '构建结果',
    title: '{{project}} 构建{{result}}',
    content: '分支 **{{branch}}**：{{result}}，耗时 {{ seconds }} 秒',
  });
  expect(created.statusCode).toBe(200);
  expect(created.json().data).toMatchObject({
    name: '构建结果',
    type: 'markdown',
    variables: ['project', 'result', 'branch', 'seconds'],
  });
  const id = created.json().data.id;
  expect((await u.client.post('/api/ums/templates', { name: '构建结果', content: 'x' })).statusCode).toBe(409);
  const other = await user();
  expect((await other.client.post('/api/ums/templates', { name: '构建结果', content: 'x' })).statusCode).toBe(200);
  const renamed = await u.client.request({
    method: 'PATCH',
    url: `/api/ums/templates/${id}`,
    payload: { name: '构建' },
  });
  expect(renamed.json().data.name).toBe('构建');
  expect((await u.client.get('/api/ums/templates')).json().data.map((t: { name: string }) => t.name)).toEqual(['构建']);
  expect((await other.client.request({ method: 'DELETE', url: `/api/ums/templates/${id}` })).statusCode).toBe(404);
  expect((await u.client.request({ method: 'DELETE', url: `/api/ums/templates/${id}` })).statusCode).toBe(200);
  expect((await u.client.get('/api/ums/templates')).json().data).toEqual([]);
});

test('sending with template + vars fills title and content; the token API takes vars as JSON', async () => {
  const u = await user();
  const tpl = (
    await u.client.post('/api/ums/templates', {
      name: '告警',
      title: '{{host}} 告警',
      content: 'CPU {{cpu}}%',
      type: 'text',
    })
  ).json().data;
  const viaUi = await u.client.post('/api/ums/messages', { template: '告警', vars: { host: 'web-1', cpu: 93 } });
  expect(viaUi.statusCode).toBe(200);
  const m = await message(u.client, viaUi.json().data.id);
  expect(m).toMatchObject({ title: 'web-1 告警', content: 'CPU 93%', type: 'text' });
  const token = (
    await u.client.post('/api/user/tokens', { name: 't', scopes: ['ums:send'], expiresInDays: null })
  ).json().data.token;
  const vars = encodeURIComponent(JSON.stringify({ host: 'db-2', cpu: '71' }));
  const viaApi = await rig.ctx.app.inject({
    method: 'GET',
    url: `/api/ums/send?token=${token}&template=${tpl.id}&vars=${vars}`,
  });
  expect((await message(u.client, viaApi.json().data.id)).content).toBe('CPU 71%');
  await rig.ctx.app.umsWorker.runOnce();
  // Two messages of one channel may be delivered in either order (a batch is sent concurrently).
  expect(
    rig.wecom
      .deliveredTo(u.key)
      .map((r) => r.text)
      .sort(),
  ).toEqual(['web-1 告警\nCPU 93%', 'db-2 告警\nCPU 71%'].sort());
});

test.each([
  ['a missing variable', { template: 'T', vars: { a: '1' } }, 'vars', /缺少变量：b/],
  ['an unknown template', { template: '不存在', vars: {} }, 'template', /没有名为「不存在」的模板/],
  ['template and content together', { template: 'T', content: 'x' }, 'template', /不要再填写 content/],
  ['vars that are not an object', { template: 'T', vars: 'oops' }, 'vars', /对象/],
  ['neither content nor template', { title: 'x' }, 'content', /content/],
])('%s is refused with nothing queued', async (_name, body, field, message) => {
  const u = await user();
  await u.client.post('/api/ums/templates', { name: 'T', content: '{{a}} {{b}}' });
  const res = await u.client.post('/api/ums/messages', body);
  expect(res.statusCode).toBe(400);
  expect(res.json().data).toHaveProperty([field]);
  expect(res.json().errorMessage).toMatch(message);
  expect(await count(u.uid)).toBe(0);
});

test('bad templates are refused: no name, empty content, over 50', async () => {
  const u = await user();
  expect((await u.client.post('/api/ums/templates', { name: '', content: 'x' })).statusCode).toBe(400);
  expect((await u.client.post('/api/ums/templates', { name: 'a', content: '' })).statusCode).toBe(400);
  for (let i = 0; i < 50; i++) await u.client.post('/api/ums/templates', { name: `t${i}`, content: 'x' });
  const over = await u.client.post('/api/ums/templates', { name: 't50', content: 'x' });
  expect(over.statusCode).toBe(409);
  expect(over.json().errorMessage).toMatch(/最多保存 50 个模板/);
});
