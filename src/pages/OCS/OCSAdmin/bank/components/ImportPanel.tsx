/**
 * Bank import: upload (with progress) -> validation report -> confirm -> background write with a
 * progress bar fed by polling the job -> result. Re-importing a file is safe: existing questions update.
 */
import { OCS_BANK_MAX_BYTES, type BankImportJob, type BankImportPreview } from '@/contract';
import { commitBankImport, fetchBankImportJob, uploadBankFile } from '@/services/ocsAdmin';
import { InboxOutlined } from '@ant-design/icons';
import { Alert, Button, message, Progress, Result, Space, Upload } from 'antd';
import { useEffect, useState } from 'react';
import ImportReport from './ImportReport';

export const POLL_MS = 1000;
const MB = OCS_BANK_MAX_BYTES / 1024 / 1024;

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; percent: number; fileName: string }
  | { kind: 'preview'; preview: BankImportPreview; committing?: boolean }
  | { kind: 'running'; preview: BankImportPreview; job: BankImportJob }
  | { kind: 'finished'; preview: BankImportPreview; job: BankImportJob };

const percentOf = (job: BankImportJob) => (job.total ? Math.floor((job.done / job.total) * 100) : 100);

export default function ImportPanel({ onImported }: { onImported: () => void }) {
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });

  const runningId = phase.kind === 'running' ? phase.preview.id : null;
  useEffect(() => {
    if (!runningId) return undefined;
    const timer = setTimeout(async () => {
      try {
        const { data: job } = await fetchBankImportJob(runningId, { skipErrorHandler: true });
        setPhase((p) =>
          p.kind !== 'running'
            ? p
            : { kind: job.status === 'running' ? 'running' : 'finished', preview: p.preview, job },
        );
        if (job.status !== 'running') onImported();
      } catch {
        // A lost poll is retried by the next render's timer.
        setPhase((p) => (p.kind === 'running' ? { ...p } : p));
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [phase, runningId, onImported]);

  const upload = async (file: File) => {
    if (file.size > OCS_BANK_MAX_BYTES) {
      message.error(`文件不能超过 ${MB} MB，请拆分后分批导入`);
      return;
    }
    setPhase({ kind: 'uploading', percent: 0, fileName: file.name });
    try {
      const res = await uploadBankFile(file, (percent) =>
        setPhase({ kind: 'uploading', percent, fileName: file.name }),
      );
      setPhase({ kind: 'preview', preview: res.data });
    } catch {
      setPhase({ kind: 'idle' }); // the request layer has shown the error
    }
  };

  const commit = async (preview: BankImportPreview) => {
    setPhase({ kind: 'preview', preview, committing: true });
    try {
      const res = await commitBankImport(preview.id);
      const running = res.data.status === 'running';
      setPhase({ kind: running ? 'running' : 'finished', preview, job: res.data });
      if (!running) onImported();
    } catch {
      setPhase({ kind: 'preview', preview });
    }
  };

  if (phase.kind === 'uploading') {
    return (
      <Alert
        type="info"
        message={phase.percent < 100 ? `正在上传 ${phase.fileName}…` : '上传完成，服务器正在解析和校验…'}
        description={<Progress percent={phase.percent} status="active" />}
      />
    );
  }
  if (phase.kind === 'preview') {
    const p = phase.preview;
    return (
      <Space direction="vertical" style={{ width: '100%' }}>
        <ImportReport preview={p} />
        <Space>
          <Button type="primary" disabled={p.valid === 0} loading={phase.committing} onClick={() => void commit(p)}>
            确认导入 {p.valid} 题
          </Button>
          <Button disabled={phase.committing} onClick={() => setPhase({ kind: 'idle' })}>
            取消
          </Button>
        </Space>
      </Space>
    );
  }
  if (phase.kind === 'running') {
    return (
      <Alert
        type="info"
        message={`正在导入 ${phase.preview.fileName}：已写入 ${phase.job.done} / ${phase.job.total} 题`}
        description={<Progress percent={percentOf(phase.job)} status="active" />}
      />
    );
  }
  const { job } = phase.kind === 'finished' ? phase : { job: null };
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {job && phase.kind === 'finished' && (
        <Result
          status={job.status === 'done' ? 'success' : 'error'}
          title={job.status === 'done' ? '导入完成' : '导入失败'}
          subTitle={
            job.status === 'done'
              ? `${phase.preview.fileName}：新增 ${job.inserted} 题，更新 ${job.updated} 题，跳过 ${phase.preview.rejected} 行`
              : job.error
          }
          extra={job.status === 'done' ? null : <Progress percent={percentOf(job)} status="exception" />}
        />
      )}
      <Upload.Dragger
        accept=".json,.csv,application/json,text/csv"
        multiple={false}
        showUploadList={false}
        beforeUpload={(file) => {
          void upload(file);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">点击或拖拽 JSON / CSV 题库文件到这里上传</p>
        <p className="ant-upload-hint">
          JSON：题目数组，如 {'[{"title": "题目", "type": "single", "options": ["甲", "乙"], "answer": "A"}]'}
          ；CSV：首行为表头（题目,题型,选项,答案，或 题目,题型,A,B,C,D,答案），选项可用换行、| 或 #
          分隔。答案可写选项字母或原文，多个答案用 # 分隔。支持 UTF-8 与 GBK，不超过 {MB} MB。
          上传后先预览校验结果，确认后才写入；相同的题目会更新而不会重复。
        </p>
      </Upload.Dragger>
    </Space>
  );
}
