/**
 * Catches render errors below it — above all a page chunk that failed or timed out
 * (webpack ChunkLoadError) — and shows Retry / Reload instead of a white screen.
 */
import { Button, Result } from 'antd';
import React from 'react';

export function isChunkLoadError(error: unknown): boolean {
  const e = error as { name?: string; message?: string } | null;
  if (!e) return false;
  return (
    e.name === 'ChunkLoadError' ||
    /Loading (CSS )?chunk [\w-]+ failed/i.test(e.message ?? '') ||
    /Failed to fetch dynamically imported module/i.test(e.message ?? '')
  );
}

interface State {
  error: unknown;
  attempt: number;
}

export default class ChunkErrorBoundary extends React.Component<{ children?: React.ReactNode }, State> {
  state: State = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  componentDidCatch(error: unknown) {
    console.error(error);
  }

  retry = () => this.setState((s) => ({ error: null, attempt: s.attempt + 1 }));

  reload = () => window.location.reload();

  render() {
    const { error, attempt } = this.state;
    if (!error) return <React.Fragment key={attempt}>{this.props.children}</React.Fragment>;
    const chunk = isChunkLoadError(error);
    return (
      <Result
        status={chunk ? 'warning' : 'error'}
        title={chunk ? '页面资源加载失败' : '页面出错了'}
        subTitle={
          chunk
            ? '网络不稳定或系统刚刚更新，页面文件没有加载成功。请重试，或刷新页面。'
            : '页面渲染时发生错误。请重试，或刷新页面。'
        }
        extra={[
          <Button key="retry" type="primary" onClick={this.retry}>
            重试
          </Button>,
          <Button key="reload" onClick={this.reload}>
            刷新页面
          </Button>,
        ]}
      />
    );
  }
}
