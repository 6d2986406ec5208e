// The oracle stream (docs/spec.md §4): what a replay serves, in seq order, with each key.
import { useState } from 'preact/hooks';
import { VirtualList } from '../lib/virtual-list.js';
import type { CassetteRow } from '../worker/record-index.js';
import type { RecordHandle } from './handle.js';

export function CassetteList(props: { handle: RecordHandle; onEvent: (index: number) => void }) {
  const { handle } = props;
  const [selected, setSelected] = useState<number | null>(null);
  return (
    <section class="card" aria-labelledby="cassette-title">
      <h2 id="cassette-title">
        Cassette{' '}
        <span class="muted">({handle.summary.counts.cassette.toLocaleString('en')} entries)</span>
      </h2>
      <VirtualList<CassetteRow>
        id="cassette"
        label="Cassette entries"
        count={handle.summary.counts.cassette}
        rowHeight={52}
        height={260}
        version={handle.version}
        fetchRows={(s, e) => handle.worker.rows('cassette', s, e)}
        selected={selected}
        onSelect={(i, r) => {
          setSelected(i);
          if (r !== undefined) props.onEvent(r.index);
        }}
        renderRow={(r) =>
          r === undefined ? (
            <span class="muted">…</span>
          ) : (
            <div class="cassette-row" data-cassette-key={r.key}>
              <div class="event-line">
                <span class="idx">{r.position}</span>
                <span class="type">{r.kind}</span>
                <code class="hash">{r.key}</code>
                <span class="muted">event #{r.index}</span>
              </div>
              <div class="event-sub muted">{r.output}</div>
            </div>
          )
        }
      />
    </section>
  );
}
