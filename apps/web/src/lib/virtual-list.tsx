// A virtualised, keyboard-operable list: only the rows in view (plus a margin) are in the DOM,
// and rows are fetched from the worker a page at a time, so 100k rows scroll smoothly.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

const PAGE = 200;
const OVERSCAN = 12;

export interface VirtualListProps<T> {
  readonly id: string;
  readonly label: string;
  readonly count: number;
  readonly rowHeight: number;
  readonly height: number;
  readonly fetchRows: (start: number, end: number) => Promise<T[]>;
  readonly renderRow: (row: T | undefined, index: number, selected: boolean) => ComponentChildren;
  readonly selected: number | null;
  readonly onSelect: (index: number, row: T | undefined) => void;
  /** Scrolls this index into view when it changes. */
  readonly scrollTo?: number | null;
  readonly rowClass?: (row: T | undefined, index: number) => string;
  /** Changes when the rows behind the list change, dropping what was fetched. */
  readonly version: number;
}

export function VirtualList<T>(props: VirtualListProps<T>) {
  const { count, rowHeight } = props;
  // Short lists take only the room they need; long ones scroll inside props.height.
  const height = Math.max(rowHeight * 2, Math.min(props.height, count * rowHeight + 2));
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const pages = useRef(new Map<number, T[]>());
  const asked = useRef(new Set<number>());
  const [, setTick] = useState(0);

  useEffect(() => {
    pages.current = new Map();
    asked.current = new Set();
    setTick((t) => t + 1);
  }, [props.version]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);

  useEffect(() => {
    for (let p = Math.floor(first / PAGE); p * PAGE < last; p++) {
      if (asked.current.has(p)) continue;
      asked.current.add(p);
      const version = props.version;
      void props.fetchRows(p * PAGE, Math.min(count, (p + 1) * PAGE)).then((rows) => {
        if (version !== props.version) return;
        pages.current.set(p, rows);
        setTick((t) => t + 1);
      });
    }
  });

  useLayoutEffect(() => {
    const target = props.scrollTo;
    const el = box.current;
    if (target == null || el === null) return;
    const top = target * rowHeight;
    if (top < el.scrollTop || top + rowHeight > el.scrollTop + height) {
      el.scrollTop = Math.max(0, top - height / 3);
      setScrollTop(el.scrollTop);
    }
  }, [props.scrollTo, count]);

  const rowAt = (i: number) => pages.current.get(Math.floor(i / PAGE))?.[i % PAGE];
  const move = (to: number) => {
    const index = Math.max(0, Math.min(count - 1, to));
    props.onSelect(index, rowAt(index));
    const el = box.current;
    if (el === null) return;
    const top = index * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + height) el.scrollTop = top + rowHeight - height;
  };
  const onKey = (event: KeyboardEvent) => {
    const at = props.selected ?? -1;
    const perPage = Math.max(1, Math.floor(height / rowHeight) - 1);
    const keys: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      PageDown: at + perPage,
      PageUp: at - perPage,
      Home: 0,
      End: count - 1,
    };
    const to = keys[event.key];
    if (to === undefined || count === 0) return;
    event.preventDefault();
    move(to);
  };

  const items = [];
  for (let i = first; i < last; i++) {
    const row = rowAt(i);
    const selected = props.selected === i;
    items.push(
      <div
        key={i}
        id={`${props.id}-row-${i}`}
        role="option"
        aria-selected={selected}
        data-index={i}
        class={`vrow ${selected ? 'selected' : ''} ${props.rowClass?.(row, i) ?? ''}`}
        style={{ top: `${i * rowHeight}px`, height: `${rowHeight}px` }}
        onClick={() => props.onSelect(i, row)}
      >
        {props.renderRow(row, i, selected)}
      </div>,
    );
  }

  return (
    <div
      ref={box}
      id={props.id}
      class="vlist"
      role="listbox"
      tabIndex={0}
      aria-label={props.label}
      aria-activedescendant={
        props.selected !== null && props.selected >= first && props.selected < last
          ? `${props.id}-row-${props.selected}`
          : undefined
      }
      data-count={count}
      style={{ height: `${height}px` }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={onKey}
    >
      <div class="vlist-space" role="none" style={{ height: `${count * rowHeight}px` }}>
        {items}
      </div>
    </div>
  );
}
