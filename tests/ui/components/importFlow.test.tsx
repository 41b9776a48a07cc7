/** The shared import flow (src/components/import) on its own: the paths the two import pages' tests do not take. */
import { ImportFlow, type ImportFlowProps } from '@/components/import';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { message } from 'antd';

interface Preview {
  fileName: string;
  valid: number;
}
interface Job {
  running: boolean;
  done: number;
}

const preview: Preview = { fileName: 'a.csv', valid: 2 };

function flow(over: Partial<ImportFlowProps<Preview, { row: number; v: string }, Job>> = {}) {
  const props: ImportFlowProps<Preview, { row: number; v: string }, Job> = {
    dropzone: { accept: '.csv', maxBytes: 10, title: '拖到这里', hint: '小文件' },
    upload: jest.fn().mockResolvedValue(preview),
    report: (p) => ({
      fileName: p.fileName,
      counts: { total: 3, valid: p.valid, toInsert: 2, toUpdate: 0, rejected: 1 },
      issues: [{ row: 3, message: '坏行' }],
      sample: [{ row: 2, v: '好' }],
      sampleColumns: [{ title: '值', dataIndex: 'v' }],
    }),
    validCount: (p) => p.valid,
    confirmLabel: (p) => `确认 ${p.valid}`,
    commit: jest.fn().mockResolvedValue({ running: false, done: 2 }),
    outcome: (_p, job) => ({ ok: true, summary: `写入 ${job.done}` }),
    onDone: jest.fn(),
    ...over,
  };
  render(<ImportFlow {...props} />);
  return props;
}

function choose(content = 'x') {
  const input = document.querySelector('input[type=file]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [new File([content], 'a.csv', { type: 'text/csv' })] } });
}

describe('shared import flow', () => {
  it('refuses a file over the limit before uploading', async () => {
    const spy = jest.spyOn(message, 'error').mockImplementation(() => undefined as never);
    const props = flow();
    choose('more than ten bytes');
    await waitFor(() => expect(spy).toHaveBeenCalledWith(expect.stringContaining('MB，请拆分后分批导入')));
    expect(props.upload).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('reports one problem per rejected row when no issue count is given', async () => {
    flow();
    choose();
    expect(await screen.findByText('预览：a.csv')).toBeInTheDocument();
    expect(screen.getByText('1 行有问题，确认导入时将跳过这些行。')).toBeInTheDocument();
    expect(screen.getByText('问题（1）')).toBeInTheDocument();
    expect(screen.getByText('有问题（跳过）')).toBeInTheDocument();
  });

  it('puts 确认 and 取消 inside the preview card, under the report they act on', async () => {
    flow();
    choose();
    const card = (await screen.findByText('预览：a.csv')).closest('.ant-card') as HTMLElement;
    const body = card.querySelector('.ant-card-body') as HTMLElement;
    expect(body).toContainElement(screen.getByText('确认 2').closest('button'));
    expect(body).toContainElement(screen.getByText(/^取\s?消$/).closest('button'));
    // Below the report's tabs, not between the counts and the problems.
    const tabs = body.querySelector('.ant-tabs') as HTMLElement;
    const confirm = screen.getByText('确认 2').closest('button') as HTMLElement;
    expect(tabs.compareDocumentPosition(confirm) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('keeps the preview when the commit fails', async () => {
    const props = flow({ commit: jest.fn().mockRejectedValue(new Error('x')) });
    choose();
    const confirm = await screen.findByText('确认 2');
    await act(async () => fireEvent.click(confirm));
    expect(props.commit).toHaveBeenCalledWith(preview);
    expect(screen.getByText('预览：a.csv')).toBeInTheDocument();
    expect(props.onDone).not.toHaveBeenCalled();
  });

  it('follows a running job, retrying a lost poll, and ends once', async () => {
    const poll = jest
      .fn()
      .mockRejectedValueOnce(new Error('lost'))
      .mockResolvedValueOnce({ running: true, done: 1 })
      .mockResolvedValue({ running: false, done: 2 });
    const props = flow({
      commit: jest.fn().mockResolvedValue({ running: true, done: 0 }),
      follow: {
        intervalMs: 10,
        running: (j) => j.running,
        poll,
        progress: (_p, j) => ({ message: `已写入 ${j.done}`, percent: j.done * 50 }),
      },
    });
    choose();
    const confirm = await screen.findByText('确认 2');
    await act(async () => fireEvent.click(confirm));
    expect(screen.getByText('已写入 0')).toBeInTheDocument();
    expect(await screen.findByText('写入 2')).toBeInTheDocument();
    expect(screen.getByText('导入完成')).toBeInTheDocument();
    expect(poll).toHaveBeenCalledTimes(3);
    expect(props.onDone).toHaveBeenCalledTimes(1);
    expect(props.onDone).toHaveBeenCalledWith(preview, { running: false, done: 2 });
  });
});
