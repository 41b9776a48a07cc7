/**
 * The header's search icon, and Ctrl+K (⌘K on a Mac) from anywhere in the shell: both open the search
 * dialog, whose code (and the pinyin of the menu) loads the first time it is opened.
 */
import type { CurrentUser } from '@/contract';
import { SearchOutlined } from '@ant-design/icons';
import { lazy, Suspense, useEffect, useState } from 'react';

const SearchDialog = lazy(() => import('./SearchDialog'));

export default function SearchButton({ currentUser }: { currentUser: CurrentUser }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on (and kept: it remembers nothing while closed).
  const [wanted, setWanted] = useState(false);
  const show = () => {
    setWanted(true);
    setOpen(true);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        show();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <button
        type="button"
        aria-label="搜索"
        title="搜索（Ctrl+K）"
        aria-keyshortcuts="Control+K Meta+K"
        aria-haspopup="dialog"
        onClick={show}
        style={{
          display: 'inline-flex',
          alignItems: 'center',
          padding: 4,
          border: 0,
          background: 'none',
          color: 'inherit',
          cursor: 'pointer',
          font: 'inherit',
        }}
      >
        <SearchOutlined aria-hidden style={{ fontSize: 16 }} />
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <SearchDialog open={open} currentUser={currentUser} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
