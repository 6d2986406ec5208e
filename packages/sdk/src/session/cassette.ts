// The recorded calls of a record, indexed for replay: by replay key (strict
// and live-on-miss modes serve equal keys first-in, first-out) and by position within kind and
// name (ordered mode serves the n-th call of a tool, model or env kind the n-th recorded one).
// Calls are taken in seq order, which is the order the agent made them (docs/spec.md §7).
//
// The index is flat (typed arrays, one row per call) because a replay holds it for the whole
// run beside the record's text: per-call objects, joined "kind\0key" strings and maps of lists
// cost several hundred bytes a call, the record itself about 500. A 64-digit hex key (an llm,
// tool or fetch key: sha256, docs/spec.md §4.4) is kept as its 32 bytes; other keys (env reads
// keyed by their kind) are few distinct strings, kept once each.
import { callName } from '@runback/diff';
import { oracleEntryOf } from '@runback/replay-digest';

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

/** Where a call table reads a call's event and output, by the event's position. */
export interface CallEvents {
  event(index: number): Readonly<Record<string, unknown>>;
  output(index: number): unknown;
}

/** What an indexing pass learns of one call. */
export interface CallFacts {
  readonly index: number;
  readonly seq: unknown;
  readonly kind: string;
  readonly name: string;
  readonly key: string;
}

/**
 * What an indexing pass keeps of event `index` when it is an oracle call: its facts and its
 * oracle entry's output. Undefined for any other event, and for one whose entry cannot be
 * formed (a verified record has none: the cassette check would have failed).
 */
export function oracleCallOf(
  event: Record<string, unknown>,
  index: number,
): { readonly facts: CallFacts; readonly output: unknown } | undefined {
  let entry;
  try {
    entry = oracleEntryOf(event);
  } catch {
    return undefined;
  }
  if (entry === null) return undefined;
  const facts = {
    index,
    seq: event['seq'],
    kind: entry.kind,
    name: callName(event),
    key: entry.key,
  };
  return { facts, output: entry.output };
}

const HEX = '0123456789abcdef';
const BYTE_HEX = Array.from({ length: 256 }, (_, b) => HEX[b >> 4]! + HEX[b & 15]!);

/** The value of a lowercase hex digit, or -1. */
function nibble(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/**
 * Writes the 32 bytes of `key` at `out[at]` when it is 64 lowercase hex digits (a sha256 key,
 * kept as its bytes), and says whether it was.
 */
function hexBytes(key: string, out: Uint8Array, at: number): boolean {
  if (key.length !== 64) return false;
  for (let b = 0; b < 32; b++) {
    const high = nibble(key.charCodeAt(2 * b));
    const low = nibble(key.charCodeAt(2 * b + 1));
    if (high === -1 || low === -1) return false;
    out[at + b] = (high << 4) | low;
  }
  return true;
}

function stringHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * A record's calls in seq order, one row each in flat arrays, with the lookups a cassette
 * starts from. Shared by every cassette of one record; never changed after it is built.
 */
export class CallTable {
  readonly size: number;
  /** The calls, in seq order (row n is calls[n]). */
  readonly calls: readonly RecordedCall[];
  readonly #events: CallEvents;
  readonly #index: Int32Array;
  readonly #seq: Float64Array;
  readonly #kind: Uint32Array;
  readonly #kinds: readonly string[];
  readonly #kindIds: ReadonlyMap<string, number>;
  readonly #group: Uint32Array;
  readonly #groupNames: readonly string[];
  /** Per kind id, its names' group ids. */
  readonly #groupIds: readonly ReadonlyMap<string, number>[];
  /** 32 bytes per row: its hex key's bytes (rows whose key is not hex: see #otherKey). */
  readonly #keyBytes: Uint8Array;
  /** Per row, -1 for a hex key, else the key's position in #otherKeys. */
  readonly #otherKey: Int32Array;
  readonly #otherKeys: readonly string[];
  /** Open addressing over (kind, key): row + 1 of each chain's first call, 0 for empty. */
  readonly slots: Int32Array;
  readonly #mask: number;
  /** The next row with the same kind and key, or -1. */
  readonly nextSameKey: Int32Array;
  /** Per kind and name group, its first row (or -1); and the next row of the same group. */
  readonly groupHeads: Int32Array;
  readonly nextSameGroup: Int32Array;
  readonly #scratch = new Uint8Array(32);

  /** `facts` in the record's event order; `events` reads them back. */
  constructor(facts: readonly CallFacts[], events: CallEvents) {
    const order = seqOrderOf(facts);
    const n = order.length;
    this.size = n;
    this.#events = events;
    this.#index = new Int32Array(n);
    this.#seq = new Float64Array(n);
    this.#kind = new Uint32Array(n);
    this.#group = new Uint32Array(n);
    this.#keyBytes = new Uint8Array(32 * n);
    this.#otherKey = new Int32Array(n);
    const kinds: string[] = [];
    const kindIds = new Map<string, number>();
    const groupNames: string[] = [];
    const groupIds: Map<string, number>[] = [];
    const otherKeys: string[] = [];
    const otherIds = new Map<string, number>();
    // Filled as rows are added: #findHex and #findOther compare against them.
    this.#kinds = kinds;
    this.#otherKeys = otherKeys;
    let capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.#mask = capacity - 1;
    this.nextSameKey = new Int32Array(n).fill(-1);
    this.nextSameGroup = new Int32Array(n).fill(-1);
    const groupTails: number[] = [];
    const groupHeads: number[] = [];
    const keyTails = new Int32Array(capacity).fill(-1);
    const calls: RecordedCall[] = [];
    for (let row = 0; row < n; row++) {
      const f = facts[order[row] as number] as CallFacts;
      this.#index[row] = f.index;
      this.#seq[row] = typeof f.seq === 'number' ? f.seq : NaN;
      let kind = kindIds.get(f.kind);
      if (kind === undefined) {
        kind = kinds.push(f.kind) - 1;
        kindIds.set(f.kind, kind);
        groupIds.push(new Map());
      }
      this.#kind[row] = kind;
      const names = groupIds[kind] as Map<string, number>;
      let group = names.get(f.name);
      if (group === undefined) {
        group = groupNames.push(f.name) - 1;
        names.set(f.name, group);
        groupHeads.push(row);
      } else {
        this.nextSameGroup[groupTails[group] as number] = row;
      }
      groupTails[group] = row;
      this.#group[row] = group;
      let slot: number;
      if (hexBytes(f.key, this.#keyBytes, 32 * row)) {
        this.#otherKey[row] = -1;
        slot = this.#findHex(kind, this.#keyBytes, 32 * row);
      } else {
        let other = otherIds.get(f.key);
        if (other === undefined) {
          other = otherKeys.push(f.key) - 1;
          otherIds.set(f.key, other);
        }
        this.#otherKey[row] = other;
        slot = this.#findOther(kind, f.key);
      }
      if (this.slots[slot] === 0) this.slots[slot] = row + 1;
      else this.nextSameKey[keyTails[slot] as number] = row;
      keyTails[slot] = row;
      calls.push(new TableCall(this, row));
    }
    this.#kindIds = kindIds;
    this.#groupNames = groupNames;
    this.#groupIds = groupIds;
    this.groupHeads = Int32Array.from(groupHeads);
    this.calls = calls;
  }

  /** The table of a parsed record's oracle events (others are skipped). */
  static ofEvents(events: readonly unknown[]): CallTable {
    const facts: CallFacts[] = [];
    const outputs: unknown[] = [];
    for (let index = 0; index < events.length; index++) {
      const call = oracleCallOf(events[index] as Record<string, unknown>, index);
      if (call === undefined) continue;
      facts.push(call.facts);
      outputs[index] = call.output;
    }
    return new CallTable(facts, {
      event: (i) => events[i] as Record<string, unknown>,
      output: (i) => outputs[i],
    });
  }

  index(row: number): number {
    return this.#index[row] as number;
  }

  seq(row: number): number {
    return this.#seq[row] as number;
  }

  kind(row: number): string {
    return this.#kinds[this.#kind[row] as number] as string;
  }

  name(row: number): string {
    return this.#groupNames[this.#group[row] as number] as string;
  }

  key(row: number): string {
    const other = this.#otherKey[row] as number;
    if (other !== -1) return this.#otherKeys[other] as string;
    let key = '';
    for (let b = 0; b < 32; b++) key += BYTE_HEX[this.#keyBytes[32 * row + b] as number];
    return key;
  }

  event(row: number): Readonly<Record<string, unknown>> {
    return this.#events.event(this.#index[row] as number);
  }

  output(row: number): unknown {
    return this.#events.output(this.#index[row] as number);
  }

  /** Whether row `row` is of kind id `kind`. */
  isKind(row: number, kind: number): boolean {
    return this.#kind[row] === kind;
  }

  kindId(kind: string): number | undefined {
    return this.#kindIds.get(kind);
  }

  groupId(kind: string, name: string): number | undefined {
    const id = this.#kindIds.get(kind);
    return id === undefined ? undefined : this.#groupIds[id]?.get(name);
  }

  /** The slot of the chain of calls with this kind and key, or -1 without one. */
  slotOf(kind: string, key: string): number {
    const id = this.#kindIds.get(kind);
    if (id === undefined) return -1;
    const slot = hexBytes(key, this.#scratch, 0)
      ? this.#findHex(id, this.#scratch, 0)
      : this.#findOther(id, key);
    return this.slots[slot] === 0 ? -1 : slot;
  }

  /** The row of `call` in this table, or -1 when it is not one of its calls. */
  rowOf(call: RecordedCall): number {
    if (call instanceof TableCall && call.table === this) return call.row;
    return this.calls.indexOf(call);
  }

  /** The slot holding the chain of (kind, the hex key whose bytes are at bytes[at]), or the empty slot where it would go. */
  #findHex(kind: number, bytes: Uint8Array, at: number): number {
    const hash =
      (((bytes[at] as number) << 24) |
        ((bytes[at + 1] as number) << 16) |
        ((bytes[at + 2] as number) << 8) |
        (bytes[at + 3] as number)) >>>
      0;
    let slot = (hash ^ Math.imul(kind + 1, 0x9e3779b1)) & this.#mask;
    for (;;) {
      const head = this.slots[slot] as number;
      if (head === 0) return slot;
      const row = head - 1;
      if (this.#kind[row] === kind && this.#otherKey[row] === -1) {
        const from = 32 * row;
        let b = 0;
        while (b < 32 && this.#keyBytes[from + b] === bytes[at + b]) b++;
        if (b === 32) return slot;
      }
      slot = (slot + 1) & this.#mask;
    }
  }

  /** The slot holding the chain of (kind, a key that is not hex), or the empty slot where it would go. */
  #findOther(kind: number, key: string): number {
    let slot = (stringHash(key) ^ Math.imul(kind + 1, 0x9e3779b1)) & this.#mask;
    for (;;) {
      const head = this.slots[slot] as number;
      if (head === 0) return slot;
      const row = head - 1;
      const other = this.#otherKey[row] as number;
      if (this.#kind[row] === kind && other !== -1 && this.#otherKeys[other] === key) return slot;
      slot = (slot + 1) & this.#mask;
    }
  }
}

/** Positions of `facts` sorted as seqOrder sorts events: by seq, a seq that is not a number last, ties by position. */
function seqOrderOf(facts: readonly CallFacts[]): number[] {
  const seqOf = (f: CallFacts) =>
    typeof f.seq === 'number' && !Number.isNaN(f.seq) ? f.seq : Infinity;
  const order = facts.map((_, i) => i);
  // Writers append in seq order, so the list is almost always sorted already.
  let sorted = true;
  for (let i = 1; i < facts.length && sorted; i++) {
    sorted = seqOf(facts[i - 1] as CallFacts) <= seqOf(facts[i] as CallFacts);
  }
  if (sorted) return order;
  return order.sort((a, b) => {
    const sa = seqOf(facts[a] as CallFacts);
    const sb = seqOf(facts[b] as CallFacts);
    return sa === sb
      ? (facts[a] as CallFacts).index - (facts[b] as CallFacts).index
      : sa < sb
        ? -1
        : 1;
  });
}

/** One row of a call table, read from it. */
class TableCall implements RecordedCall {
  /** @internal */
  readonly table: CallTable;
  /** @internal */
  readonly row: number;

  constructor(table: CallTable, row: number) {
    this.table = table;
    this.row = row;
  }

  get index(): number {
    return this.table.index(this.row);
  }

  get seq(): number {
    return this.table.seq(this.row);
  }

  get kind(): string {
    return this.table.kind(this.row);
  }

  get name(): string {
    return this.table.name(this.row);
  }

  get key(): string {
    return this.table.key(this.row);
  }

  get output(): unknown {
    return this.table.output(this.row);
  }

  get event(): Readonly<Record<string, unknown>> {
    return this.table.event(this.row);
  }
}

/** The recorded calls of one record, each served at most once. */
export class RecordedCassette {
  readonly #table: CallTable;
  readonly #used: Uint8Array;
  /** Per key chain and per group, the row before which every call is served: takes stay O(1) amortised. */
  readonly #keyHeads: Int32Array;
  readonly #groupHeads: Int32Array;

  /**
   * The calls of `source`: a table (a record read from its bytes: stored-events.ts), or the
   * oracle events of a parsed, verified record (others are skipped).
   */
  constructor(source: CallTable | readonly unknown[]) {
    this.#table = source instanceof CallTable ? source : CallTable.ofEvents(source);
    this.#used = new Uint8Array(this.#table.size);
    this.#keyHeads = this.#table.slots.slice();
    this.#groupHeads = this.#table.groupHeads.slice();
  }

  get calls(): readonly RecordedCall[] {
    return this.#table.calls;
  }

  /** Takes the first unserved call of this kind with this key. */
  takeByKey(kind: string, key: string): RecordedCall | undefined {
    const slot = this.#table.slotOf(kind, key);
    if (slot === -1) return undefined;
    const row = this.#first((this.#keyHeads[slot] as number) - 1, this.#table.nextSameKey);
    if (row === -1) return undefined;
    this.#keyHeads[slot] = row + 1;
    return this.#take(row);
  }

  /** Takes the first unserved call of this kind and name, whatever its key. */
  takeByPosition(kind: string, name: string): RecordedCall | undefined {
    const group = this.#table.groupId(kind, name);
    if (group === undefined) return undefined;
    const row = this.#first(this.#groupHeads[group] as number, this.#table.nextSameGroup);
    if (row === -1) return undefined;
    this.#groupHeads[group] = row;
    return this.#take(row);
  }

  /** The recorded call a missed call most likely stands for: the next unserved one of its kind and name, else of its kind. */
  nearest(kind: string, name: string): RecordedCall | undefined {
    const group = this.#table.groupId(kind, name);
    if (group !== undefined) {
      const row = this.#first(this.#groupHeads[group] as number, this.#table.nextSameGroup);
      if (row !== -1) return this.#table.calls[row];
    }
    const id = this.#table.kindId(kind);
    if (id === undefined) return undefined;
    for (let row = 0; row < this.#table.size; row++) {
      if (this.#used[row] === 0 && this.#table.isKind(row, id)) return this.#table.calls[row];
    }
    return undefined;
  }

  /** Takes this very call (one recorded inside a served tool's body); false if already served. */
  takeCall(call: RecordedCall): boolean {
    const row = this.#table.rowOf(call);
    if (row === -1 || this.#used[row] === 1) return false;
    this.#used[row] = 1;
    return true;
  }

  /** Calls never served. */
  unserved(): RecordedCall[] {
    return this.#table.calls.filter((_, row) => this.#used[row] === 0);
  }

  /** The first unserved row from `row` along `next`, or -1. */
  #first(row: number, next: Int32Array): number {
    let r = row;
    while (r !== -1 && this.#used[r] === 1) r = next[r] as number;
    return r;
  }

  #take(row: number): RecordedCall {
    this.#used[row] = 1;
    return this.#table.calls[row] as RecordedCall;
  }
}
