// Tokens and latency summed per model.
import type { ModelTotal } from '../worker/record-index.js';

export function ModelTotals(props: { models: readonly ModelTotal[] }) {
  return (
    <section class="card" aria-labelledby="models-title">
      <h2 id="models-title">Models</h2>
      {props.models.length === 0 ? (
        <p class="empty">No model calls in this run.</p>
      ) : (
        <table class="numbers">
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Calls</th>
              <th scope="col">Input tokens</th>
              <th scope="col">Output tokens</th>
              <th scope="col">Total tokens</th>
              <th scope="col">Latency (sum)</th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            {props.models.map((m) => (
              <tr key={m.model} data-model={m.model}>
                <th scope="row">{m.model}</th>
                <td>{m.calls.toLocaleString('en')}</td>
                <td>{m.inputTokens.toLocaleString('en')}</td>
                <td>{m.outputTokens.toLocaleString('en')}</td>
                <td data-total-tokens={m.totalTokens}>{m.totalTokens.toLocaleString('en')}</td>
                <td>{m.latencyMs.toLocaleString('en')} ms</td>
                <td>{m.errors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
