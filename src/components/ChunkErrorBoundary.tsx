/**
 * Catches render errors below it — above all a page chunk that failed or timed out (webpack
 * ChunkLoadError) — and shows 重试 / 刷新页面 instead of a white screen. 重试 really loads the chunk
 * again (chunkRetry.ts). The fallback is plain HTML on purpose: it must render when the network just
 * failed, and it sits in the first download of every page, so it uses no antd component.
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

const box: React.CSSProperties = {
  maxWidth: 480,
  margin: '64px auto',
  padding: '32px 24px',
  textAlign: 'center',
  fontFamily: 'inherit',
  color: 'rgba(0,0,0,0.88)',
};
const button = (primary: boolean): React.CSSProperties => ({
  margin: '0 6px',
  padding: '4px 15px',
  height: 32,
  fontSize: 14,
  borderRadius: 6,
  cursor: 'pointer',
  border: primary ? '1px solid #1677ff' : '1px solid #d9d9d9',
  background: primary ? '#1677ff' : '#fff',
  color: primary ? '#fff' : 'rgba(0,0,0,0.88)',
});

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
      <div role="alert" style={box}>
        <div aria-hidden style={{ fontSize: 48, lineHeight: 1, color: chunk ? '#faad14' : '#ff4d4f' }}>
          {chunk ? '⚠' : '✕'}
        </div>
        <h3 style={{ margin: '16px 0 8px', fontSize: 20, fontWeight: 500 }}>
          {chunk ? '页面资源加载失败' : '页面出错了'}
        </h3>
        <p style={{ margin: '0 0 24px', color: 'rgba(0,0,0,0.45)' }}>
          {chunk
            ? '网络不稳定或系统刚刚更新，页面文件没有加载成功。请重试，或刷新页面。'
            : '页面渲染时发生错误。请重试，或刷新页面。'}
        </p>
        <button type="button" style={button(true)} onClick={this.retry}>
          重试
        </button>
        <button type="button" style={button(false)} onClick={this.reload}>
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
