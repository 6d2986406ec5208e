// What a dropped evidence bundle holds and whether each part checks out: the archive's
// structure, every artifact the record names (SHA-256 and size), and SHA256SUMS.
import type { BundleView } from '../worker/protocol.js';

const SUMS_TEXT: Record<BundleView['sums'], { icon: string; word: string; tone: string }> = {
  ok: { icon: '✓', word: 'every file matches SHA256SUMS', tone: 'pass' },
  mismatch: { icon: '✗', word: 'SHA256SUMS does not match the files', tone: 'fail' },
  missing: { icon: '✗', word: 'SHA256SUMS is missing', tone: 'fail' },
  unchecked: {
    icon: '–',
    word: 'SHA256SUMS was not checked (the archive was refused)',
    tone: 'fail',
  },
};

const FILE_SUMS: Record<BundleView['files'][number]['sums'], string> = {
  ok: '✓ listed',
  mismatch: '✗ not as listed',
  self: '—',
  unchecked: '– not checked',
};

export function BundlePanel(props: { bundle: BundleView }) {
  const { bundle } = props;
  const sums = SUMS_TEXT[bundle.sums];
  return (
    <section
      class="card bundle"
      aria-labelledby="bundle-title"
      data-bundle-verdict={bundle.verdict}
      data-bundle-accepted={String(bundle.accepted)}
    >
      <h2 id="bundle-title">Evidence bundle</h2>
      {bundle.root === null ? (
        <p class="tone-fail" data-bundle-refused>
          <span aria-hidden="true">✗</span> <strong>The archive was refused</strong>: it is not a
          bundle a safe reader may open. Nothing in it was extracted or trusted.
        </p>
      ) : (
        <p>
          One top-level directory <code>{bundle.root}</code> · {bundle.files.length} files ·{' '}
          {bundle.artifacts.length} artifact{bundle.artifacts.length === 1 ? '' : 's'} named by the
          record ·{' '}
          <span class={`tone-${sums.tone}`} data-sums={bundle.sums}>
            <span aria-hidden="true">{sums.icon}</span> {sums.word}
          </span>
        </p>
      )}
      {bundle.errors.length > 0 && (
        <ul class="findings">
          {bundle.errors.map((e, i) => (
            <li key={i} class="finding tone-fail" data-bundle-error-code={e.code}>
              <span aria-hidden="true">✗</span> <strong>Error</strong> <code>{e.code}</code>{' '}
              <span class="muted">({e.check})</span>
              <div>{e.message}</div>
            </li>
          ))}
        </ul>
      )}
      {bundle.notes.length > 0 && (
        <ul class="findings">
          {bundle.notes.map((n, i) => (
            <li key={i} class="finding tone-warn" data-bundle-note>
              <span aria-hidden="true">ⓘ</span> <strong>Note</strong> <div>{n}</div>
            </li>
          ))}
        </ul>
      )}
      {bundle.artifacts.length > 0 && (
        <table class="checks bundle-artifacts">
          <caption>Artifacts the signed record names</caption>
          <thead>
            <tr>
              <th scope="col">Artifact</th>
              <th scope="col">Bytes</th>
              <th scope="col">SHA-256 (as recorded)</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {bundle.artifacts.map((a) => (
              <tr key={a.name} data-artifact={a.name} data-result={String(a.ok)}>
                <th scope="row">
                  <code>{a.name}</code>
                </th>
                <td>{a.bytes.toLocaleString('en')}</td>
                <td>
                  <code class="hash">{a.sha256}</code>
                </td>
                <td class={`result tone-${a.ok ? 'pass' : 'fail'}`}>
                  <span aria-hidden="true" class="result-icon">
                    {a.ok ? '✓' : '✗'}
                  </span>{' '}
                  {a.ok ? 'matches' : 'does not match'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {bundle.files.length > 0 && (
        <details class="bundle-files">
          <summary>Files in the bundle ({bundle.files.length})</summary>
          <table class="checks">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Bytes</th>
                <th scope="col">SHA-256</th>
                <th scope="col">SHA256SUMS</th>
              </tr>
            </thead>
            <tbody>
              {bundle.files.map((f) => (
                <tr key={f.path} data-bundle-file={f.path} data-sums={f.sums}>
                  <th scope="row">
                    <code>{f.path}</code>
                  </th>
                  <td>{f.bytes.toLocaleString('en')}</td>
                  <td>
                    <code class="hash">{f.sha256}</code>
                  </td>
                  <td class={f.sums === 'mismatch' ? 'tone-fail' : ''}>{FILE_SUMS[f.sums]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}
