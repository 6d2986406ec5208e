// Server-sent events, parsed as the provider clients parse them (openai and @anthropic-ai/sdk
// share one decoder): lines end at CRLF, LF or CR; a blank line dispatches the event if it has
// an `event` or any `data`; `data` lines join with "\n"; one space after the colon is dropped;
// comment lines (":") and `id`/`retry` fields carry nothing a client reads. An event the stream
// ends in the middle of is dropped, as the clients drop it.
import { parseJsonOr } from './json.js';

/**
 * One event as `response.chunks` stores it: `data` is the parsed JSON, or the raw text when it
 * is not JSON (OpenAI's closing `[DONE]`) or is a JSON string. `event` is absent when the server
 * sent no name.
 */
export interface SseEvent {
  readonly event?: string;
  readonly data: unknown;
}

const LF = 10;
const CR = 13;

/** An incremental parser: feed it the body's bytes as they arrive. */
export class SseParser {
  // Not fatal: invalid UTF-8 becomes U+FFFD, as the clients' own decoders do.
  readonly #decoder = new TextDecoder();
  #buffer = '';
  #event: string | undefined;
  #data: string[] = [];

  /** The events completed by `bytes`. */
  push(bytes: Uint8Array): SseEvent[] {
    return this.#scan(this.#decoder.decode(bytes, { stream: true }), false);
  }

  /** The events completed at the end of the body. */
  end(): SseEvent[] {
    return this.#scan(this.#decoder.decode(), true);
  }

  #scan(text: string, final: boolean): SseEvent[] {
    const buffer = this.#buffer + text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const code = buffer.charCodeAt(i);
      if (code !== LF && code !== CR) continue;
      // A CR that ends the text so far may be the first half of a CRLF split across chunks.
      if (code === CR && i === buffer.length - 1 && !final) break;
      this.#line(buffer.slice(start, i), events);
      if (code === CR && buffer.charCodeAt(i + 1) === LF) i++;
      start = i + 1;
    }
    this.#buffer = buffer.slice(start);
    if (final) {
      if (this.#buffer !== '') this.#line(this.#buffer, events);
      this.#buffer = '';
    }
    return events;
  }

  #line(line: string, events: SseEvent[]): void {
    if (line === '') {
      if (this.#event !== undefined || this.#data.length > 0) events.push(this.#dispatch());
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.#event = value;
    else if (field === 'data') this.#data.push(value);
  }

  #dispatch(): SseEvent {
    const text = this.#data.join('\n');
    const event = this.#event;
    this.#event = undefined;
    this.#data = [];
    // JSON text that is a string (`"hi"`) stays text, so that serving it back writes the quotes.
    const parsed = parseJsonOr(text, text);
    const data = typeof parsed === 'string' ? text : parsed;
    return event === undefined ? { data } : { event, data };
  }
}

/**
 * The wire text of one stored event, as the providers frame it: an `event:` line when it is
 * named, the data (JSON, or the text itself when it is a string, such as `[DONE]`) as one
 * `data:` line per line of it, a blank line. The clients parse it back to the same event.
 */
export function formatSseEvent(event: SseEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  const lines = data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}${lines}\n`;
}
