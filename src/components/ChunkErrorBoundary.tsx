/**
 * Catches render errors below it — above all a page chunk that failed or timed out (webpack
 * ChunkLoadError) — and shows 重试 / 刷新页面 instead of a white screen. 重试 really loads the chunk
 * again (chunkRetry.ts). The fallback is plain HTML on purpose (styled by src/global.css): it must
 * render when the network just failed, and it sits in the first download of every page, so it uses no
 * antd component.
 */
import { useAppData } from '@umijs/max';
import React from 'react';
import { dropPrerendered } from '@/prerendered';
import { rememberPageImports, resetFailedPageImports } from './chunkRetry';

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
    // The error shows, not the login form's static copy over it (src/prerendered.ts).
    dropPrerendered();
  }

  retry = () => {
    resetFailedPageImports();
    this.setState((s) => ({ error: null, attempt: s.attempt + 1 }));
  };

  reload = () => window.location.reload();

  render() {
    const { error, attempt } = this.state;
    if (!error) return <React.Fragment key={attempt}>{this.props.children}</React.Fragment>;
    const chunk = isChunkLoadError(error);
    return (
      <div role="alert" className="portal-plain-state">
        <div aria-hidden style={{ fontSize: 48, lineHeight: 1, color: chunk ? '#faad14' : '#ff4d4f' }}>
          {chunk ? '⚠' : '✕'}
        </div>
        <h2>{chunk ? '页面资源加载失败' : '页面出错了'}</h2>
        <p>
          {chunk
            ? '网络不稳定或系统刚刚更新，页面文件没有加载成功。请重试，或刷新页面。'
            : '页面渲染时发生错误。请重试，或刷新页面。'}
        </p>
        <button type="button" className="portal-plain-button portal-plain-button-primary" onClick={this.retry}>
          重试
        </button>
        <button type="button" className="portal-plain-button" onClick={this.reload}>
          刷新页面
        </button>
      </div>
    );
  }
}

/**
 * Rendered once at the root, before any page: records each page's import function while it can
 * still be read (chunkRetry.ts), so 重试 can load a failed page again.
 */
export function RememberPageImports({ children }: { children?: React.ReactNode }) {
  const { routeComponents } = useAppData() as { routeComponents?: Record<string, unknown> };
  rememberPageImports(routeComponents);
  return <>{children}</>;
}
