// The three ways to give the page a record: drop a file (a record, or a bundle from
// `runback bundle`), choose one, or paste its text.
import { useState } from 'preact/hooks';
import type { Source } from '../worker/protocol.js';

export function SourceInput(props: { onSource: (source: Source) => void; busy: boolean }) {
  const [dragging, setDragging] = useState(false);
  const [text, setText] = useState('');
  const fromFiles = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file !== undefined) props.onSource({ kind: 'file', file, name: file.name });
  };
  return (
    <section class="card source" aria-labelledby="source-title">
      <h2 id="source-title">Record</h2>
      <div
        class={`dropzone ${dragging ? 'dragging' : ''}`}
        data-dropzone="record"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          fromFiles(e.dataTransfer?.files);
        }}
      >
        <p class="drop-hint">
          <span aria-hidden="true" class="drop-icon">
            ⇩
          </span>{' '}
          Drop a record or an evidence bundle (.tar.gz) here, or
        </p>
        <label class="button primary" for="record-file">
          Choose a file…
        </label>
        <input
          id="record-file"
          class="visually-hidden"
          type="file"
          accept=".json,.gz,.tgz,application/json,application/gzip,text/plain"
          disabled={props.busy}
          onChange={(e) => {
            const input = e.currentTarget;
            fromFiles(input.files);
            // Cleared, so that choosing the same file again (after editing it) reads it anew.
            input.value = '';
          }}
        />
      </div>
      <details class="paste">
        <summary>Paste the record’s JSON instead</summary>
        <label for="record-text" class="field-label">
          Record JSON
        </label>
        <textarea
          id="record-text"
          rows={6}
          spellcheck={false}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button
          type="button"
          class="button"
          disabled={props.busy || text.trim() === ''}
          onClick={() => props.onSource({ kind: 'text', text, name: 'pasted text' })}
        >
          Verify pasted text
        </button>
      </details>
      <p class="privacy">Everything runs in this page: the record never leaves your machine.</p>
    </section>
  );
}
