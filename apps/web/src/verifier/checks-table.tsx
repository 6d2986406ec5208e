// The six checks of the verify pipeline, each with what it means and its result.
import type { VerifyResult } from '@runback/verify';
import { CHECKS, resultText } from '../lib/explain.js';

export function ChecksTable(props: { result: VerifyResult }) {
  return (
    <section class="card" aria-labelledby="checks-title">
      <h2 id="checks-title">Checks</h2>
      <table class="checks">
        <thead>
          <tr>
            <th scope="col">Check</th>
            <th scope="col">What it means</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          {CHECKS.map((c) => {
            const value = props.result.checks[c.name];
            const r = resultText(value);
            return (
              <tr key={c.name} data-check={c.name} data-result={String(value)}>
                <th scope="row">{c.label}</th>
                <td>{c.explains}</td>
                <td class={`result tone-${r.tone}`}>
                  <span aria-hidden="true" class="result-icon">
                    {r.icon}
                  </span>{' '}
                  {r.word}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
