/**
 * The preview and validation report of an uploaded file, before anything is written: the counts,
 * the row-numbered problems and a sample of the valid rows in the columns the page defines.
 */
import { Alert, Card, Col, Row, Statistic, Table, Tabs, type TabsProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';

export interface ImportCounts {
  /** Data rows in the file. */
  total: number;
  /** Rows that pass validation and will be written. */
  valid: number;
  /** Valid rows that are new. */
  toInsert: number;
  /** Valid rows that update an existing record. */
  toUpdate: number;
  /** Rows with a problem; skipped when the import is confirmed. */
  rejected: number;
}

export interface ImportIssue {
  /** Line number in the file, the header being line 1. */
  row: number;
  /** The offending field, when the page shows one (see `showIssueField`). */
  field?: string;
  message: string;
}

/** A sample row: its line number plus whatever the page's columns show. */
export interface ImportSampleRow {
  row: number;
}

export interface ImportReportProps<S extends ImportSampleRow> {
  fileName: string;
  /** Shown at the top right of the card (the detected format, for instance). */
  extra?: ReactNode;
  counts: ImportCounts;
  /** Title of the rejected-rows statistic. */
  rejectedTitle?: string;
  /** The problems listed (the server may cut the list). */
  issues: ImportIssue[];
  /** How many problems there are when a row can have several; without it, one per rejected row. */
  issueCount?: number;
  /** Adds a 字段 column naming each problem's field. */
  showIssueField?: boolean;
  /**
   * Values that are not valid in rows that are still imported, without them (the rows count as valid);
   * warningCount tells how many there are when the server cut the list.
   */
  warnings?: ImportIssue[];
  warningCount?: number;
  sample: S[];
  /** Columns of the sample table; the line number (行号) comes first by itself. */
  sampleColumns: ColumnsType<S>;
  /** Between the checks and the tabs: what the page lets the importer decide before the commit. */
  before?: ReactNode;
  /** More tabs after the sample (the recognised columns, for instance). */
  extraTabs?: TabsProps['items'];
  /** The last thing in the card, below the tabs: the flow's confirm and cancel. */
  footer?: ReactNode;
}

function warningOf(counts: ImportCounts, listed: number, issueCount: number | undefined): string {
  const head = `${counts.rejected} 行有问题，确认导入时将跳过这些行`;
  if (issueCount === undefined) {
    return `${head}${counts.rejected > listed ? `；下方列出前 ${listed} 个` : ''}。`;
  }
  return `${head}；共 ${issueCount} 个问题${issueCount > listed ? `，下方列出前 ${listed} 个` : ''}。`;
}

export default function ImportReport<S extends ImportSampleRow>(props: ImportReportProps<S>) {
  const { fileName, extra, counts, rejectedTitle = '有问题（跳过）', issues, issueCount } = props;
  const warningCount = props.warningCount ?? props.warnings?.length ?? 0;
  const stats = [
    { title: '数据行', value: counts.total },
    { title: '可导入', value: counts.valid, valueStyle: { color: '#3f8600' } },
    { title: '将新增', value: counts.toInsert },
    { title: '将更新', value: counts.toUpdate },
    {
      title: rejectedTitle,
      value: counts.rejected,
      valueStyle: counts.rejected ? { color: '#cf1322' } : undefined,
    },
  ];
  const issueColumns: ColumnsType<ImportIssue> = [
    { title: '行号', dataIndex: 'row', width: 80 },
    ...(props.showIssueField ? [{ title: '字段', dataIndex: 'field', width: 120 }] : []),
    { title: '问题', dataIndex: 'message' },
  ];
  const sampleColumns: ColumnsType<S> = [{ title: '行号', dataIndex: 'row' }, ...props.sampleColumns];

  return (
    <Card title={`预览：${fileName}`} extra={extra}>
      <Row gutter={16}>
        {stats.map((s) => (
          <Col key={s.title} span={Math.floor(24 / stats.length)}>
            <Statistic title={s.title} value={s.value} valueStyle={s.valueStyle} />
          </Col>
        ))}
      </Row>
      {counts.rejected > 0 && (
        <Alert
          style={{ marginTop: 16 }}
          type="warning"
          showIcon
          message={warningOf(counts, issues.length, issueCount)}
        />
      )}
      {warningCount > 0 && (
        <Alert
          style={{ marginTop: 16 }}
          type="info"
          showIcon
          message={`${warningCount} 项选填内容有误：这些行照常导入，有误的项留空。详见“留空的项”。`}
        />
      )}
      {counts.rejected === 0 && warningCount === 0 && (
        <Alert style={{ marginTop: 16 }} type="success" showIcon message="校验通过，没有发现问题。" />
      )}
      {props.before && <div style={{ marginTop: 16 }}>{props.before}</div>}
      <Tabs
        style={{ marginTop: 8 }}
        items={[
          {
            key: 'issues',
            label: `问题（${issueCount ?? counts.rejected}）`,
            children: (
              <Table<ImportIssue>
                size="small"
                rowKey={(r) => `${r.row}-${r.field ?? ''}-${r.message}`}
                dataSource={issues}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                columns={issueColumns}
                locale={{ emptyText: '没有问题' }}
              />
            ),
          },
          ...(warningCount > 0
            ? [
                {
                  key: 'warnings',
                  label: `留空的项（${warningCount}）`,
                  children: (
                    <Table<ImportIssue>
                      size="small"
                      rowKey={(r) => `${r.row}-${r.field ?? ''}-${r.message}`}
                      dataSource={props.warnings}
                      pagination={{ pageSize: 10, showSizeChanger: false }}
                      columns={issueColumns}
                    />
                  ),
                },
              ]
            : []),
          {
            key: 'sample',
            label: `数据预览（前 ${props.sample.length} 行）`,
            children: (
              <Table<S>
                size="small"
                rowKey="row"
                dataSource={props.sample}
                pagination={false}
                scroll={{ x: 'max-content' }}
                columns={sampleColumns}
              />
            ),
          },
          ...(props.extraTabs ?? []),
        ]}
      />
      {props.footer && <div style={{ marginTop: 16 }}>{props.footer}</div>}
    </Card>
  );
}
