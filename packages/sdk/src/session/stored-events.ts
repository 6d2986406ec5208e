// A verified record's events kept as the text they were verified in, each parsed when it is
// read: a replay indexes every recorded call once (its kind, name, key and seq), keeps nothing
// parsed, and parses a call's event again only when it is served or compared. The record is
// then held once, as its bytes, instead of as an object graph several times its size.
import { oracleEntryOf } from '@runback/replay-digest';
import { captureOfKinds, type CaptureEnvOptions } from './capture-settings.js';
import { CallTable, oracleCallOf, type CallEvents, type CallFacts } from './cassette.js';
import { recordSpans } from './record-spans.js';

/** Event texts by position (a record's, or a run's as it sealed them). */
export interface EventTexts {
  readonly length: number;
  /** The JSON text of event `i`. */
  text(i: number): string;
}

/** A record's events, as spans of its text. */
export class StoredEvents implements EventTexts {
  readonly #text: string;
  readonly #spans: Uint32Array;

  /** `spans`: start, end pairs into `text` (recordSpans' `events`). */
  constructor(text: string, spans: readonly number[]) {
    this.#text = text;
    this.#spans = Uint32Array.from(spans);
  }

  /** The events of a whole record's text. */
  static of(text: string): StoredEvents {
    return new StoredEvents(text, recordSpans(text).events);
  }

  get length(): number {
    return this.#spans.length / 2;
  }

  text(i: number): string {
    return this.#text.slice(this.#spans[2 * i], this.#spans[2 * i + 1]);
  }

  /** Event `i`, parsed anew. */
  event(i: number): Record<string, unknown> {
    return JSON.parse(this.text(i)) as Record<string, unknown>;
  }
}

/**
 * A record's events read as calls: each event parsed when served, once (the hooks read a served
 * call's event more than once: the last one parsed is kept until another is asked for).
 */
class StoredCallEvents implements CallEvents {
  readonly #events: StoredEvents;
  #lastIndex = -1;
  #last: Record<string, unknown> | undefined;

  constructor(events: StoredEvents) {
    this.#events = events;
  }

  event(index: number): Record<string, unknown> {
    if (index !== this.#lastIndex || this.#last === undefined) {
      this.#last = this.#events.event(index);
      this.#lastIndex = index;
    }
    return this.#last;
  }

  output(index: number): unknown {
    return oracleEntryOf(this.event(index))?.output;
  }
}

/** What one pass over a record's events learns. */
export interface StoredRecordIndex {
  /** The oracle calls in seq order (the cassette's order: docs/spec.md §7). */
  readonly calls: CallTable;
  /** The first run-start and run-end events. */
  readonly start: Readonly<Record<string, unknown>> | undefined;
  readonly end: Readonly<Record<string, unknown>> | undefined;
  /** The environment capture the record's events call for (what captureOf computes from parsed events). */
  readonly capture: CaptureEnvOptions;
  /** One `{type: 'llm', model}` per distinct model provider, for recordedProviders. */
  readonly models: readonly Record<string, unknown>[];
}

/**
 * Parses every event once and keeps only what serving needs: each oracle call's kind, name,
 * key and seq (as RecordedCassette indexes them; an event whose entry cannot be formed is
 * skipped as there), the run's start and end events, and the env kinds and providers used.
 */
export function indexStoredEvents(events: StoredEvents): StoredRecordIndex {
  const calls: CallFacts[] = [];
  const kinds = new Set<string>();
  const providers = new Map<unknown, Record<string, unknown>>();
  let start: Record<string, unknown> | undefined;
  let end: Record<string, unknown> | undefined;
  for (let index = 0; index < events.length; index++) {
    const event = events.event(index);
    const type = event['type'];
    if (type === 'run') {
      if (event['phase'] === 'start') start ??= event;
      else if (event['phase'] === 'end') end ??= event;
    } else if (type === 'env') {
      kinds.add(String(event['kind']));
    } else if (type === 'llm') {
      const model = event['model'];
      const provider =
        typeof model === 'object' && model !== null
          ? (model as Record<string, unknown>)['provider']
          : undefined;
      if (!providers.has(provider)) providers.set(provider, { type: 'llm', model });
    }
    const call = oracleCallOf(event, index);
    if (call !== undefined) calls.push(call.facts);
  }
  return {
    calls: new CallTable(calls, new StoredCallEvents(events)),
    start,
    end,
    capture: captureOfKinds(kinds, providers.size > 0),
    models: [...providers.values()],
  };
}
