/**
 * Bank import on the shared import flow: upload (with progress) -> validation report -> confirm ->
 * background write with a progress bar fed by polling the job -> result. Re-importing a file is safe:
 * existing questions update.
 */
import { ImportFlow, megabytes, type ImportJobFollow, type ImportReportProps } from '@/components/import';
import {
  OCS_BANK_MAX_BYTES,
  OCS_BANK_MAX_ROWS,
  OCS_TYPE_LABELS,
  type BankImportJob,
  type BankImportPreview,
} from '@/contract';
import * as ocsAdminApi from '@/contract/api/ocsAdmin';
import { call, upload } from '@/services/call';
import { Progress } from 'antd';

export const POLL_MS = 1000;
const MB = megabytes(OCS_BANK_MAX_BYTES);

type SampleRow = BankImportPreview['sample'][number];

const percentOf = (job: BankImportJob) => (job.total ? Math.floor((job.done / job.total) * 100) : 100);

const SAMPLE_COLUMNS: ImportReportProps<SampleRow>['sampleColumns'] = [
  { title: '题目', dataIndex: 'title', ellipsis: true },
  {
    title: '题型',
    dataIndex: 'type',
    render: (t: keyof typeof OCS_TYPE_LABELS) => OCS_TYPE_LABELS[t] ?? t,
  },
  { title: '选项', dataIndex: 'options', render: (o: string[]) => o.join(' / ') || '-' },
  { title: '答案', dataIndex: 'answer', render: (a: string[]) => a.join('；') },
];

const report = (p: BankImportPreview): ImportReportProps<SampleRow> => ({
  fileName: p.fileName,
  counts: {
    total: p.total,
    valid: p.valid,
    toInsert: p.valid - p.existing,
    toUpdate: p.existing,
    rejected: p.rejected,
  },
  issues: p.issues,
  sample: p.sample,
  sampleColumns: SAMPLE_COLUMNS,
});

const follow: ImportJobFollow<BankImportPreview, BankImportJob> = {
  intervalMs: POLL_MS,
  running: (job) => job.status === 'running',
  poll: async (p) => (await call(ocsAdminApi.importJob, { params: { id: p.id } }, { skipErrorHandler: true })).data,
  progress: (p, job) => ({
    message: `正在导入 ${p.fileName}：已写入 ${job.done} / ${job.total} 题`,
    percent: percentOf(job),
  }),
};

export default function ImportPanel({ onImported }: { onImported: () => void }) {
  return (
    <ImportFlow<BankImportPreview, SampleRow, BankImportJob>
      dropzone={{
        accept: '.json,.csv,application/json,text/csv',
        maxBytes: OCS_BANK_MAX_BYTES,
        title: '点击或拖拽 JSON / CSV 题库文件到这里上传',
        hint: (
          <>
            JSON：题目数组，如 {'[{"title": "题目", "type": "single", "options": ["甲", "乙"], "answer": "A"}]'}
            ；CSV：首行为表头（题目,题型,选项,答案，或 题目,题型,A,B,C,D,答案），选项可用换行、| 或 #
            分隔。答案可写选项字母或原文，多个答案用 # 分隔。支持 UTF-8 与 GBK，不超过 {MB} MB、
            {OCS_BANK_MAX_ROWS / 10_000} 万题。 上传后先预览校验结果，确认后才写入；相同的题目会更新而不会重复。
          </>
        ),
      }}
      upload={async (file, onProgress) => (await upload(ocsAdminApi.uploadImport, file, onProgress)).data}
      report={report}
      validCount={(p) => p.valid}
      confirmLabel={(p) => <>确认导入 {p.valid} 题</>}
      commit={async (p) => (await call(ocsAdminApi.commitImport, { params: { id: p.id } })).data}
      follow={follow}
      outcome={(p, job) =>
        job.status === 'done'
          ? {
              ok: true,
              summary: `${p.fileName}：新增 ${job.inserted} 题，更新 ${job.updated} 题，跳过 ${p.rejected} 行`,
            }
          : { ok: false, summary: job.error, extra: <Progress percent={percentOf(job)} status="exception" /> }
      }
      onDone={onImported}
    />
  );
}
