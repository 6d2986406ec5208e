// The errors (what failed, with codes) and notes (why a signature proves nothing yet).
import type { VerifyResult } from '@runback/verify';

export function Findings(props: { result: VerifyResult; onEvent: (index: number) => void }) {
  const { errors, notes } = props.result;
  if (errors.length === 0 && notes.length === 0) return null;
  return (
    <section class="card" aria-labelledby="findings-title">
      <h2 id="findings-title">What the verifier found</h2>
      <ul class="findings">
        {errors.map((e, i) => (
          <li key={`e${i}`} class="finding tone-fail" data-error-code={e.code}>
            <span aria-hidden="true">✗</span> <strong>Error</strong> <code>{e.code}</code>{' '}
            <span class="muted">({e.check})</span>
            <div>{e.message}</div>
            {e.event_index !== undefined && (
              <button type="button" class="link" onClick={() => props.onEvent(e.event_index!)}>
                Show event #{e.event_index}
              </button>
            )}
          </li>
        ))}
        {notes.map((n, i) => (
          <li key={`n${i}`} class="finding tone-warn" data-note-code={n.code}>
            <span aria-hidden="true">ⓘ</span> <strong>Note</strong> <code>{n.code}</code>
            <div>{n.message}</div>
          </li>
        ))}
      </ul>
    </section>
  );
}
