// A verified record's events kept as the text they were verified in, each parsed when it is
// read: a replay indexes every recorded call once (its kind, name, key and seq), keeps nothing
// parsed, and parses a call's event again only when it is served or compared. The record is
// then held once, as its bytes, instead of as an object graph several times its size.
import { callName } from '@runback/diff';
import { oracleEntryOf } from '@runback/replay-digest';
import type { CaptureEnvOptions } from './capture-settings.js';
import type { RecordedCall } from './cassette.js';
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
  readonly #spans: readonly number[];

  /** `spans`: start, end pairs into `text` (recordSpans' `events`). */
  constructor(text: string, spans: readonly number[]) {
    this.#text = text;
    this.#spans = spans;
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

/** A recorded call whose event is parsed from the record's text each time it is read. */
class StoredCall implements RecordedCall {
  readonly index: number;
  readonly seq: number;
  readonly kind: string;
  readonly name: string;
  readonly key: string;
  readonly #events: StoredEvents;

  constructor(
    events: StoredEvents,
    index: number,
    facts: Omit<RecordedCall, 'index' | 'event' | 'output'>,
  ) {
    this.#events = events;
    this.index = index;
    this.seq = facts.seq;
    this.kind = facts.kind;
    this.name = facts.name;
    this.key = facts.key;
  }

  get event(): Readonly<Record<string, unknown>> {
    return this.#events.event(this.index);
  }

  get output(): unknown {
    return oracleEntryOf(this.event)?.output;
  }
}

/** What one pass over a record's events learns. */
export interface StoredRecordIndex {
  /** The oracle calls in seq order (the cassette's order: docs/spec.md §7). */
  readonly calls: readonly RecordedCall[];
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
  const calls: StoredCall[] = [];
  const names = new Map<string, string>();
  const intern = (s: string) => {
    const known = names.get(s);
    if (known !== undefined) return known;
    if (names.size < 4096) names.set(s, s);
    return s;
  };
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
    let entry;
    try {
      entry = oracleEntryOf(event);
    } catch {
      continue; // a verified record has none: the cassette check would have failed
    }
    if (entry === null) continue;
    calls.push(
      new StoredCall(events, index, {
        seq: event['seq'] as number,
        kind: intern(entry.kind),
        name: intern(callName(event)),
        key: entry.key,
      }),
    );
  }
  return {
    calls: inSeqOrder(calls),
    start,
    end,
    capture: {
      now: kinds.has('now'),
      date: kinds.has('date'),
      random: kinds.has('random'),
      uuid: kinds.has('uuid'),
      fetch: kinds.has('fetch'),
      clock: kinds.has('clock'),
      providers: providers.size > 0,
    },
    models: [...providers.values()],
  };
}

/**
 * Calls sorted as seqOrder sorts events (by seq, a seq that is not a number last, ties by
 * position): writers append in seq order, so the list is almost always sorted already.
 */
function inSeqOrder(calls: StoredCall[]): StoredCall[] {
  const seqOf = (call: StoredCall) =>
    typeof call.seq === 'number' && !Number.isNaN(call.seq) ? call.seq : Infinity;
  let sorted = true;
  for (let i = 1; i < calls.length && sorted; i++) {
    sorted = seqOf(calls[i - 1] as StoredCall) <= seqOf(calls[i] as StoredCall);
  }
  if (sorted) return calls;
  return calls.sort((a, b) => {
    const sa = seqOf(a);
    const sb = seqOf(b);
    return sa === sb ? a.index - b.index : sa < sb ? -1 : 1;
  });
}
