import DownloadUserScriptPage from '@/pages/OCS/downloadUserScript';
import * as ocsApi from '@/contract/api/ocs';
import { answer, failOnce } from '../api';
import { act, fireEvent, screen } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

const BASE = 'https://portal.example.edu';
const info = {
  baseUrl: BASE,
  version: '1.2.0',
  changelog: [
    { version: '1.2.0', date: '2026-11-20', changes: ['面板显示余额'] },
    { version: '1.0.0', date: '2026-11-01', changes: ['首个版本', '支持 Alt+Q'] },
  ],
  userscriptUrl: `${BASE}/api/ocs/userscript.user.js`,
  subscriptionBase: `${BASE}/api/ocs/config`,
};

beforeEach(() => {
  answer(ocsApi.scriptInfo, { success: true, data: info });
});

describe('userscript download', () => {
  it('offers the install link, version, copyable URL, install steps and the changelog', async () => {
    renderAt('/OCS/downloadUserScript', <DownloadUserScriptPage />);
    expect(await screen.findByText('v1.2.0', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(screen.getByText('安装脚本').closest('a')).toHaveAttribute('href', info.userscriptUrl);
    expect(screen.getByTestId('userscript-url')).toHaveTextContent(info.userscriptUrl);
    const execCommand = jest.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    await act(async () => fireEvent.click(screen.getByLabelText('复制')));
    expect(execCommand).toHaveBeenCalledWith('copy');

    expect(screen.getByText('安装脚本管理器')).toBeInTheDocument();
    expect(screen.getByText('Tampermonkey（油猴）').closest('a')).toHaveAttribute(
      'href',
      'https://www.tampermonkey.net/',
    );
    expect(screen.getByText(/按 Alt\+Q/)).toBeInTheDocument();
    expect(screen.getByText('令牌生成').closest('a')).toHaveAttribute('href', '/OCS/tokenGen');

    const entries = screen.getAllByTestId('changelog-entry').map((e) => e.textContent);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toContain('v1.2.0');
    expect(entries[0]).toContain('面板显示余额');
    expect(entries[1]).toContain('2026-11-01');
    expect(entries[1]).toContain('支持 Alt+Q');
  });

  it('still shows the steps when the info cannot load, with a retry', async () => {
    failOnce(ocsApi.scriptInfo, {
      response: {
        status: 500,
        data: { success: false, errorCode: 'INTERNAL', errorMessage: '服务器内部错误，请稍后重试' },
      },
    });
    renderAt('/OCS/downloadUserScript', <DownloadUserScriptPage />);
    expect(await screen.findByText('脚本信息加载失败：服务器内部错误，请稍后重试')).toBeInTheDocument();
    expect(screen.getByText('安装脚本管理器')).toBeInTheDocument();
    await act(async () => fireEvent.click(screen.getByText(/^重\s?试$/)));
    expect(await screen.findByText('v1.2.0', { selector: '.ant-tag' })).toBeInTheDocument();
  });
});
