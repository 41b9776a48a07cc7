import ImportPanel from '@/pages/njit/queryStuInfo/components/ImportPanel';
import * as njitApi from '@/contract/api/njit';
import { call, upload } from '@/services/call';
import { answer, sent } from '../api';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt } from '../helpers';

jest.mock('@/services/call');

const preview = {
  importId: 'imp_abc',
  fileName: '名单.csv',
  format: 'csv' as const,
  encoding: 'gbk' as const,
  totalRows: 6,
  validRows: 4,
  rejectedRows: 2,
  toInsert: 3,
  toUpdate: 1,
  issues: [
    { row: 3, field: '姓名', message: '缺少姓名' },
    { row: 7, field: '学号', message: '学号在文件中重复（与第 6 行相同）' },
  ],
  issueCount: 2,
  warnings: [] as { row: number; field: string; message: string }[],
  warningCount: 0,
  sample: [
    {
      row: 2,
      studentNo: '202101010001',
      name: '张三',
      gender: '男' as const,
      college: '计算机工程学院',
      major: '软件工程',
      className: '软件211',
      grade: 2021,
      status: '在读' as const,
      phone: '138****1234',
      idCard: null,
      dormitory: null,
    },
  ],
  columns: { 学号: '学号', 姓名: '姓名', 手机号: '手机号' },
  expiresAt: '2025-01-01T00:30:00.000Z',
};

beforeEach(() => {
  answer(njitApi.listImports, { success: true, data: [], total: 0, current: 1, pageSize: 10 });
});

function chooseFile() {
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  const file = new File(['学号,姓名\n1,张三\n'], '名单.csv', { type: 'text/csv' });
  fireEvent.change(input, { target: { files: [file] } });
  return file;
}

describe('roster import', () => {
  it('offers the CSV and Excel templates, and names the columns the importer reads', async () => {
    renderAt('/njit/queryStuInfo', <ImportPanel />);
    expect(screen.getByRole('link', { name: /CSV 模板/ })).toHaveAttribute(
      'href',
      '/api/njit/imports/template?format=csv',
    );
    expect(screen.getByRole('link', { name: /Excel 模板/ })).toHaveAttribute(
      'href',
      '/api/njit/imports/template?format=xlsx',
    );
    expect(screen.getByText(/学号,姓名,性别,学院,专业,班级,年级,状态,手机号,身份证号,宿舍/)).toBeInTheDocument();
  });

  it('says which optional values are imported blank, apart from the rows it skips', async () => {
    answer(njitApi.uploadImport, {
      success: true,
      data: {
        ...preview,
        warnings: [
          { row: 4, field: '手机号', message: '手机号格式不正确（应为 11 位，以 1 开头），该项留空导入' },
          { row: 5, field: '身份证号', message: '身份证号格式或校验位不正确，该项留空导入' },
        ],
        warningCount: 2,
      },
    });
    renderAt('/njit/queryStuInfo', <ImportPanel />);
    chooseFile();
    expect(await screen.findByText(/2 项选填内容有误：这些行照常导入，有误的项留空/)).toBeInTheDocument();
    expect(screen.getByText(/2 行有问题，确认导入时将跳过这些行/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: '留空的项（2）' }));
    expect(await screen.findByText('身份证号格式或校验位不正确，该项留空导入')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /确认导入 4 行/ })).toBeInTheDocument();
  });

  it('shows upload progress, then the validation report, and writes only after confirmation', async () => {
    let progress: (p: number) => void = () => undefined;
    let uploaded: (v: unknown) => void = () => undefined;
    answer(njitApi.uploadImport, (_f, onProgress) => {
      progress = onProgress!;
      return new Promise((resolve) => (uploaded = resolve)) as never;
    });
    renderAt('/njit/queryStuInfo', <ImportPanel />);
    const file = chooseFile();
    expect(upload).toHaveBeenCalledWith(njitApi.uploadImport, file, expect.any(Function));
    await act(async () => progress(40));
    expect(screen.getByText('正在上传 名单.csv…')).toBeInTheDocument();
    expect(screen.getByText('40%')).toBeInTheDocument();
    await act(async () => progress(100));
    expect(screen.getByText('上传完成，服务器正在解析和校验…')).toBeInTheDocument();
    await act(async () => uploaded({ success: true, data: preview }));

    expect(await screen.findByText('预览：名单.csv')).toBeInTheDocument();
    expect(screen.getByText('CSV（GBK 编码，已自动转换）')).toBeInTheDocument();
    expect(screen.getByText(/2 行有问题，确认导入时将跳过这些行/)).toBeInTheDocument();
    const issue = screen.getByText('缺少姓名').closest('tr') as HTMLElement;
    expect(within(issue).getByText('3')).toBeInTheDocument();
    expect(within(issue).getByText('姓名')).toBeInTheDocument();
    expect(screen.getByText('学号在文件中重复（与第 6 行相同）')).toBeInTheDocument();
    expect(sent(njitApi.commitImport)).toEqual([]);

    answer(njitApi.commitImport, {
      success: true,
      data: {
        id: 1,
        userName: 'admin',
        fileName: '名单.csv',
        totalRows: 6,
        inserted: 3,
        updated: 1,
        rejected: 2,
        createdAt: '2025-01-01T00:00:00.000Z',
        keptManual: 0,
        takenRoster: 0,
        markedLeft: 0,
      },
    });
    await act(async () => fireEvent.click(screen.getByText('确认导入 4 行')));
    await waitFor(() =>
      expect(call).toHaveBeenCalledWith(
        njitApi.commitImport,
        { params: { id: 'imp_abc' }, body: { manual: 'keep', choices: [], missing: 'leave' } },
        { timeout: 5 * 60 * 1000 },
      ),
    );
    expect(await screen.findByText('导入完成')).toBeInTheDocument();
    expect(screen.getByText('名单.csv：新增 3 人，更新 1 人，跳过 2 行')).toBeInTheDocument();
  });

  it('cancel drops the preview without writing anything', async () => {
    answer(njitApi.uploadImport, { success: true, data: preview });
    renderAt('/njit/queryStuInfo', <ImportPanel />);
    chooseFile();
    expect(await screen.findByText('预览：名单.csv')).toBeInTheDocument();
    fireEvent.click(screen.getByText(/^取\s?消$/, { selector: 'button span' }));
    expect(screen.queryByText('预览：名单.csv')).not.toBeInTheDocument();
    expect(screen.getByText(/点击或拖拽/)).toBeInTheDocument();
    expect(sent(njitApi.commitImport)).toEqual([]);
  });
});
