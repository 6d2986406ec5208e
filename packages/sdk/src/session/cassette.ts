// The recorded calls of a record, indexed for replay: by replay key (strict
// and live-on-miss modes serve equal keys first-in, first-out) and by position within kind and
// name (ordered mode serves the n-th call of a tool, model or env kind the n-th recorded one).
// Calls are taken in seq order, which is the order the agent made them (docs/spec.md §7).
import { callName } from '@runback/diff';
import { oracleEntryOf, seqOrder } from '@runback/replay-digest';

/** One recorded model, tool or environment call. */
export interface RecordedCall {
  /** The event's position in the record's `events`. */
  readonly index: number;
  readonly seq: number;
  /** `llm`, `tool`, or the env kind (`now`, `fetch`, …). */
  readonly kind: string;
  /** Model id, tool name, or the env kind. */
  readonly name: string;
  readonly key: string;
  /** The oracle entry's output: what replay serves, and what the cassette digest covers. */
  readonly output: unknown;
  /** The recorded event. */
  readonly event: Readonly<Record<string, unknown>>;
}

/** The recorded calls of one record, each served at most once. */
export class RecordedCassette {
  readonly #byKey = new Map<string, RecordedCall[]>();
  readonly #byName = new Map<string, RecordedCall[]>();
  readonly #used = new Set<RecordedCall>();
  /** Per list, the index before which every call is served: takes stay O(1) amortised. */
  readonly #cursor = new Map<RecordedCall[], number>();
  readonly calls: readonly RecordedCall[];

  /**
   * Indexes the oracle events of `events` (a verified record's; others are skipped), or, given
   * `indexed`, those calls (already in seq order: a record read from its bytes, whose events
   * are parsed when read: stored-events.ts).
   */
  constructor(events: readonly unknown[], indexed?: readonly RecordedCall[]) {
    const calls: RecordedCall[] = indexed === undefined ? [] : indexed.slice();
    for (const index of indexed === undefined ? seqOrder(events) : []) {
      const event = events[index] as Record<string, unknown>;
      let entry;
      try {
        entry = oracleEntryOf(event);
      } catch {
        continue; // a verified record has none: the cassette check would have failed
      }
      if (entry === null) continue;
      const call: RecordedCall = {
        index,
        seq: event['seq'] as number,
        kind: entry.kind,
        name: callName(event),
        key: entry.key,
        output: entry.output,
        event,
      };
      calls.push(call);
    }
    for (const call of calls) {
      push(this.#byKey, `${call.kind}\u0000${call.key}`, call);
      push(this.#byName, `${call.kind}\u0000${call.name}`, call);
    }
    this.calls = calls;
  }

  /** Takes the first unserved call of this kind with this key. */
  takeByKey(kind: string, key: string): RecordedCall | undefined {
    return this.#take(this.#byKey.get(`${kind}\u0000${key}`));
  }

  /** Takes the first unserved call of this kind and name, whatever its key. */
  takeByPosition(kind: string, name: string): RecordedCall | undefined {
    return this.#take(this.#byName.get(`${kind}\u0000${name}`));
  }

  /** The recorded call a missed call most likely stands for: the next unserved one of its kind and name, else of its kind. */
  nearest(kind: string, name: string): RecordedCall | undefined {
    const same = this.#byName.get(`${kind}\u0000${name}`)?.find((c) => !this.#used.has(c));
    return same ?? this.calls.find((c) => c.kind === kind && !this.#used.has(c));
  }

  /** Takes this very call (one recorded inside a served tool's body); false if already served. */
  takeCall(call: RecordedCall): boolean {
    if (this.#used.has(call)) return false;
    this.#used.add(call);
    return true;
  }

  /** Calls never served. */
  unserved(): RecordedCall[] {
    return this.calls.filter((c) => !this.#used.has(c));
  }

  #take(list: RecordedCall[] | undefined): RecordedCall | undefined {
    if (list === undefined) return undefined;
    let i = this.#cursor.get(list) ?? 0;
    while (i < list.length && this.#used.has(list[i] as RecordedCall)) i++;
    this.#cursor.set(list, i);
    const call = list[i];
    if (call !== undefined) this.#used.add(call);
    return call;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
