// One event, readable: a model call as a conversation, a tool call with its arguments, an
// environment read with its key, errors in red with an icon and the word "Error".
import type { ComponentChildren } from 'preact';
import { numberText, objectOr, stringOr, type Json } from '../worker/read-members.js';
import type { EventRow } from '../worker/record-index.js';
import { ChainBadge } from './chain-badge.js';

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <figure class="json">
      <figcaption>{label}</figcaption>
      <pre>{pretty(value)}</pre>
    </figure>
  );
}

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content.map((p) => stringOr(objectOr(p)?.['text'], ''));
    if (parts.every((p) => p !== '')) return parts.join('\n');
  }
  return null;
}

function Message(props: { role: string; children: ComponentChildren }) {
  return (
    <li class={`message role-${props.role.replace(/[^a-z]/g, '')}`}>
      <span class="message-role">{props.role}</span>
      <div class="message-body">{props.children}</div>
    </li>
  );
}

function Conversation({ e }: { e: Json }) {
  const request = objectOr(e['request']) ?? {};
  const response = objectOr(e['response']);
  const messages = Array.isArray(request['messages']) ? request['messages'] : [];
  const calls = Array.isArray(response?.['tool_calls'])
    ? (response['tool_calls'] as unknown[])
    : [];
  return (
    <ol class="conversation" aria-label="Conversation">
      {request['system'] != null && (
        <Message role="system">{textOf(request['system']) ?? pretty(request['system'])}</Message>
      )}
      {messages.map((m, i) => {
        const msg = objectOr(m) ?? {};
        const text = textOf(msg['content']);
        return (
          <Message key={i} role={stringOr(msg['role'], 'message')}>
            {text ?? <pre>{pretty(msg['content'] ?? msg)}</pre>}
          </Message>
        );
      })}
      {response !== null && (
        <Message role="assistant (response)">
          {stringOr(response['text']) !== '' && <p>{stringOr(response['text'])}</p>}
          {calls.map((c, i) => {
            const call = objectOr(c) ?? {};
            return (
              <div key={i} class="tool-call">
                <span aria-hidden="true">⚙</span> calls{' '}
                <code>{stringOr(call['tool_name'], '?')}</code>
                <span class="muted"> {stringOr(call['tool_call_id'])}</span>
                <pre>{pretty(call['input'])}</pre>
              </div>
            );
          })}
          {response['finish_reason'] != null && (
            <p class="muted">
              finish reason:{' '}
              {stringOr(response['finish_reason'], pretty(response['finish_reason']))}
            </p>
          )}
        </Message>
      )}
    </ol>
  );
}

function ErrorBox({ error }: { error: unknown }) {
  const e = objectOr(error);
  if (e === null) return null;
  return (
    <div class="error-box" role="note">
      <span aria-hidden="true">⚠</span> <strong>Error</strong> {stringOr(e['name'])}
      {e['name'] != null ? ': ' : ''}
      {stringOr(e['message'], pretty(e))}
    </div>
  );
}

function Body({ e }: { e: Json }) {
  switch (e['type']) {
    case 'llm': {
      const model = objectOr(e['model']);
      const usage = objectOr(e['usage']);
      return (
        <>
          <p>
            <strong>{stringOr(model?.['provider'])}</strong> {stringOr(model?.['model_id'])} ·{' '}
            {numberText(e['latency_ms'])} ms · tokens in {numberText(usage?.['input_tokens'])}, out{' '}
            {numberText(usage?.['output_tokens'])}
          </p>
          <Conversation e={e} />
        </>
      );
    }
    case 'tool':
      return (
        <>
          <p>
            <span aria-hidden="true">⚙</span> <code>{stringOr(e['tool_name'], '?')}</code>{' '}
            <span class="muted">{stringOr(e['tool_call_id'])}</span> · {numberText(e['latency_ms'])}{' '}
            ms
          </p>
          <Json label="Arguments" value={e['input']} />
          <Json label="Output" value={e['output']} />
        </>
      );
    case 'env':
      return (
        <>
          <p>
            Environment read <code>{stringOr(e['kind'], '?')}</code>, key{' '}
            <code>{stringOr(e['key'], '?')}</code>
          </p>
          <Json label="Value read" value={e['output']} />
        </>
      );
    case 'run':
      return (
        <>
          <p>
            Run {stringOr(e['phase'])} · <strong>{stringOr(e['name'])}</strong> · status{' '}
            {stringOr(e['status'])}
          </p>
          {e['input'] !== undefined && <Json label="Input" value={e['input']} />}
          {e['output'] !== undefined && e['output'] !== null && (
            <Json label="Output" value={e['output']} />
          )}
        </>
      );
    case 'reasoning':
      return <p class="reasoning">{stringOr(e['text'], pretty(e['text']))}</p>;
    default:
      return <p class="muted">Event of a type this page does not know: shown as JSON below.</p>;
  }
}

export function EventDetail(props: { row: EventRow | undefined; event: unknown }) {
  const e = objectOr(props.event);
  if (props.row === undefined || e === null)
    return <p class="empty">Select an event to see it here.</p>;
  return (
    <article
      class="event-detail"
      aria-label={`Event ${props.row.index}`}
      data-event-detail={props.row.index}
    >
      <header>
        <h3>
          #{props.row.index} <span class={`type type-${props.row.type}`}>{props.row.type}</span>{' '}
          {props.row.title}
        </h3>
        <p class="muted">
          seq {numberText(e['seq'])} · span <code>{stringOr(e['span_id'])}</code>
          {e['parent_span_id'] != null && (
            <>
              {' '}
              in <code>{stringOr(e['parent_span_id'])}</code>
            </>
          )}{' '}
          · {stringOr(e['ts_start'])}
        </p>
      </header>
      <ErrorBox error={e['error']} />
      <Body e={e} />
      <p class="hash-line">
        <span class="muted">_hash</span> <code class="hash">{props.row.hash}</code>{' '}
        <ChainBadge status={props.row.chain} />
      </p>
      <details>
        <summary>Raw event JSON</summary>
        <pre>{pretty(e)}</pre>
      </details>
    </article>
  );
}
