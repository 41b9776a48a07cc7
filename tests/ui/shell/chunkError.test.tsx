import ChunkErrorBoundary, { isChunkLoadError } from '@/components/ChunkErrorBoundary';
import { rememberPageImports } from '@/components/chunkRetry';
import { fireEvent, render, screen } from '@testing-library/react';
import React, { Suspense } from 'react';

let shouldFail = true;
function Page() {
  if (shouldFail) {
    const e = new Error('Loading chunk 259 failed.\n(timeout: /p__user__me__index.js)');
    e.name = 'ChunkLoadError';
    throw e;
  }
  return <p>页面内容</p>;
}

describe('chunk load errors', () => {
  const originalLocation = window.location;
  let reload: jest.Mock;

  beforeEach(() => {
    shouldFail = true;
    reload = jest.fn();
    jest.spyOn(console, 'error').mockImplementation(() => {});
    Object.defineProperty(window, 'location', { configurable: true, value: { ...originalLocation, reload } });
  });
  afterEach(() => {
    Object.defineProperty(window, 'location', { configurable: true, value: originalLocation });
    jest.restoreAllMocks();
  });

  it('recognises webpack chunk failures', () => {
    expect(isChunkLoadError(Object.assign(new Error('x'), { name: 'ChunkLoadError' }))).toBe(true);
    expect(isChunkLoadError(new Error('Loading chunk 12 failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Loading CSS chunk 12 failed.'))).toBe(true);
    expect(isChunkLoadError(new TypeError('x is undefined'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });

  it('shows retry and reload instead of a white screen, and retry re-renders', () => {
    render(
      <ChunkErrorBoundary>
        <Page />
      </ChunkErrorBoundary>,
    );
    expect(screen.getByText('页面资源加载失败')).toBeInTheDocument();
    shouldFail = false;
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(screen.getByText('页面内容')).toBeInTheDocument();
  });

  it('reload reloads the page', () => {
    render(
      <ChunkErrorBoundary>
        <Page />
      </ChunkErrorBoundary>,
    );
    fireEvent.click(screen.getByRole('button', { name: /刷新页面/ }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('other render errors also get a way out', () => {
    function Broken(): JSX.Element {
      throw new TypeError('boom');
    }
    render(
      <ChunkErrorBoundary>
        <Broken />
      </ChunkErrorBoundary>,
    );
    expect(screen.getByText('页面出错了')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /刷新页面/ })).toBeInTheDocument();
  });

  it('retry loads a page chunk again after its import failed once (a lazy page, as Umi makes them)', async () => {
    let calls = 0;
    const LazyPage = React.lazy(async () => {
      calls++;
      if (calls === 1) throw Object.assign(new Error('Loading chunk 17 failed.'), { name: 'ChunkLoadError' });
      return { default: () => <p>重试后的页面</p> };
    });
    rememberPageImports({ '17': LazyPage });
    render(
      <ChunkErrorBoundary>
        <Suspense fallback={<p>加载中</p>}>
          <LazyPage />
        </Suspense>
      </ChunkErrorBoundary>,
    );
    expect(await screen.findByText('页面资源加载失败')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    expect(await screen.findByText('重试后的页面')).toBeInTheDocument();
    expect(calls).toBe(2);
  });
});
