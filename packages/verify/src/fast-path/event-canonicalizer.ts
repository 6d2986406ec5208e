// The events array of a record's JSON text, element by element, canonicalized straight from
// the text (docs/spec.md §2) in one linear pass per event, whatever the member order and
// whitespace, and hashed into the event chain (§3) as it goes.
//
// Each event is read once into a table of its containers and their items (member name spans,
// value spans), noting which containers are canonical as written (no whitespace, names
// unescaped and in ascending UTF-16 order, every token in canonical form, every child
// canonical). Its canonical form (without `_hash`) is then written as UTF-8 into one reusable
// buffer: a canonical container is one copy of its input span; any other is written item by
// item with its members sorted by name and only the tokens not in canonical form reprinted
// (numbers not in Number::toString form, strings with escapes JSON.stringify does not write,
// escaped member names). Every step is linear in the event's size at any depth, and nothing of
// an event outlives it except its hash and the texts of the members the cassette reads (§4.3),
// so no value is serialized twice.
//
// An event is offered ("proven") only when the pass also showed that no object in it repeats a
// member name (compared after unescaping) and no number in it overflows: the strict reader's
// pre-scan then steps over it (docs/spec.md §6). The pass reads the text as valid JSON; what it
// finds is used only once parseJsonStrict has accepted the same text. On anything unexpected
// (a syntax error, a duplicate name, nesting past the reader's limit) it declines the event,
// which the general path then serializes from the parsed value; it ends on any text.
import { sha256Hex } from '@runback/canonical';
import { DEFAULT_MAX_DEPTH } from '../json/types.js';
import {
  canonicalNumberEnd,
  compareSpans,
  isStringifyUnicodeEscape,
  sortsAfter,
} from './canonical-tokens.js';
import { grown } from './grown.js';
import { skipValue, skipWhitespace } from './lexer.js';

const HASH_KEY = '_hash';
/** Containers deeper than this decline the event (the strict reader's limit, plus the record). */
const MAX_FRAMES = DEFAULT_MAX_DEPTH + 2;
/** Objects with more members than this are sorted with Array.prototype.sort. */
const INSERTION_SORT_MAX = 16;
/** The members whose canonical texts the cassette reads (docs/spec.md §4). */
const CASSETTE_MEMBERS = ['request', 'response', 'input', 'output'];
/** Spans up to this long are copied byte by byte (cheaper than making a view). */
const SHORT_COPY = 48;
/** Where the event's bytes start in the output buffer: the previous hash (64 hex) comes first. */
const HEAD = 64;

/** Where each event lies in the text and, for proven ones, what the chain and cassette need. */
export interface CanonicalizerResult {
  readonly count: number;
  /** Index of each event's first character (its `{` when it is an object). */
  readonly starts: Int32Array;
  /** Index just after each event's last character. */
  readonly ends: Int32Array;
  /** For proven events: how many member names they write, at every depth. */
  readonly names: Int32Array;
  /** For proven events: how deep they nest (1 for an object holding no containers). */
  readonly depths: Int32Array;
  /** 1 where the event is proven. */
  readonly proven: Uint8Array;
  /**
   * h_k for the first `chained` events: sha256_hex(h_{k-1} + canonical(event k without
   * _hash)), from h_0 = "" (all of them proven).
   */
  readonly hashes: readonly string[];
  readonly chained: number;
  /** For event k, its top-level members are member[firstMember[k] .. firstMember[k+1]). */
  readonly firstMember: Int32Array;
  /** Each top-level member's unescaped name as text[memberNameStart, memberNameEnd); -1: escaped. */
  readonly memberNameStart: Int32Array;
  readonly memberNameEnd: Int32Array;
  /**
   * The member value's canonical text: text[memberValueStart, memberValueEnd) when
   * memberText is -1, texts[memberText] when >= 0, unknown when -2.
   */
  readonly memberValueStart: Int32Array;
  readonly memberValueEnd: Int32Array;
  readonly memberText: Int32Array;
  readonly texts: readonly string[];
}

/** A token the text writes in a form canonical form does not: the event is declined. */
class Declined extends Error {}
const DECLINED = new Declined();

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Canonicalizes the elements of an events array. `ascii`, when given, is the UTF-8 input the
 * text was decoded from and holds only ASCII (so indexes coincide): spans are copied from it.
 */
export class EventCanonicalizer {
  readonly #text: string;
  readonly #ascii: Uint8Array | undefined;
  #count = 0;
  #starts: Int32Array;
  #ends: Int32Array;
  #names: Int32Array;
  #depths: Int32Array;
  #proven: Uint8Array;
  readonly #hashes: string[] = [];
  #chained = 0;
  #head = '';
  #firstMember: Int32Array;
  #memberCount = 0;
  #mNameStart: Int32Array;
  #mNameEnd: Int32Array;
  #mValueStart: Int32Array;
  #mValueEnd: Int32Array;
  #mText: Int32Array;
  readonly #texts: string[] = [];
  // The next backslash at or after the scan position (text.length when none): strings are
  // looked into only when one lies inside them. Kept across events, declined ones included.
  #nextBackslash = -1;
  // What the last #stringEnd call found: whether the string holds a backslash, and whether
  // all its escapes are ones JSON.stringify writes.
  #lastEscaped = false;
  #lastCanonical = true;

  // Per open container, by depth inside the event (1: the event): its node, and the previous
  // member name of an object that is still canonical (start -1: none yet).
  readonly #fNode = new Int32Array(MAX_FRAMES + 1);
  readonly #fPrevStart = new Int32Array(MAX_FRAMES + 1);
  readonly #fPrevEnd = new Int32Array(MAX_FRAMES + 1);
  // The event's containers (nodes): text span, array or object, canonical as written, and
  // their items as a linked list.
  #nStart = new Int32Array(64);
  #nEnd = new Int32Array(64);
  #nArray = new Uint8Array(64);
  #nVerbatim = new Uint8Array(64);
  #nHead = new Int32Array(64);
  #nTail = new Int32Array(64);
  #nodes = 0;
  // The event's items: name text[ns, ne) (ns -1 for array elements, escaped names flagged),
  // value text[vs, ve), a child node (vNode >= 0) or a reprinted token (vTok >= 0).
  #ns = new Int32Array(256);
  #ne = new Int32Array(256);
  #nEscaped = new Uint8Array(256);
  #vs = new Int32Array(256);
  #ve = new Int32Array(256);
  #vNode = new Int32Array(256);
  #vTok = new Int32Array(256);
  #next = new Int32Array(256);
  #outStart = new Int32Array(256);
  #outEnd = new Int32Array(256);
  // Each name's first two code units as one number (see prefixKey), to sort by.
  #key = new Float64Array(256);
  #items = 0;
  readonly #tokens: string[] = [];
  // Scratch for member orders, a stack of regions (nested objects sort while outer ones wait).
  #order = new Int32Array(256);
  #orderTop = 0;
  // The output: HEAD bytes for the previous hash, then the event's canonical UTF-8.
  #out = new Uint8Array(1 << 16);
  #p = HEAD;

  constructor(text: string, ascii?: Uint8Array) {
    this.#text = text;
    // A plain view (a Buffer's subarray is slower to make), when indexes coincide.
    this.#ascii =
      ascii !== undefined && ascii.length === text.length
        ? new Uint8Array(ascii.buffer, ascii.byteOffset, ascii.length)
        : undefined;
    // Sized for events of about 500 characters and 14 members, so that a large record grows
    // its tables once or not at all.
    const events = Math.max(64, Math.ceil(text.length / 512));
    this.#starts = new Int32Array(events);
    this.#ends = new Int32Array(events);
    this.#names = new Int32Array(events);
    this.#depths = new Int32Array(events);
    this.#proven = new Uint8Array(events);
    this.#firstMember = new Int32Array(events + 1);
    const members = events * 16;
    this.#mNameStart = new Int32Array(members);
    this.#mNameEnd = new Int32Array(members);
    this.#mValueStart = new Int32Array(members);
    this.#mValueEnd = new Int32Array(members);
    this.#mText = new Int32Array(members);
  }

  /** Scans from just after the array's `[`; null when the text is not as expected. */
  scanArray(at: number): CanonicalizerResult | null {
    const text = this.#text;
    let i = skipWhitespace(text, at);
    if (text.charCodeAt(i) === 0x5d /* ] */) return this.#result();
    for (;;) {
      if (this.#count === this.#ends.length) this.#growEvents();
      const k = this.#count++;
      this.#starts[k] = i;
      this.#firstMember[k] = this.#memberCount;
      let end = -1;
      if (text.charCodeAt(i) === 0x7b /* { */) {
        try {
          end = this.#readEvent(i, k);
        } catch (err) {
          if (!(err instanceof Declined)) throw err;
          end = -1;
        }
      }
      if (end < 0) {
        // Declined: the general path serializes it from the parsed value; the chain from
        // here on is the chain step's.
        this.#memberCount = this.#firstMember[k];
        this.#proven[k] = 0;
        end = skipValue(text, i);
        if (end < 0) return null;
      } else {
        this.#proven[k] = 1;
      }
      this.#ends[k] = end;
      i = skipWhitespace(text, end);
      const c = text.charCodeAt(i);
      if (c === 0x5d) return this.#result();
      if (c !== 0x2c /* , */) return null;
      i = skipWhitespace(text, i + 1);
    }
  }

  /**
   * canonical(event without _hash) of the event whose `{` is at `at`, as a string, or
   * undefined when it is declined (the chain and cassette use the hashes and member texts;
   * this is for callers that want the text itself).
   */
  eventText(at: number): string | undefined {
    this.#nextBackslash = -1;
    try {
      this.#read(at);
      this.#p = HEAD;
      this.#orderTop = 0;
      this.#writeNode(0, true);
      return decoder.decode(this.#out.subarray(HEAD, this.#p));
    } catch (err) {
      if (err instanceof Declined) return undefined;
      throw err;
    }
  }

  #result(): CanonicalizerResult {
    this.#firstMember[this.#count] = this.#memberCount;
    return {
      count: this.#count,
      starts: this.#starts,
      ends: this.#ends,
      names: this.#names,
      depths: this.#depths,
      proven: this.#proven,
      hashes: this.#hashes,
      chained: this.#chained,
      firstMember: this.#firstMember,
      memberNameStart: this.#mNameStart,
      memberNameEnd: this.#mNameEnd,
      memberValueStart: this.#mValueStart,
      memberValueEnd: this.#mValueEnd,
      memberText: this.#mText,
      texts: this.#texts,
    };
  }

  /** Reads, writes and hashes event k at `at`; returns the index just after it. */
  #readEvent(at: number, k: number): number {
    const read = this.#read(at);
    this.#names[k] = read.names;
    this.#depths[k] = read.deepest;
    this.#p = HEAD;
    this.#orderTop = 0;
    this.#writeNode(0, true);
    if (this.#chained === k) {
      // h_k = sha256_hex(h_{k-1} + text): the previous hash sits just before the text.
      const out = this.#out;
      const head = this.#head;
      let from = HEAD;
      if (head !== '') {
        from = 0;
        for (let d = 0; d < HEAD; d++) out[d] = head.charCodeAt(d);
      }
      this.#head = sha256Hex(out.subarray(from, this.#p));
      this.#hashes[k] = this.#head;
      this.#chained = k + 1;
    }
    this.#recordMembers();
    return read.end;
  }

  /**
   * Reads the event object at `at` into the node and item tables (node 0 is the event),
   * one token at a time with an explicit stack of open containers.
   */
  #read(at: number): { end: number; names: number; deepest: number } {
    const text = this.#text;
    const n = text.length;
    const fNode = this.#fNode;
    this.#nodes = 0;
    this.#items = 0;
    this.#tokens.length = 0;
    let depth = 0;
    let deepest = 0;
    let names = 0;
    let node = -1;
    let item = -1;
    let i = at;
    // Whether a value is expected next (else a comma or a closing bracket).
    let wantValue = true;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i = skipWhitespace(text, i);
        if (node >= 0) this.#nVerbatim[node] = 0;
        continue;
      }
      if (!wantValue) {
        if (c === 0x2c /* , */) {
          i++;
          wantValue = true;
          if (this.#nArray[node] === 1) continue;
          const name = skipWhitespace(text, i);
          if (name !== i) this.#nVerbatim[node] = 0;
          item = this.#memberName(name, node, depth);
          i = this.#afterColon(node);
          names++;
          continue;
        }
        if (c !== (this.#nArray[node] === 1 ? 0x5d : 0x7d)) throw DECLINED;
        i++;
        // Close the container; its parent item's value span ends here.
        this.#nEnd[node] = i;
        if (--depth === 0) return { end: i, names, deepest };
        const parent = fNode[depth] as number;
        if (this.#nVerbatim[node] !== 1) this.#nVerbatim[parent] = 0;
        item = this.#nTail[parent] as number;
        this.#ve[item] = i;
        node = parent;
        continue;
      }
      // A value: in an array, a new element.
      if (node >= 0 && this.#nArray[node] === 1) item = this.#newItem(node, -1, -1, 0);
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (++depth >= MAX_FRAMES) throw DECLINED;
        if (depth > deepest) deepest = depth;
        const child = this.#newNode(i, c === 0x5b);
        if (item >= 0) {
          this.#vs[item] = i;
          this.#vNode[item] = child;
        }
        fNode[depth] = child;
        this.#fPrevStart[depth] = -1;
        node = child;
        const next = skipWhitespace(text, i + 1);
        if (next !== i + 1) this.#nVerbatim[child] = 0;
        i = next;
        if (text.charCodeAt(i) === (c === 0x5b ? 0x5d : 0x7d)) {
          wantValue = false; // an empty container: the bracket closes it next
          continue;
        }
        if (c === 0x5b) continue; // its first element
        item = this.#memberName(i, child, depth);
        i = this.#afterColon(child);
        names++;
        continue;
      }
      if (depth === 0) throw DECLINED; // an event is an object
      // A scalar: its span, or the reprinted token.
      const start = i;
      if (c === 0x22 /* " */) {
        i = this.#stringEnd(i + 1) + 1;
        if (this.#lastEscaped && !this.#lastCanonical)
          this.#reprint(item, node, JSON.stringify(parseToken(text.slice(start, i))));
      } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
        i = numberEnd(text, i);
        if (canonicalNumberEnd(text, start) !== i) {
          const value = Number(text.slice(start, i));
          // An out-of-range number is the strict reader's to report.
          if (!Number.isFinite(value)) throw DECLINED;
          this.#reprint(item, node, String(value));
        }
      } else if (c === 0x74 /* t */ || c === 0x6e /* n */) {
        i += 4; // true, null (JSON.parse checks the letters)
      } else if (c === 0x66 /* f */) {
        i += 5; // false
      } else {
        throw DECLINED;
      }
      this.#vs[item] = start;
      this.#ve[item] = i;
      wantValue = false;
    }
    throw DECLINED;
  }

  #reprint(item: number, node: number, token: string): void {
    this.#vTok[item] = this.#tokens.length;
    this.#tokens.push(token);
    this.#nVerbatim[node] = 0;
  }

  /** Reads the member name at `at` into a new item of object `node`; returns the item. */
  #memberName(at: number, node: number, depth: number): number {
    const text = this.#text;
    if (text.charCodeAt(at) !== 0x22) throw DECLINED;
    const end = this.#stringEnd(at + 1);
    const escaped = this.#lastEscaped;
    const nVerbatim = this.#nVerbatim;
    const s = at + 1;
    if (escaped) {
      nVerbatim[node] = 0;
    } else if (depth === 1 && end - s === HASH_KEY.length && text.startsWith(HASH_KEY, s)) {
      // _hash is left out of what is hashed: first, the rest is copied as it stands; anywhere
      // else the event is rewritten without it (and a second one is found as a duplicate).
      if (this.#nHead[node] !== -1) nVerbatim[node] = 0;
    } else if (nVerbatim[node] === 1) {
      const previous = this.#fPrevStart[depth] as number;
      if (previous >= 0 && !sortsAfter(text, previous, this.#fPrevEnd[depth] as number, s, end))
        nVerbatim[node] = 0;
      this.#fPrevStart[depth] = s;
      this.#fPrevEnd[depth] = end;
    }
    this.#colonAt = end + 1;
    return this.#newItem(node, s, end, escaped ? 1 : 0);
  }

  #colonAt = 0;

  /** Steps over the colon after the name just read; returns where the value starts. */
  #afterColon(node: number): number {
    const text = this.#text;
    let i = this.#colonAt;
    if (text.charCodeAt(i) !== 0x3a /* : */) {
      i = skipWhitespace(text, i);
      if (text.charCodeAt(i) !== 0x3a) throw DECLINED;
      this.#nVerbatim[node] = 0;
    }
    const next = skipWhitespace(text, i + 1);
    if (next !== i + 1) this.#nVerbatim[node] = 0;
    return next;
  }

  /** Index of the quote closing the string whose content starts at `at`. */
  #stringEnd(at: number): number {
    const text = this.#text;
    const n = text.length;
    let j = text.indexOf('"', at);
    if (j < 0) throw DECLINED;
    let nextBackslash = this.#nextBackslash;
    if (nextBackslash < at) {
      nextBackslash = text.indexOf('\\', at);
      if (nextBackslash < 0) nextBackslash = n;
    }
    this.#lastEscaped = nextBackslash < j;
    let canonical = true;
    while (nextBackslash < j) {
      const e = text.charCodeAt(nextBackslash + 1);
      let next = nextBackslash + 2;
      if (e === 0x75 /* u */) {
        if (!isStringifyUnicodeEscape(text, next)) canonical = false;
        next += 4;
      } else if (e === 0x2f /* / */) {
        canonical = false;
      }
      if (nextBackslash + 1 === j) {
        j = text.indexOf('"', j + 1);
        if (j < 0) throw DECLINED;
      }
      nextBackslash = text.indexOf('\\', next);
      if (nextBackslash < 0) nextBackslash = n;
    }
    this.#nextBackslash = nextBackslash;
    this.#lastCanonical = canonical;
    return j;
  }

  // Writing ------------------------------------------------------------------------------

  /** Writes node `node`'s canonical form (the event's without _hash when `isEvent`). */
  #writeNode(node: number, isEvent: boolean): void {
    const start = this.#nStart[node] as number;
    const end = this.#nEnd[node] as number;
    if (this.#nVerbatim[node] === 1) {
      if (!isEvent) return this.#copy(start, end);
      const first = this.#nHead[node] as number;
      if (first < 0 || !this.#isHash(first)) return this.#copy(start, end);
      const second = this.#next[first] as number;
      this.#byte(0x7b /* { */);
      if (second < 0) return this.#byte(0x7d);
      return this.#copy((this.#ns[second] as number) - 1, end);
    }
    if (this.#nArray[node] === 1) {
      this.#byte(0x5b);
      for (let m = this.#nHead[node] as number; m >= 0; m = this.#next[m] as number) {
        if (m !== this.#nHead[node]) this.#byte(0x2c);
        this.#writeValue(m);
      }
      return this.#byte(0x5d);
    }
    this.#writeObject(node, isEvent);
  }

  #writeObject(node: number, isEvent: boolean): void {
    const text = this.#text;
    // The members, sorted by name, in a region of the order scratch.
    const base = this.#orderTop;
    let count = 0;
    let anyEscaped = false;
    for (let m = this.#nHead[node] as number; m >= 0; m = this.#next[m] as number) {
      if (base + count === this.#order.length)
        this.#order = grown(this.#order, new Int32Array(this.#order.length * 2));
      this.#order[base + count++] = m;
      if (this.#nEscaped[m] === 1) anyEscaped = true;
    }
    this.#orderTop = base + count;
    const order = this.#order;
    let decoded: Map<number, string> | undefined;
    if (anyEscaped) {
      const keys = new Map<number, string>();
      for (let r = 0; r < count; r++) {
        const m = order[base + r] as number;
        keys.set(
          m,
          this.#nEscaped[m] === 1 ? this.#decodedName(m) : text.slice(this.#ns[m], this.#ne[m]),
        );
      }
      decoded = keys;
      const sorted = Array.from(order.subarray(base, base + count)).sort((a, b) => {
        const x = keys.get(a) as string;
        const y = keys.get(b) as string;
        return x < y ? -1 : x > y ? 1 : 0;
      });
      for (let r = 0; r < count; r++) {
        order[base + r] = sorted[r] as number;
        if (r > 0 && keys.get(sorted[r - 1] as number) === keys.get(sorted[r] as number))
          throw DECLINED;
      }
    } else {
      sortBySpan(text, order, base, count, this.#ns, this.#ne, this.#key);
    }
    this.#byte(0x7b);
    let written = 0;
    for (let r = 0; r < count; r++) {
      const m = order[base + r] as number;
      if (isEvent && (decoded === undefined ? this.#isHash(m) : decoded.get(m) === HASH_KEY)) {
        this.#outStart[m] = -2;
        continue;
      }
      if (written++ > 0) this.#byte(0x2c);
      if (this.#nEscaped[m] === 1) this.#string(JSON.stringify(decoded?.get(m)));
      else this.#copy((this.#ns[m] as number) - 1, (this.#ne[m] as number) + 1);
      this.#byte(0x3a);
      if (isEvent) this.#outStart[m] = this.#p;
      this.#writeValue(m);
      if (isEvent) this.#outEnd[m] = this.#p;
    }
    this.#byte(0x7d);
    this.#orderTop = base;
  }

  #writeValue(m: number): void {
    const child = this.#vNode[m] as number;
    if (child >= 0) return this.#writeNode(child, false);
    const token = this.#vTok[m] as number;
    if (token >= 0) return this.#string(this.#tokens[token] as string);
    this.#copy(this.#vs[m] as number, this.#ve[m] as number);
  }

  /** Whether item `m` is named _hash (compared after unescaping). */
  #isHash(m: number): boolean {
    if (this.#nEscaped[m] === 1) return this.#decodedName(m) === HASH_KEY;
    const s = this.#ns[m] as number;
    return (this.#ne[m] as number) - s === HASH_KEY.length && this.#text.startsWith(HASH_KEY, s);
  }

  #decodedName(m: number): string {
    return parseToken(this.#text.slice((this.#ns[m] as number) - 1, (this.#ne[m] as number) + 1));
  }

  /** Stores the event's top-level members: value spans, or texts for the cassette's ones. */
  #recordMembers(): void {
    const text = this.#text;
    for (let m = this.#nHead[0] as number; m >= 0; m = this.#next[m] as number) {
      if (this.#memberCount === this.#mNameStart.length) this.#growMembers();
      const j = this.#memberCount++;
      const escaped = this.#nEscaped[m] === 1;
      const s = this.#ns[m] as number;
      const e = this.#ne[m] as number;
      this.#mNameStart[j] = escaped ? -1 : s;
      this.#mNameEnd[j] = escaped ? -1 : e;
      this.#mValueStart[j] = this.#vs[m] as number;
      this.#mValueEnd[j] = this.#ve[m] as number;
      const child = this.#vNode[m] as number;
      const asWritten =
        this.#outStart[m] === -1 ||
        (this.#vTok[m] === -1 && (child < 0 || this.#nVerbatim[child] === 1));
      if (asWritten) {
        this.#mText[j] = -1;
      } else if (
        !escaped &&
        (this.#outStart[m] as number) >= 0 &&
        isOneOf(text, s, e, CASSETTE_MEMBERS)
      ) {
        this.#mText[j] = this.#texts.length;
        const written = this.#out.subarray(this.#outStart[m], this.#outEnd[m]);
        this.#texts.push(decoder.decode(written));
      } else {
        this.#mText[j] = -2;
      }
    }
  }

  /** Appends the UTF-8 of text[s, e). */
  #copy(s: number, e: number): void {
    const length = e - s;
    this.#reserve(length * 3);
    const out = this.#out;
    const ascii = this.#ascii;
    if (ascii !== undefined) {
      let p = this.#p;
      if (length > SHORT_COPY) {
        out.set(ascii.subarray(s, e), p);
      } else {
        for (let i = s; i < e; i++) out[p++] = ascii[i] as number;
      }
      this.#p += length;
      return;
    }
    if (length > 64) {
      this.#p += encoder.encodeInto(this.#text.slice(s, e), out.subarray(this.#p)).written;
      return;
    }
    const text = this.#text;
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

  /** Appends the UTF-8 of a reprinted token. */
  #string(s: string): void {
    this.#reserve(s.length * 3);
    this.#p += encoder.encodeInto(s, this.#out.subarray(this.#p)).written;
  }

  #byte(b: number): void {
    this.#reserve(1);
    this.#out[this.#p++] = b;
  }

  #reserve(bytes: number): void {
    if (this.#p + bytes <= this.#out.length) return;
    let size = this.#out.length * 2;
    while (size < this.#p + bytes) size *= 2;
    const out = new Uint8Array(size);
    out.set(this.#out.subarray(0, this.#p));
    this.#out = out;
  }

  // Tables --------------------------------------------------------------------------------

  #newNode(start: number, isArray: boolean): number {
    if (this.#nodes === this.#nStart.length) this.#growNodes();
    const node = this.#nodes++;
    this.#nStart[node] = start;
    this.#nArray[node] = isArray ? 1 : 0;
    this.#nVerbatim[node] = 1;
    this.#nHead[node] = -1;
    this.#nTail[node] = -1;
    return node;
  }

  #newItem(node: number, ns: number, ne: number, escaped: number): number {
    if (this.#items === this.#ns.length) this.#growItems();
    const m = this.#items++;
    this.#ns[m] = ns;
    this.#ne[m] = ne;
    this.#nEscaped[m] = escaped;
    this.#vNode[m] = -1;
    this.#vTok[m] = -1;
    this.#next[m] = -1;
    this.#outStart[m] = -1;
    this.#key[m] = ns < 0 ? 0 : prefixKey(this.#text, ns, ne);
    const tail = this.#nTail[node] as number;
    if (tail < 0) this.#nHead[node] = m;
    else this.#next[tail] = m;
    this.#nTail[node] = m;
    return m;
  }

  #growNodes(): void {
    const size = this.#nStart.length * 2;
    this.#nStart = grown(this.#nStart, new Int32Array(size));
    this.#nEnd = grown(this.#nEnd, new Int32Array(size));
    this.#nArray = grown(this.#nArray, new Uint8Array(size));
    this.#nVerbatim = grown(this.#nVerbatim, new Uint8Array(size));
    this.#nHead = grown(this.#nHead, new Int32Array(size));
    this.#nTail = grown(this.#nTail, new Int32Array(size));
  }

  #growItems(): void {
    const size = this.#ns.length * 2;
    this.#ns = grown(this.#ns, new Int32Array(size));
    this.#ne = grown(this.#ne, new Int32Array(size));
    this.#nEscaped = grown(this.#nEscaped, new Uint8Array(size));
    this.#vs = grown(this.#vs, new Int32Array(size));
    this.#ve = grown(this.#ve, new Int32Array(size));
    this.#vNode = grown(this.#vNode, new Int32Array(size));
    this.#vTok = grown(this.#vTok, new Int32Array(size));
    this.#next = grown(this.#next, new Int32Array(size));
    this.#outStart = grown(this.#outStart, new Int32Array(size));
    this.#outEnd = grown(this.#outEnd, new Int32Array(size));
    this.#key = grown(this.#key, new Float64Array(size));
  }

  #growEvents(): void {
    const size = this.#ends.length * 2;
    this.#starts = grown(this.#starts, new Int32Array(size));
    this.#ends = grown(this.#ends, new Int32Array(size));
    this.#names = grown(this.#names, new Int32Array(size));
    this.#depths = grown(this.#depths, new Int32Array(size));
    this.#proven = grown(this.#proven, new Uint8Array(size));
    this.#firstMember = grown(this.#firstMember, new Int32Array(size + 1));
  }

  #growMembers(): void {
    const size = this.#mNameStart.length * 2;
    this.#mNameStart = grown(this.#mNameStart, new Int32Array(size));
    this.#mNameEnd = grown(this.#mNameEnd, new Int32Array(size));
    this.#mValueStart = grown(this.#mValueStart, new Int32Array(size));
    this.#mValueEnd = grown(this.#mValueEnd, new Int32Array(size));
    this.#mText = grown(this.#mText, new Int32Array(size));
  }
}

/**
 * Sorts order[base, base + count) (items) by their names text[ns, ne) in UTF-16 code unit
 * order; a repeated name declines the event. Names are compared by their first two code
 * units (packed into one number) before the rest.
 */
function sortBySpan(
  text: string,
  order: Int32Array,
  base: number,
  count: number,
  ns: Int32Array,
  ne: Int32Array,
  key: Float64Array,
): void {
  if (count > INSERTION_SORT_MAX) {
    const sorted = Array.from(order.subarray(base, base + count)).sort((a, b) =>
      compareSpans(text, ns[a] as number, ne[a] as number, ns[b] as number, ne[b] as number),
    );
    order.set(sorted, base);
  } else {
    for (let r = 1; r < count; r++) {
      const v = order[base + r] as number;
      const vKey = key[v] as number;
      let q = r - 1;
      for (; q >= 0; q--) {
        const u = order[base + q] as number;
        const uKey = key[u] as number;
        if (uKey < vKey) break;
        if (
          uKey === vKey &&
          compareSpans(text, ns[u] as number, ne[u] as number, ns[v] as number, ne[v] as number) <=
            0
        )
          break;
        order[base + q + 1] = u;
      }
      order[base + q + 1] = v;
    }
  }
  for (let r = 1; r < count; r++) {
    const a = order[base + r - 1] as number;
    const b = order[base + r] as number;
    if (key[a] !== key[b]) continue;
    if (
      compareSpans(text, ns[a] as number, ne[a] as number, ns[b] as number, ne[b] as number) === 0
    )
      throw DECLINED;
  }
}

/**
 * The name text[s, e)'s first two code units as one number that orders as the names do up to
 * there (a missing unit counts below every unit).
 */
function prefixKey(text: string, s: number, e: number): number {
  const first = s < e ? text.charCodeAt(s) + 1 : 0;
  const second = s + 1 < e ? text.charCodeAt(s + 1) + 1 : 0;
  return first * 0x10001 + second;
}

/** Whether text[s, e) is one of `names`. */
function isOneOf(text: string, s: number, e: number, names: readonly string[]): boolean {
  for (const name of names) if (name.length === e - s && text.startsWith(name, s)) return true;
  return false;
}

/** The string a JSON string token stands for; a malformed token declines the event. */
function parseToken(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    throw DECLINED;
  }
}

/** Index just after the number token starting at `at` (digits, sign, point, exponent). */
function numberEnd(text: string, at: number): number {
  let i = at;
  for (;;) {
    const c = text.charCodeAt(i);
    if (
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2d ||
      c === 0x2b ||
      c === 0x2e ||
      c === 0x65 ||
      c === 0x45
    )
      i++;
    else return i;
  }
}
