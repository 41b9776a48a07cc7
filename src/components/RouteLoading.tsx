/**
 * What the page area shows while a page's code is on its way (Umi renders src/loading.tsx while a
 * route's chunk loads): a progress bar at the top at once, and after SLOW_AFTER_MS a word that it is
 * slow with 重试, which loads the page anew. (A chunk that fails, or outlasts webpack's 120 s
 * chunkLoadTimeout, is ChunkErrorBoundary's.) Plain elements styled by src/global.css: this is part
 * of umi.js, the first download of every page.
 */
import React, { useEffect, useState } from 'react';

export const SLOW_AFTER_MS = 8000;

export default function RouteLoading({ onRetry = () => window.location.reload() }: { onRetry?: () => void }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <>
      <div className="portal-route-progress" role="progressbar" aria-label="页面加载中" />
      {/* A live region from the start, so a screen reader announces the text when it appears. */}
      <div role="status" className="portal-plain-state">
        {slow && (
          <>
            <p>加载较慢，网络可能不太稳定，请稍候或重试。</p>
            <button type="button" className="portal-plain-button portal-plain-button-primary" onClick={onRetry}>
              重试
            </button>
          </>
        )}
      </div>
    </>
  );
}
