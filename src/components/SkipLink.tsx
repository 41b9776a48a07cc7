/**
 * 跳到主要内容: the first thing Tab reaches on every page, shown only while it has the focus (styled in
 * src/global.css). It moves the focus past the header and the side menu to the page's content, the
 * element with MAIN_CONTENT_ID (the layout's content, src/app.tsx; the sign-in pages' frame).
 */
import React from 'react';

export const MAIN_CONTENT_ID = 'main-content';

export default function SkipLink() {
  const onClick = (e: React.MouseEvent<HTMLAnchorElement>) => {
    const target = document.getElementById(MAIN_CONTENT_ID);
    if (!target) return;
    // Not the browser's jump to #main-content: that would add an entry to the app's history.
    e.preventDefault();
    target.focus();
    target.scrollIntoView?.({ block: 'start' });
  };
  return (
    <a className="portal-skip-link" href={`#${MAIN_CONTENT_ID}`} onClick={onClick}>
      跳到主要内容
    </a>
  );
}
