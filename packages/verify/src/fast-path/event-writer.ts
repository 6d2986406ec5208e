// Writes the canonical form (docs/spec.md §2) of the event the reader read last, as UTF-8,
// into one buffer reused from event to event (past the ranges kept for the cassette, see
// keep), just after the previous chain hash (§3), so one hash call covers both. A container
// canonical as written is one copy of its input span; any other is written item by item with
// its members sorted by name and only the tokens not in canonical form reprinted. Every step
// is linear in the event's size at any depth.
//
// Almost all of the output is text copied from the input, and pieces that follow each other
// in the input often follow each other in the output too (a member's name, its colon and its
// value; a closing bracket after the last value). So pieces are not copied one at a time: the
// writer keeps one pending input span and extends it while the next piece continues it (for a
// single character, while the input holds that character next), copying only when it breaks.
import { unitAt } from './canonical-tokens.js';
import { DECLINED, parseToken } from './declined.js';
import type { EventReader } from './event-reader.js';
import { HASH_KEY } from './event-reader.js';
import { grown } from './grown.js';
import { MemberOrder } from './member-order.js';

/** Bytes reserved before each event's output for the previous chain hash (64 hex digits). */
export const HEAD = 64;
/** Spans up to this long are copied four bytes at a time (cheaper than making a view). */
const SHORT_COPY = 128;

const encoder = new TextEncoder();

/** Whether text[s, e) (an unescaped name) is one the cassette reads (docs/spec.md §4). */
export function isCassetteMember(text: string, s: number, e: number): boolean {
  switch (e - s) {
    case 5:
      return text.startsWith('input', s);
    case 6:
      return text.startsWith('output', s);
    case 7:
      return text.startsWith('request', s);
    case 8:
      return text.startsWith('response', s);
    default:
      return false;
  }
}

export class EventWriter {
  readonly #text: string;
  readonly #reader: EventReader;
  readonly #ascii: Uint8Array | undefined;
  readonly #asciiView: DataView | undefined;
  /** The output: HEAD bytes for the previous hash, then the event's canonical UTF-8. */
  out: Uint8Array;
  #outView: DataView;
  /** Where the current event's HEAD bytes start (earlier output is kept). */
  base = 0;
  #p = HEAD;
  // The pending input span text[#cs, #ce), not yet copied (#ce -1: none).
  #cs = -1;
  #ce = -1;
  /** For the event's own members (when it was rewritten): where their values were written. */
  outStart = new Int32Array(256);
  outEnd = new Int32Array(256);
  /** Whether the last event was written member by member (else as one copy). */
  rewritten = false;
  // Scratch for member orders and their sort keys, a stack of regions (nested objects sort
  // while outer ones wait).
  #ids = new Int32Array(256);
  #order = new Int32Array(256);
  #orderTop = 0;
  readonly #sorter = new MemberOrder();

  /**
   * `ascii`, when given, holds the text's characters as bytes (it is all ASCII). `size`: the
   * output buffer's first size.
   */
  constructor(reader: EventReader, ascii: Uint8Array | undefined, size = 1 << 16) {
    this.out = new Uint8Array(Math.max(size, 1 << 16));
    this.#outView = new DataView(this.out.buffer);
    this.#text = reader.text;
    this.#reader = reader;
    this.#ascii = ascii;
    this.#asciiView =
      ascii === undefined ? undefined : new DataView(ascii.buffer, ascii.byteOffset, ascii.length);
  }

  /**
   * Writes the read event's canonical form without _hash at base + HEAD; returns the
   * output's end.
   */
  writeEvent(): number {
    this.#reserve(HEAD);
    this.#p = this.base + HEAD;
    this.#cs = -1;
    this.#ce = -1;
    this.#orderTop = 0;
    this.rewritten = false;
    const items = this.#reader.items;
    if (this.outStart.length < items) {
      let size = this.outStart.length * 2;
      while (size < items) size *= 2;
      this.outStart = new Int32Array(size);
      this.outEnd = new Int32Array(size);
    }
    this.#writeNode(0, true);
    this.#flush();
    return this.#p;
  }

  /**
   * Writes h_{k-1} (64 hex digits, docs/spec.md §3) into the HEAD bytes before the event;
   * `at` >= 0 says the text holds the same digits there.
   */
  writeHead(head: string, at: number): void {
    const base = this.base;
    const ascii = this.#asciiView;
    if (at < 0 || ascii === undefined) {
      encoder.encodeInto(head, this.out.subarray(base, base + HEAD));
      return;
    }
    const to = this.#outView;
    for (let d = 0; d < HEAD; d += 4) to.setInt32(base + d, ascii.getInt32(at + d, true), true);
  }

  /**
   * Keeps out[s, e) (a range of the current event's output) after the output kept so far;
   * returns where it now starts. The next event is written after everything kept. Ranges of
   * one event are kept in ascending order, so each move only overwrites bytes already used.
   */
  keep(s: number, e: number): number {
    const at = this.base;
    if (at !== s) this.out.copyWithin(at, s, e);
    this.base = at + e - s;
    return at;
  }

  /** Writes node `node`'s canonical form (the event's without _hash when `isEvent`). */
  #writeNode(node: number, isEvent: boolean): void {
    const r = this.#reader;
    const start = r.nStart[node] as number;
    const end = r.nEnd[node] as number;
    if (r.nVerbatim[node] === 1) {
      if (!isEvent) return this.#span(start, end);
      const first = r.nHead[node] as number;
      const after = r.nAfter[node] as number;
      if (first === after || !this.#isHash(first)) return this.#span(start, end);
      const second = r.nextItem(first);
      this.#byte(0x7b /* { */);
      if (second === after) return this.#byte(0x7d);
      return this.#span((r.ns[second] as number) - 1, end);
    }
    if (r.nArray[node] === 1) {
      this.#byte(0x5b);
      const head = r.nHead[node] as number;
      const after = r.nAfter[node] as number;
      for (let m = head; m < after; m = r.nextItem(m)) {
        if (m !== head) this.#byte(0x2c);
        this.#writeValue(m);
      }
      return this.#byte(0x5d);
    }
    if (isEvent) this.rewritten = true;
    this.#writeObject(node, isEvent);
  }

  #writeObject(node: number, isEvent: boolean): void {
    const text = this.#text;
    const r = this.#reader;
    const ns = r.ns;
    const ne = r.ne;
    // The members, sorted by name, in a region of the order scratch.
    const base = this.#orderTop;
    let count = 0;
    let anyEscaped = false;
    const after = r.nAfter[node] as number;
    for (let m = r.nHead[node] as number; m < after; m = r.nextItem(m)) {
      if (base + count === this.#order.length) {
        this.#ids = grown(this.#ids, new Int32Array(this.#ids.length * 2));
        this.#order = grown(this.#order, new Int32Array(this.#order.length * 2));
      }
      this.#ids[base + count++] = m;
      if (r.nEscaped[m] === 1) anyEscaped = true;
    }
    this.#orderTop = base + count;
    const order = this.#order;
    let decoded: Map<number, string> | undefined;
    if (anyEscaped) {
      const keys = new Map<number, string>();
      for (let q = 0; q < count; q++) {
        const m = this.#ids[base + q] as number;
        keys.set(m, r.nEscaped[m] === 1 ? this.#decodedName(m) : text.slice(ns[m], ne[m]));
      }
      decoded = keys;
      const sorted = Array.from(this.#ids.subarray(base, base + count)).sort((a, b) => {
        const x = keys.get(a) as string;
        const y = keys.get(b) as string;
        return x < y ? -1 : x > y ? 1 : 0;
      });
      for (let q = 0; q < count; q++) {
        order[base + q] = sorted[q] as number;
        if (q > 0 && keys.get(sorted[q - 1] as number) === keys.get(sorted[q] as number))
          throw DECLINED;
      }
    } else {
      this.#sorter.sort(text, this.#ids, order, base, count, ns, ne, this.#ascii);
    }
    this.#byte(0x7b);
    let written = 0;
    for (let q = 0; q < count; q++) {
      const m = order[base + q] as number;
      if (isEvent && (decoded === undefined ? this.#isHash(m) : decoded.get(m) === HASH_KEY)) {
        this.outStart[m] = -2;
        continue;
      }
      if (written++ > 0) this.#byte(0x2c);
      if (r.nEscaped[m] === 1) {
        this.#string(JSON.stringify(decoded?.get(m)));
      } else {
        this.#span((ns[m] as number) - 1, (ne[m] as number) + 1);
      }
      this.#byte(0x3a);
      if (isEvent) {
        // Only the values the cassette may read, and that are not canonical as written, need
        // their output positions.
        const child = r.vNode[m] as number;
        if (
          (child < -1 || (child >= 0 && r.nVerbatim[child] === 0)) &&
          r.nEscaped[m] === 0 &&
          isCassetteMember(text, ns[m] as number, ne[m] as number)
        ) {
          this.#flush();
          this.outStart[m] = this.#p;
          this.#writeValue(m);
          this.#flush();
          this.outEnd[m] = this.#p;
          continue;
        }
        this.outStart[m] = -3;
      }
      this.#writeValue(m);
    }
    this.#byte(0x7d);
    this.#orderTop = base;
  }

  #writeValue(m: number): void {
    const r = this.#reader;
    const child = r.vNode[m] as number;
    if (child >= 0) return this.#writeNode(child, false);
    if (child < -1) return this.#string(r.tokens[-2 - child] as string);
    this.#span(r.vs[m] as number, r.ve[m] as number);
  }

  /**
   * Whether item `m` of the event is named _hash (compared after unescaping). The reader
   * noted the one written plainly (a second one declines the event as a duplicate).
   */
  #isHash(m: number): boolean {
    const r = this.#reader;
    if (r.nEscaped[m] === 1) return this.#decodedName(m) === HASH_KEY;
    return m === r.hashItem;
  }

  #decodedName(m: number): string {
    const r = this.#reader;
    return parseToken(this.#text.slice((r.ns[m] as number) - 1, (r.ne[m] as number) + 1));
  }

  // Output -------------------------------------------------------------------------------

  /** Appends text[s, e): extends the pending span when it continues it. */
  #span(s: number, e: number): void {
    if (s === this.#ce) {
      this.#ce = e;
      return;
    }
    this.#flush();
    this.#cs = s;
    this.#ce = e;
  }

  /** Appends an ASCII character: extends the pending span when the text holds it next. */
  #byte(b: number): void {
    const ce = this.#ce;
    if (ce >= 0 && unitAt(this.#text, this.#ascii, ce) === b) {
      this.#ce = ce + 1;
      return;
    }
    this.#flush();
    this.#reserve(1);
    this.out[this.#p++] = b;
  }

  /** Appends the UTF-8 of a reprinted token. */
  #string(s: string): void {
    this.#flush();
    this.#reserve(s.length * 3);
    this.#p += encoder.encodeInto(s, this.out.subarray(this.#p)).written;
  }

  /** Copies the pending span's UTF-8 to the output. */
  #flush(): void {
    const s = this.#cs;
    const e = this.#ce;
    if (e < 0) return;
    this.#cs = -1;
    this.#ce = -1;
    const length = e - s;
    const ascii = this.#ascii;
    if (ascii !== undefined) {
      this.#reserve(length);
      let p = this.#p;
      this.#p = p + length;
      if (length > SHORT_COPY) {
        this.out.set(ascii.subarray(s, e), p);
        return;
      }
      if (length < 4) {
        const out = this.out;
        for (let i = s; i < e; i++) out[p++] = ascii[i] as number;
        return;
      }
      // Four bytes at a time through DataViews (unaligned access); the last four bytes again
      // (overlapping) instead of a tail loop.
      const from = this.#asciiView as DataView;
      const to = this.#outView;
      const last = e - 4;
      for (let i = s; i < last; i += 4, p += 4) to.setInt32(p, from.getInt32(i, true), true);
      to.setInt32(this.#p - 4, from.getInt32(last, true), true);
      return;
    }
    this.#reserve(length * 3);
    if (length > 64) {
      this.#p += encoder.encodeInto(this.#text.slice(s, e), this.out.subarray(this.#p)).written;
      return;
    }
    const text = this.#text;
    const out = this.out;
    let p = this.#p;
    for (let i = s; i < e; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        out[p++] = c;
      } else if (c < 0x800) {
        out[p++] = 0xc0 | (c >> 6);
        out[p++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < e) {
        // A surrogate pair (the text holds no lone surrogates).
        const u = 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
        out[p++] = 0xf0 | (u >> 18);
        out[p++] = 0x80 | ((u >> 12) & 0x3f);
        out[p++] = 0x80 | ((u >> 6) & 0x3f);
        out[p++] = 0x80 | (u & 0x3f);
      } else {
        out[p++] = 0xe0 | (c >> 12);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
      }
    }
    this.#p = p;
  }

  #reserve(bytes: number): void {
    if (this.#p + bytes <= this.out.length) return;
    let size = this.out.length * 2;
    while (size < this.#p + bytes) size *= 2;
    const out = new Uint8Array(size);
    out.set(this.out.subarray(0, this.#p));
    this.out = out;
    this.#outView = new DataView(out.buffer);
  }
}
