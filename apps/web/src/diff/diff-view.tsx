// Two records side by side through @runback/diff's diffRecords, the function `runback diff`
// prints: what the runs were asked and answered, aligned step by step.
import type { RecordDiff } from '@runback/diff';
import { useState } from 'preact/hooks';
import { VERDICT_TEXT } from '../lib/explain.js';
import type { VerifierWorker } from '../lib/worker-client.js';
import type { DiffSide, Trust } from '../worker/protocol.js';
import { ChangeTable } from './change-table.js';
import { StepCard } from './step-card.js';

const SHOWN = 500;

function Picker(props: { side: 'a' | 'b'; file: File | null; onFile: (f: File) => void }) {
  const label = props.side === 'a' ? 'Record A (baseline)' : 'Record B (candidate)';
  return (
    <div
      class="dropzone"
      data-dropzone={`diff-${props.side}`}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const f = e.dataTransfer?.files[0];
        if (f !== undefined) props.onFile(f);
      }}
    >
      <p class="drop-hint">
        <strong>{label}</strong>
      </p>
      <label class="button" for={`diff-file-${props.side}`}>
        Choose {props.side.toUpperCase()}…
      </label>
      <input
        id={`diff-file-${props.side}`}
        class="visually-hidden"
        type="file"
        accept=".json,application/json,text/plain"
        onChange={(e) => {
          const input = e.currentTarget;
          const f = input.files?.[0];
          if (f !== undefined) props.onFile(f);
          input.value = '';
        }}
      />
      <p class="muted">{props.file?.name ?? 'or drop a file here'}</p>
    </div>
  );
}

function SideFacts(props: { label: string; side: DiffSide }) {
  const v = VERDICT_TEXT[props.side.verdict];
  return (
    <div class="side-facts" data-diff-side={props.label} data-side-verdict={props.side.verdict}>
      <h3>
        {props.label}: {props.side.name || props.side.file.name}
      </h3>
      <p class={`verdict-chip verdict-${props.side.verdict}`}>
        <span aria-hidden="true">{v.icon}</span> {v.word}
      </p>
      <p class="muted">
        {props.side.file.name} · run <code>{props.side.runId}</code> · {props.side.status} ·{' '}
        {props.side.events} events
      </p>
    </div>
  );
}

function Summary({ diff }: { diff: RecordDiff }) {
  const c = diff.counts;
  return (
    <p class={diff.equal ? 'tone-pass' : 'tone-warn'} data-diff-equal={String(diff.equal)}>
      <span aria-hidden="true">{diff.equal ? '=' : '≠'}</span>{' '}
      <strong>{diff.equal ? 'No semantic difference.' : 'The runs differ.'}</strong>{' '}
      <span data-diff-counts={`${c.same} ${c.changed} ${c.added} ${c.removed}`}>
        {c.same} same, {c.changed} changed, {c.added} only in B, {c.removed} only in A
      </span>
    </p>
  );
}

export function DiffView(props: { worker: VerifierWorker; trust: Trust }) {
  const [a, setA] = useState<File | null>(null);
  const [b, setB] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<{ a: DiffSide; b: DiffSide; diff: RecordDiff } | null>(null);

  const compare = (fa: File, fb: File) => {
    setBusy(true);
    setFailure(null);
    void props.worker
      .diff(
        { kind: 'file', file: fa, name: fa.name },
        { kind: 'file', file: fb, name: fb.name },
        props.trust,
      )
      .then((response) => {
        setBusy(false);
        if (response.type === 'diffed')
          setResult({ a: response.a, b: response.b, diff: response.diff });
        else if (response.type === 'failed') {
          setResult(null);
          setFailure(`${response.code}: ${response.message}`);
        }
      });
  };
  const pick = (side: 'a' | 'b') => (f: File) => {
    const na = side === 'a' ? f : a;
    const nb = side === 'b' ? f : b;
    if (side === 'a') setA(f);
    else setB(f);
    if (na !== null && nb !== null) compare(na, nb);
  };

  const d = result?.diff;
  return (
    <div class="stack">
      <section class="card" aria-labelledby="diff-title">
        <h2 id="diff-title">Compare two runs</h2>
        <p class="muted">
          The same comparison as <code>runback diff A B</code>: ids, timestamps, latency, hashes and
          provider-generated ids are ignored; steps are aligned so an inserted step shows once.
        </p>
        <div class="two-sides">
          <Picker side="a" file={a} onFile={pick('a')} />
          <Picker side="b" file={b} onFile={pick('b')} />
        </div>
        <div class="progress" role="status" aria-live="polite" data-stage={busy ? 'diff' : 'idle'}>
          {busy && (
            <>
              <span class="spinner" aria-hidden="true" /> Comparing…
            </>
          )}
        </div>
        {failure !== null && (
          <p class="tone-fail" role="alert" data-failure>
            <span aria-hidden="true">✗</span> {failure}
          </p>
        )}
      </section>
      {result !== null && d !== undefined && (
        <>
          <section class="card" aria-labelledby="diff-result-title">
            <h2 id="diff-result-title">Result</h2>
            <div class="two-sides">
              <SideFacts label="A" side={result.a} />
              <SideFacts label="B" side={result.b} />
            </div>
            <Summary diff={d} />
            {d.run.status !== null && (
              <p data-run-status-change>
                Run status: <code>{String(d.run.status.a)}</code> →{' '}
                <code>{String(d.run.status.b)}</code>
              </p>
            )}
            <ChangeTable label="Run input" changes={d.run.input} />
            <ChangeTable label="Run output" changes={d.run.output} />
            <ChangeTable label="Run error" changes={d.run.error} />
          </section>
          {d.steps.length > 0 && (
            <section class="card" aria-labelledby="diff-steps-title">
              <h2 id="diff-steps-title">Steps that differ ({d.steps.length})</h2>
              {d.steps.length > SHOWN && (
                <p class="tone-warn">
                  <span aria-hidden="true">⚠</span> Showing the first {SHOWN} of {d.steps.length}{' '}
                  steps.
                </p>
              )}
              <ol class="steps">
                {d.steps.slice(0, SHOWN).map((s, i) => (
                  <StepCard key={i} step={s} />
                ))}
              </ol>
            </section>
          )}
          {d.models.length > 0 && (
            <section class="card" aria-labelledby="diff-models-title">
              <h2 id="diff-models-title">Models: tokens and latency, A → B</h2>
              <table class="numbers">
                <thead>
                  <tr>
                    <th scope="col">Model</th>
                    <th scope="col">Calls</th>
                    <th scope="col">Total tokens</th>
                    <th scope="col">Latency</th>
                  </tr>
                </thead>
                <tbody>
                  {d.models.map((m) => (
                    <tr key={m.model} data-diff-model={m.model}>
                      <th scope="row">{m.model}</th>
                      <td>
                        {m.a.calls} → {m.b.calls}
                      </td>
                      <td>
                        {m.a.total_tokens} → {m.b.total_tokens} (
                        {signed(m.b.total_tokens - m.a.total_tokens)})
                      </td>
                      <td>
                        {m.a.latency_ms} → {m.b.latency_ms} ms (
                        {signed(m.b.latency_ms - m.a.latency_ms)})
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
        </>
      )}
    </div>
  );
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}
