// Where a verification is: reading (with bytes), verifying, indexing.
import type { Stage } from '../worker/protocol.js';

const WORDS: Record<Stage, string> = {
  read: 'Reading the record',
  hash: 'Hashing the file',
  verify: 'Verifying schema, chain, digests and signature',
  index: 'Indexing events for the viewer',
};

export interface Progress {
  readonly stage: Stage;
  readonly done: number;
  readonly total: number;
}

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

export function ProgressLine(props: { progress: Progress | null }) {
  const p = props.progress;
  return (
    <div class="progress" role="status" aria-live="polite" data-stage={p?.stage ?? 'idle'}>
      {p !== null && (
        <>
          <span class="spinner" aria-hidden="true" />
          <span>
            {WORDS[p.stage]}
            {p.total > 0 ? ` — ${mib(p.done)} of ${mib(p.total)}` : '…'}
          </span>
          <progress
            aria-label={WORDS[p.stage]}
            max={p.total > 0 ? p.total : undefined}
            value={p.total > 0 ? p.done : undefined}
          />
        </>
      )}
    </div>
  );
}
