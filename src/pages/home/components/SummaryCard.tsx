/** One card of the dashboard: its own loading skeleton, and its own error with 重试 (the rest stays). */
import { errorMessageOf } from '@/requestErrorConfig';
import { Link } from '@umijs/max';
import { Alert, Button, Card, Skeleton } from 'antd';
import type { ReactNode } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  refresh: () => void;
}

export function SummaryCard<T>({
  title,
  more,
  state,
  children,
}: {
  title: string;
  /** Where the card's figures come from in full: a link in its header. */
  more?: { to: string; label: string };
  state?: Loaded<T>;
  children: (data: T) => ReactNode;
}) {
  let body: ReactNode;
  if (state && state.data === undefined) {
    body = state.error ? (
      <Alert
        type="error"
        showIcon
        message={`加载失败：${errorMessageOf(state.error)}`}
        action={
          <Button size="small" loading={state.loading} onClick={state.refresh}>
            重试
          </Button>
        }
      />
    ) : (
      <Skeleton active paragraph={{ rows: 2 }} title={false} />
    );
  } else {
    body = children(state?.data as T);
  }
  return (
    <Card
      title={title}
      size="small"
      style={{ height: '100%' }}
      styles={{ title: { whiteSpace: 'normal', overflow: 'visible' } }}
      extra={more && <Link to={more.to}>{more.label}</Link>}
    >
      {body}
    </Card>
  );
}
