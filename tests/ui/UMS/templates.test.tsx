/** /UMS/templates: the list with each template's variables, a live preview while editing, delete after confirmation. */
import TemplatesPage from '@/pages/UMS/templates';
import * as umsApi from '@/contract/api/ums';
import { call } from '@/services/call';
import { answer, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';
import { template } from './fixtures';

jest.mock('@/services/call');

beforeEach(() => {
  jest.clearAllMocks();
  answer(umsApi.listTemplates, { success: true, data: [template] });
  answer(umsApi.createTemplate, { success: true, data: { ...template, id: 6 } });
  answer(umsApi.updateTemplate, { success: true, data: template });
  answer(umsApi.deleteTemplate, { success: true });
});

const modal = () => document.querySelector('.ant-modal') as HTMLElement;

it('lists templates with their variables; none yet offers to create one', async () => {
  const { unmount } = renderAt('/UMS/templates', <TemplatesPage />);
  const row = (await screen.findByText('构建结果')).closest('tr') as HTMLElement;
  for (const v of ['project', 'result', 'branch']) expect(within(row).getByText(v)).toBeInTheDocument();
  unmount();
  answer(umsApi.listTemplates, { success: true, data: [] });
  renderAt('/UMS/templates', <TemplatesPage />);
  expect(await screen.findByText('还没有模板')).toBeInTheDocument();
  expect(screen.getByText('新建模板', { selector: 'button span' })).toBeInTheDocument();
});

it('previews live: each variable gets an input and the preview fills in as one types', async () => {
  renderAt('/UMS/templates', <TemplatesPage />);
  await screen.findByText('构建结果');
  fireEvent.click(screen.getByText('新建模板', { selector: 'button span' }));
  await screen.findByText('新建模板', { selector: '.ant-modal-title' });
  fireEvent.change(within(modal()).getByLabelText('名称'), { target: { value: '值班' } });
  fireEvent.change(within(modal()).getByLabelText('标题'), { target: { value: '{{who}} 值班' } });
  fireEvent.change(within(modal()).getByLabelText('内容'), { target: { value: '今天由 **{{who}}** 值班' } });
  const preview = await within(modal()).findByTestId('template-preview');
  expect(preview).toHaveTextContent('{{who}} 值班');
  fireEvent.change(within(preview).getByLabelText('变量 who'), { target: { value: '张三' } });
  await waitFor(() => expect(preview).toHaveTextContent('张三 值班'));
  expect(within(preview).getByText('张三', { selector: 'strong' })).toBeInTheDocument();
  await act(async () => fireEvent.click(within(modal()).getByText(/^创\s?建$/, { selector: 'button span' })));
  await waitFor(() => expect(sent(umsApi.createTemplate)).not.toEqual([]));
  expect(sent(umsApi.createTemplate)[0]?.body).toEqual({
    name: '值班',
    title: '{{who}} 值班',
    content: '今天由 **{{who}}** 值班',
    type: 'markdown',
  });
});

it('deletes only after confirmation', async () => {
  renderAt('/UMS/templates', <TemplatesPage />);
  const row = (await screen.findByText('构建结果')).closest('tr') as HTMLElement;
  fireEvent.click(within(row).getByText(/^删\s?除$/));
  const tip = (await screen.findByText('删除模板「构建结果」？')).closest('.ant-popover') as HTMLElement;
  expect(sent(umsApi.deleteTemplate)).toEqual([]);
  await act(async () => fireEvent.click(within(tip).getByText(/^删\s?除$/, { selector: 'button span' })));
  expect(call).toHaveBeenCalledWith(umsApi.deleteTemplate, { params: { id: 5 } });
});
