/**
 * antd's Table for a table wider than a phone: it scrolls sideways inside its own area (never the page),
 * and that area is a named region the keyboard can reach (Tab, then the arrow keys scroll it). Without
 * that, a table with nothing focusable in it (a list of sessions where only the current one is left)
 * cannot be scrolled without a mouse or a finger: axe's scrollable-region-focusable (WCAG 2.1.1).
 */
import { Table, type TableProps } from 'antd';
import { useEffect, useRef } from 'react';

export default function ScrollTable<T extends object>({ label, ...props }: TableProps<T> & { label: string }) {
  const box = useRef<HTMLDivElement>(null);
  // antd makes the scrolling element itself and takes no props for it; it leaves these attributes alone.
  // Every render: antd may replace the element (e.g. when the table goes from empty to filled).
  useEffect(() => {
    const scroller = box.current?.querySelector('.ant-table-content, .ant-table-body');
    if (!scroller) return;
    scroller.setAttribute('tabindex', '0');
    scroller.setAttribute('role', 'region');
    scroller.setAttribute('aria-label', label);
  });
  return (
    <div ref={box}>
      <Table<T> scroll={{ x: 'max-content' }} {...props} />
    </div>
  );
}
