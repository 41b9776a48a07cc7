/** How an import ended: 导入完成 with what was written, or 导入失败 with the reason. */
import { Result } from 'antd';
import type { ReactNode } from 'react';

export interface ImportOutcome {
  ok: boolean;
  /** What was written (or why it failed). */
  summary: ReactNode;
  /** Under the summary (how far a failed job got, for instance). */
  extra?: ReactNode;
}

export default function ImportResult({ ok, summary, extra }: ImportOutcome) {
  return (
    <Result
      status={ok ? 'success' : 'error'}
      title={ok ? '导入完成' : '导入失败'}
      subTitle={summary}
      extra={extra ?? null}
    />
  );
}
