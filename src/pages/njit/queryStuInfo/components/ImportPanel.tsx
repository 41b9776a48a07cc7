/**
 * Roster import for administrators: upload (with progress) -> server-side parse -> preview and
 * validation report -> commit in one transaction -> import history.
 */
import { formatTime } from '@/components/time';
import { NJIT_IMPORT_MAX_BYTES, type ImportPreview, type ImportSummary } from '@/contract';
import { commitRosterImport, fetchImports, uploadRoster } from '@/services/njit';
import { InboxOutlined } from '@ant-design/icons';
import { ProTable, type ActionType } from '@ant-design/pro-components';
import { Alert, Button, message, Progress, Result, Space, Upload } from 'antd';
import { useRef, useState } from 'react';
import ImportReport from './ImportReport';

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; percent: number; fileName: string }
  | { kind: 'preview'; preview: ImportPreview }
  | { kind: 'committing'; preview: ImportPreview }
  | { kind: 'done'; summary: ImportSummary };

const HEADER_HINT = '学号,姓名,性别,学院,专业,班级,年级,状态,手机号,身份证号,宿舍';

export default function ImportPanel() {
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const history = useRef<ActionType>();

  const upload = async (file: File) => {
    if (file.size > NJIT_IMPORT_MAX_BYTES) {
      message.error(`文件不能超过 ${NJIT_IMPORT_MAX_BYTES / 1024 / 1024} MB，请拆分后分批导入`);
      return;
    }
    setPhase({ kind: 'uploading', percent: 0, fileName: file.name });
    try {
      const res = await uploadRoster(file, (percent) => setPhase({ kind: 'uploading', percent, fileName: file.name }));
      setPhase({ kind: 'preview', preview: res.data });
    } catch {
      setPhase({ kind: 'idle' }); // the request layer has shown the error
    }
  };

  const commit = async (preview: ImportPreview) => {
    setPhase({ kind: 'committing', preview });
    try {
      const res = await commitRosterImport(preview.importId);
      setPhase({ kind: 'done', summary: res.data });
      history.current?.reload();
    } catch {
      setPhase({ kind: 'preview', preview });
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {(phase.kind === 'idle' || phase.kind === 'done') && (
        <>
          {phase.kind === 'done' && (
            <Result
              status="success"
              title="导入完成"
              subTitle={`${phase.summary.fileName}：新增 ${phase.summary.inserted} 人，更新 ${phase.summary.updated} 人，跳过 ${phase.summary.rejected} 行`}
            />
          )}
          <Upload.Dragger
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
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
            <p className="ant-upload-text">点击或拖拽 CSV / Excel（.xlsx）文件到这里上传</p>
            <p className="ant-upload-hint">
              第一行为表头，需包含“学号”“姓名”列，例如：{HEADER_HINT}。CSV 支持 UTF-8 与 GBK 编码；文件不超过{' '}
              {NJIT_IMPORT_MAX_BYTES / 1024 / 1024} MB。 上传后先预览校验结果，确认后才写入；按学号新增或更新。
            </p>
          </Upload.Dragger>
        </>
      )}

      {phase.kind === 'uploading' && (
        <Alert
          type="info"
          message={phase.percent < 100 ? `正在上传 ${phase.fileName}…` : '上传完成，服务器正在解析和校验…'}
          description={<Progress percent={phase.percent} status="active" />}
        />
      )}

      {(phase.kind === 'preview' || phase.kind === 'committing') && (
        <>
          <ImportReport preview={phase.preview} />
          {phase.kind === 'committing' && (
            <Alert
              type="info"
              message="正在写入数据库（单个事务，失败不会留下部分数据）…"
              description={<Progress percent={100} status="active" showInfo={false} />}
            />
          )}
          <Space>
            <Button
              type="primary"
              disabled={phase.preview.validRows === 0}
              loading={phase.kind === 'committing'}
              onClick={() => void commit(phase.preview)}
            >
              确认导入 {phase.preview.validRows} 行
            </Button>
            <Button disabled={phase.kind === 'committing'} onClick={() => setPhase({ kind: 'idle' })}>
              取消
            </Button>
          </Space>
        </>
      )}

      <ProTable<ImportSummary>
        rowKey="id"
        headerTitle="导入历史"
        actionRef={history}
        search={false}
        options={{ density: false, setting: false }}
        request={({ current, pageSize }) => fetchImports({ current, pageSize })}
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
    </Space>
  );
}
