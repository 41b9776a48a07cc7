/**
 * The header's search: pages and menu entries (by name, pinyin and initials) at once, and each kind the
 * user may see (sources.ts) from its module's own search endpoint as the words settle (200 ms; a newer
 * search aborts the one in flight), grouped by kind. A combobox over a listbox: ↑ ↓ move, Enter opens,
 * Esc closes; while the box is empty it offers the user's recent searches (recent.ts).
 */
import access from '@/access';
import type { CurrentUser } from '@/contract';
import { SEARCH_LIMIT, SEARCH_MAX_LENGTH } from '@/contract/search';
import { SearchOutlined } from '@ant-design/icons';
import { useNavigate } from '@umijs/max';
import { useDebounce } from 'ahooks';
import { Button, Input, Modal, Spin, theme, type InputRef } from 'antd';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { allowedPages, matchPages } from './pages';
import { forgetSearches, recentSearches, rememberSearch } from './recent';
import { ask, SOURCES, type ResultItem } from './sources';

export const DEBOUNCE_MS = 200;

interface Row extends Omit<ResultItem, 'path'> {
  path: string | null;
  /** A recent search: choosing it puts its words back into the box. */
  fill?: string;
}

interface Group {
  kind: string;
  label: string;
  status: 'loading' | 'done' | 'error';
  rows: Row[];
}

type Remote = Record<string, { status: Group['status']; rows: Row[] }>;

function SearchPanel({ currentUser, onClose }: { currentUser: CurrentUser; onClose: () => void }) {
  const flags = useMemo(() => access({ currentUser }), [currentUser]);
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const listId = useId();
  const inputRef = useRef<InputRef>(null);
  const [text, setText] = useState('');
  const q = text.trim();
  const settled = useDebounce(q, { wait: DEBOUNCE_MS });
  const [remote, setRemote] = useState<Remote>({});
  const [recent, setRecent] = useState(() => recentSearches(currentUser.uid));
  const [active, setActive] = useState(0);

  const pages = useMemo(() => allowedPages(flags), [flags]);
  const sources = useMemo(() => SOURCES.filter((s) => s.allowed(flags)), [flags]);

  useEffect(() => {
    if (!settled) {
      setRemote({});
      return;
    }
    const controller = new AbortController();
    setRemote(Object.fromEntries(sources.map((s) => [s.kind, { status: 'loading', rows: [] }])));
    for (const source of sources) {
      ask(source, settled, controller.signal)
        .then((rows) => setRemote((r) => ({ ...r, [source.kind]: { status: 'done', rows } })))
        .catch(() => {
          if (!controller.signal.aborted) setRemote((r) => ({ ...r, [source.kind]: { status: 'error', rows: [] } }));
        });
    }
    return () => controller.abort();
  }, [settled, sources]);

  const groups: Group[] = useMemo(() => {
    if (!q) {
      return recent.length === 0
        ? []
        : [
            {
              kind: 'recent',
              label: '最近搜索',
              status: 'done',
              rows: recent.map((r) => ({ key: `recent-${r}`, title: r, detail: null, path: null, fill: r })),
            },
          ];
    }
    const pageRows = matchPages(pages, q, SEARCH_LIMIT).map((p) => ({
      key: `page-${p.path}`,
      title: p.trail.join(' / '),
      detail: p.path,
      path: p.path,
    }));
    const out: Group[] = pageRows.length ? [{ kind: 'pages', label: '页面', status: 'done', rows: pageRows }] : [];
    // Until the words settle, the kinds are still to be asked: shown as searching, not as empty.
    for (const s of sources) {
      const got = q === settled ? remote[s.kind] : undefined;
      const status = got?.status ?? 'loading';
      if (status === 'done' && got!.rows.length === 0) continue;
      out.push({ kind: s.kind, label: s.label, status, rows: got?.rows ?? [] });
    }
    return out;
  }, [q, settled, recent, pages, sources, remote]);

  const rows = groups.flatMap((g) => g.rows);
  const searching = groups.some((g) => g.status === 'loading');
  useEffect(() => setActive(0), [q]);
  const current = rows[Math.min(active, rows.length - 1)];
  const optionId = (row: Row) => `${listId}-${row.key}`;

  useEffect(() => {
    if (current) document.getElementById(optionId(current))?.scrollIntoView?.({ block: 'nearest' });
  });

  const choose = (row: Row | undefined) => {
    if (!row) return;
    if (row.fill !== undefined) {
      setText(row.fill);
      inputRef.current?.focus();
      return;
    }
    rememberSearch(currentUser.uid, q);
    onClose();
    navigate(row.path!);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (rows.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (Math.min(i, rows.length - 1) + step + rows.length) % rows.length);
    } else if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      e.preventDefault();
      choose(current);
    }
  };

  let status: string;
  if (!q) status = recent.length ? '最近搜索' : '';
  else if (searching) status = '正在搜索…';
  else if (rows.length === 0) status = `没有找到与“${q}”相关的结果`;
  else status = `找到 ${rows.length} 条结果`;

  return (
    <div>
      <Input
        ref={inputRef}
        autoFocus
        size="large"
        value={text}
        maxLength={SEARCH_MAX_LENGTH}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        prefix={<SearchOutlined aria-hidden />}
        placeholder="搜索页面、消息、查询记录、令牌……"
        allowClear
        role="combobox"
        aria-label="搜索内容"
        aria-autocomplete="list"
        aria-expanded={rows.length > 0}
        aria-controls={groups.length > 0 ? listId : undefined}
        aria-activedescendant={current ? optionId(current) : undefined}
      />
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, margin: '8px 0', minHeight: 22 }}>
        {searching && <Spin size="small" />}
        <div role="status" style={{ color: token.colorTextSecondary }}>
          {status}
        </div>
      </div>
      {!q && recent.length === 0 && (
        <p style={{ color: token.colorTextSecondary }}>
          输入页面名称（支持拼音和首字母，如 zd 找到“账单”），或消息标题、令牌名称等。按 Ctrl+K（Mac 上 ⌘K）随时打开。
        </p>
      )}
      {groups.length > 0 && (
        <div role="listbox" id={listId} aria-label="搜索结果" style={{ maxHeight: '60vh', overflowY: 'auto' }}>
          {groups.map((g) => (
            <div role="group" key={g.kind} aria-label={g.label}>
              <div
                aria-hidden
                style={{ padding: '6px 8px 2px', fontSize: 12, color: token.colorTextSecondary, fontWeight: 600 }}
              >
                {g.label}
                {g.status === 'loading' && ' · 搜索中…'}
                {g.status === 'error' && ' · 暂时无法搜索'}
              </div>
              {g.rows.map((row) => {
                const selected = row === current;
                return (
                  <div
                    key={row.key}
                    id={optionId(row)}
                    role="option"
                    aria-selected={selected}
                    onMouseDown={(e) => e.preventDefault()}
                    onMouseEnter={() => setActive(rows.indexOf(row))}
                    onClick={() => choose(row)}
                    style={{
                      padding: '6px 8px',
                      borderRadius: token.borderRadius,
                      cursor: 'pointer',
                      background: selected ? token.controlItemBgActive : undefined,
                      overflowWrap: 'anywhere',
                    }}
                  >
                    <div>{row.title}</div>
                    {row.detail && <div style={{ fontSize: 12, color: token.colorTextSecondary }}>{row.detail}</div>}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      )}
      {!q && recent.length > 0 && (
        <Button
          type="link"
          size="small"
          style={{ paddingInline: 0, marginTop: 4 }}
          onClick={() => {
            forgetSearches(currentUser.uid);
            setRecent([]);
            inputRef.current?.focus();
          }}
        >
          清除最近搜索
        </Button>
      )}
    </div>
  );
}

export default function SearchDialog(props: { open: boolean; currentUser: CurrentUser; onClose: () => void }) {
  return (
    <Modal
      open={props.open}
      onCancel={props.onClose}
      title="搜索"
      footer={null}
      width={640}
      style={{ top: 64 }}
      destroyOnHidden
    >
      <SearchPanel currentUser={props.currentUser} onClose={props.onClose} />
    </Modal>
  );
}
