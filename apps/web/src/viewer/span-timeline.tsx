// The span tree beside a timeline of the run: each row one span, indented under its parent,
// with a bar from its start to its end, so parallel spans show side by side in time.
import { useState } from 'preact/hooks';
import { VirtualList } from '../lib/virtual-list.js';
import type { SpanRow } from '../worker/record-index.js';
import type { RecordHandle } from './handle.js';

export function SpanTimeline(props: { handle: RecordHandle; onEvent: (index: number) => void }) {
  const { handle } = props;
  const total = Math.max(1, handle.summary.durationMs);
  const [selected, setSelected] = useState<number | null>(null);
  return (
    <section class="card" aria-labelledby="spans-title">
      <h2 id="spans-title">
        Spans and timeline{' '}
        <span class="muted">
          ({handle.summary.counts.spans.toLocaleString('en')} spans, {handle.summary.durationMs} ms)
        </span>
      </h2>
      <div class="timeline-head" aria-hidden="true">
        <span>span</span>
        <span class="axis">
          <span>0 ms</span>
          <span>{Math.round(total / 2)} ms</span>
          <span>{total} ms</span>
        </span>
      </div>
      <VirtualList<SpanRow>
        id="spans"
        label="Span tree and timeline"
        count={handle.summary.counts.spans}
        rowHeight={30}
        height={300}
        version={handle.version}
        fetchRows={(s, e) => handle.worker.rows('spans', s, e)}
        selected={selected}
        onSelect={(i, r) => {
          setSelected(i);
          if (r?.events[0] !== undefined) props.onEvent(r.events[0]);
        }}
        renderRow={(r) =>
          r === undefined ? (
            <span class="muted">…</span>
          ) : (
            <div class="span-row" data-span={r.span} data-depth={r.depth}>
              <span
                class="span-label"
                style={{ paddingLeft: `${Math.min(r.depth, 24) * 14}px` }}
                title={r.label}
              >
                <span class={`type type-${r.type}`}>{r.type}</span> {r.label}
                {r.error && (
                  <span class="tone-fail">
                    {' '}
                    <span aria-hidden="true">⚠</span> Error
                  </span>
                )}
              </span>
              <span class="track" aria-hidden="true">
                {r.start !== null && (
                  <span
                    class={`bar type-${r.type} ${r.error ? 'bar-error' : ''}`}
                    style={{
                      left: `${(r.start / total) * 100}%`,
                      width: `max(2px, ${(((r.end ?? r.start) - r.start) / total) * 100}%)`,
                    }}
                  />
                )}
              </span>
              <span class="duration muted">
                {r.start === null ? '' : `${(r.end ?? r.start) - r.start} ms`}
              </span>
            </div>
          )
        }
      />
    </section>
  );
}
