/**
 * Roster import for administrators: the shared import flow (upload with progress -> server-side parse ->
 * preview and validation report -> commit in one transaction) over the roster calls, then the import history.
 */
import { ImportFlow, megabytes, type ImportReportProps } from '@/components/import';
import { formatTime } from '@/components/time';
import {
  NJIT_IMPORT_MAX_BYTES,
  ROSTER_COLUMNS,
  type ImportCommitResult,
  type ImportPreview,
  type ImportSummary,
} from '@/contract';
import * as njitApi from '@/contract/api/njit';
import { call, upload } from '@/services/call';
import { urlOf } from '@/services/url';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable, type ActionType } from '@ant-design/pro-components';
import { Button, Space, Table } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import ImportDiff, { DEFAULT_CHOICE, type ImportChoice } from './ImportDiff';
import { useTableSettings } from '@/components/tableSettings';

type SampleRow = ImportPreview['sample'][number];

/** The columns the importer reads (the templates have the same header). */
const HEADER_HINT = ROSTER_COLUMNS.map((c) => c.label).join(',');
const REQUIRED = ROSTER_COLUMNS.filter((c) => c.required)
  .map((c) => `“${c.label}”`)
  .join('');

/** The sample shows the file's columns as imported (the dormitory aside: the table is wide enough). */
const SAMPLE_COLUMNS: ImportReportProps<SampleRow>['sampleColumns'] = ROSTER_COLUMNS.filter(
  (c) => c.field !== 'dormitory',
).map((c) => ({ title: c.label, dataIndex: c.field }));

const formatOf = (p: ImportPreview) =>
  p.format === 'xlsx' ? 'Excel 表格' : `CSV（${p.encoding === 'gbk' ? 'GBK 编码，已自动转换' : 'UTF-8 编码'}）`;

function report(p: ImportPreview, before: ReactNode): ImportReportProps<SampleRow> {
  return {
    before,
    fileName: p.fileName,
    extra: formatOf(p),
    counts: {
      total: p.totalRows,
      valid: p.validRows,
      toInsert: p.toInsert,
      toUpdate: p.toUpdate,
      rejected: p.rejectedRows,
    },
    rejectedTitle: '有问题（不导入）',
    issues: p.issues,
    issueCount: p.issueCount,
    warnings: p.warnings,
    warningCount: p.warningCount,
    showIssueField: true,
    sample: p.sample,
    sampleColumns: SAMPLE_COLUMNS,
    extraTabs: [
      {
        key: 'columns',
        label: '识别的列',
        children: (
          <Table
            size="small"
            rowKey="header"
            pagination={false}
            dataSource={Object.entries(p.columns).map(([header, field]) => ({ header, field }))}
            columns={[
              { title: '文件中的表头', dataIndex: 'header' },
              { title: '对应字段', dataIndex: 'field' },
            ]}
          />
        ),
      },
    ],
  };
}

export default function ImportPanel() {
  const tableSettings = useTableSettings('njit.imports');
  const history = useRef<ActionType>();
  // The importer's choice for the staged import it was made on; a new upload starts from the default.
  const [picked, setPicked] = useState<{ importId: string; choice: ImportChoice } | null>(null);
  const choiceFor = (importId: string) => (picked?.importId === importId ? picked.choice : DEFAULT_CHOICE);
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <span>下载模板（表头即可导入的列）：</span>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          href={urlOf(njitApi.importTemplate, { query: { format: 'csv' } })}
          download
        >
          CSV 模板
        </Button>
        <Button
          icon={<DownloadOutlined aria-hidden />}
          href={urlOf(njitApi.importTemplate, { query: { format: 'xlsx' } })}
          download
        >
          Excel 模板（含填写说明）
        </Button>
      </Space>
      <ImportFlow<ImportPreview, SampleRow, ImportCommitResult>
        dropzone={{
          accept: '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          maxBytes: NJIT_IMPORT_MAX_BYTES,
          title: '点击或拖拽 CSV / Excel（.xlsx）文件到这里上传',
          hint: (
            <>
              第一行为表头，需包含{REQUIRED}列，例如：{HEADER_HINT}。CSV 支持 UTF-8 与 GBK 编码；文件不超过{' '}
              {megabytes(NJIT_IMPORT_MAX_BYTES)} MB。 上传后先预览校验结果，确认后才写入；按学号新增或更新。
              学号、姓名有误的行不导入；其他列有误时，该项留空导入。
            </>
          ),
        }}
        upload={async (file, onProgress) => (await upload(njitApi.uploadImport, file, onProgress)).data}
        report={(p) =>
          report(
            p,
            <ImportDiff
              importId={p.importId}
              value={choiceFor(p.importId)}
              onChange={(choice) => setPicked({ importId: p.importId, choice })}
            />,
          )
        }
        validCount={(p) => p.validRows}
        confirmLabel={(p) => <>确认导入 {p.validRows} 行</>}
        committingNote="正在写入数据库（单个事务，失败不会留下部分数据）…"
        // One transaction over the whole roster: it may take minutes, past the default timeout.
        commit={async (p) =>
          (
            await call(
              njitApi.commitImport,
              { params: { id: p.importId }, body: choiceFor(p.importId) },
              { timeout: 5 * 60 * 1000 },
            )
          ).data
        }
        outcome={(_, summary) => ({
          ok: true,
          summary:
            `${summary.fileName}：新增 ${summary.inserted} 人，更新 ${summary.updated} 人，跳过 ${summary.rejected} 行` +
            (summary.keptManual ? `，保留手动修改 ${summary.keptManual} 项` : '') +
            (summary.takenRoster ? `，采用名单值 ${summary.takenRoster} 项` : '') +
            (summary.markedLeft ? `，标记离校 ${summary.markedLeft} 人` : ''),
        })}
        onDone={() => history.current?.reload()}
      >
        <ProTable<ImportSummary>
          rowKey="id"
          headerTitle="导入历史"
          actionRef={history}
          search={false}
          {...tableSettings}
          request={({ current, pageSize }) => call(njitApi.listImports, { query: { current, pageSize } })}
          pagination={{ defaultPageSize: 10 }}
          columns={[
            { title: '时间', dataIndex: 'createdAt', render: (_, r) => formatTime(r.createdAt) },
            { title: '操作人', dataIndex: 'userName' },
            { title: '文件', dataIndex: 'fileName' },
            { title: '数据行', dataIndex: 'totalRows' },
            { title: '新增', dataIndex: 'inserted' },
            { title: '更新', dataIndex: 'updated' },
            { title: '跳过', dataIndex: 'rejected' },
          ]}
        />
      </ImportFlow>
    </>
  );
}
