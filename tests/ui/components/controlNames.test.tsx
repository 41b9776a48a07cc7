/**
 * antd's step buttons, close buttons, "Select all" and icon-only controls are named in English whatever
 * the locale; the layout's header renames them in Chinese (components/controlNames.ts). The header is
 * rendered beside each page here as the layout renders it beside every page.
 */
import HeaderTitle from '@/components/HeaderTitle';
import OcsSettingsPage from '@/pages/OCS/OCSAdmin/settings';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Collapse, ConfigProvider, DatePicker, Input, Modal, notification, Table } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import React from 'react';
import { renderAt } from '../helpers';
import { OCS_SETTINGS } from '../OCS/admin/settingsFixtures';
import { answer } from '../api';

jest.mock('@/services/call');

const ENGLISH = /Increase Value|Decrease Value|^Close$|Select all|^to$|^left$|^right$|close-circle|collapsed|expanded/;

/** Every accessible name an element gets from aria-label, outside what is hidden from screen readers. */
function announcedLabels(): string[] {
  return Array.from(document.querySelectorAll('[aria-label]'))
    .filter((el) => !el.closest('[aria-hidden="true"]'))
    .map((el) => el.getAttribute('aria-label') ?? '');
}

afterEach(() => notification.destroy());

it('names the step buttons of the OCS settings numbers 增大数值 and 减小数值, with no English name left', async () => {
  answer(ocsAdminApi.getSettings, { success: true, data: OCS_SETTINGS });

  renderAt(
    '/OCS/OCSAdmin/settings',
    <>
      <HeaderTitle />
      <OcsSettingsPage />
    </>,
  );
  await waitFor(() => expect((screen.getByLabelText('突发额度') as HTMLInputElement).value).toBe('20'));
  const fields = screen.getAllByRole('spinbutton');
  await waitFor(() => expect(screen.getAllByRole('button', { name: '增大数值' })).toHaveLength(fields.length));
  expect(screen.getAllByRole('button', { name: '减小数值' })).toHaveLength(fields.length);
  expect(screen.queryAllByRole('button', { name: /Increase Value|Decrease Value/ })).toEqual([]);

  // A step re-renders the field (its value, its buttons' disabled state): the names stay Chinese.
  fireEvent.keyDown(fields[0], { key: 'ArrowUp', code: 'ArrowUp' });
  await waitFor(() => expect(fields[0]).toHaveValue('2'));
  expect(screen.getAllByRole('button', { name: '增大数值' })).toHaveLength(fields.length);
  expect(announcedLabels().filter((l) => ENGLISH.test(l))).toEqual([]);
});

it('names in Chinese the other controls antd names in English: close, select all, pagination, clear, collapse; the range arrow is hidden', async () => {
  const rows = Array.from({ length: 30 }, (_, i) => ({ key: i, n: `第 ${i} 行` }));
  renderAt(
    '/somewhere',
    <ConfigProvider locale={zhCN}>
      <HeaderTitle />
      <Table rowSelection={{}} columns={[{ title: '名称', dataIndex: 'n' }]} dataSource={rows} />
      <Input aria-label="兑换码" allowClear defaultValue="ABCD" />
      <DatePicker.RangePicker />
      <Collapse items={[{ key: 1, label: '高级设置', children: '内容' }]} />
      <Modal open title="对话框">
        内容
      </Modal>
    </ConfigProvider>,
  );
  act(() => notification.error({ message: '请求失败', description: '网络错误' }));

  expect(await screen.findByRole('button', { name: '关闭' })).toHaveClass('ant-modal-close');
  expect(screen.getByRole('checkbox', { name: '全选本页' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: '上一页' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: '下一页' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: '清除' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: '高级设置' })).toBeInTheDocument();
  await waitFor(() =>
    expect(document.querySelector('.ant-notification-notice-close')).toHaveAttribute('aria-label', '关闭'),
  );
  // Opened, the panel's arrow is renamed by React ("expanded"): still hidden, the header still 高级设置.
  fireEvent.click(screen.getByRole('button', { name: '高级设置' }));
  await waitFor(() =>
    expect(screen.getByRole('button', { name: '高级设置' })).toHaveAttribute('aria-expanded', 'true'),
  );
  await waitFor(() => expect(announcedLabels().filter((l) => ENGLISH.test(l))).toEqual([]));
  // The range picker's arrow is decoration: hidden, with no label (ARIA allows none on a span without a role).
  for (const sep of Array.from(document.querySelectorAll('.ant-picker-range-separator, .ant-picker-separator'))) {
    expect(sep).not.toHaveAttribute('aria-label');
    expect(sep.closest('[aria-hidden="true"]')).not.toBeNull();
  }
  expect(document.querySelectorAll('.ant-picker-separator').length).toBeGreaterThan(0);
});
