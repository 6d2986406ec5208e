// Reads one event object of a record's JSON text into a table of its containers (nodes) and
// their items (see event-canonicalizer.ts), one token at a time with an explicit stack of open
// containers, so the cost is linear in the event's size at any depth. It notes which
// containers are canonical as written (docs/spec.md §2): no whitespace, names unescaped and
// in ascending UTF-16 order, every token in canonical form, every child canonical.
//
// It also proves every token of the event well formed (RFC 8259 §3, §6, §7): the three literals
// spelled out, numbers in the §6 grammar, only the escapes §7 allows, and no raw control
// character in a string (see control-characters.ts). With the structure it reads, that proves
// the event is JSON, so a view of it (event-views.ts) need not be checked by JSON.parse. An
// event that is not JSON makes the record's text invalid, which the strict reader reports.
//
// What it finds is used only once the strict reader has accepted the text around the event
// (the whole text, or the text with its views' events cut out); on anything unexpected it
// throws DECLINED.
import { DEFAULT_MAX_DEPTH } from '../json/types.js';
import {
  compareNameSpans,
  isJsonNumber,
  isShortDecimal,
  isStringifyUnicodeEscape,
} from './canonical-tokens.js';
import { ControlFinder } from './control-characters.js';
import { DECLINED, parseToken } from './declined.js';
import { grown } from './grown.js';

/** The member left out of what is hashed (docs/spec.md §3). */
export const HASH_KEY = '_hash';
/** Containers deeper than this decline the event (the strict reader's limit, plus the record). */
const MAX_FRAMES = DEFAULT_MAX_DEPTH + 2;
/** Numbers with at most this many digits and no fraction or exponent print as written. */
const PLAIN_INTEGER_DIGITS = 15;
/** Four spaces as a little-endian 32-bit word. */
const FOUR_SPACES = 0x20202020;

/** The node and item tables of the event read last, and the reader's position state. */
export class EventReader {
  readonly text: string;
  // The event's containers (nodes): text span, array or object, canonical as written, and
  // their items. Node 0 is the event. Items are numbered in the order they are read, so a
  // node's items are nHead[node] and each next one just after the previous item's value: the
  // next item, or the first after the items of the container it holds (nAfter), up to
  // nAfter[node] (see nextItem).
  nStart = new Int32Array(64);
  nEnd = new Int32Array(64);
  nArray = new Uint8Array(64);
  nVerbatim = new Uint8Array(64);
  nHead = new Int32Array(64);
  nAfter = new Int32Array(64);
  nodes = 0;
  // The event's items: name text[ns, ne) (ns -1 for array elements, escaped names flagged),
  // value text[vs, ve), and vNode: a child node (>= 0), a reprinted token (-2 - its index in
  // tokens) or neither (-1).
  ns = new Int32Array(256);
  ne = new Int32Array(256);
  nEscaped = new Uint8Array(256);
  vs = new Int32Array(256);
  ve = new Int32Array(256);
  vNode = new Int32Array(256);
  items = 0;
  readonly tokens: string[] = [];
  /** The event's member written `_hash` (unescaped), -1 when none. */
  hashItem = -1;
  /** What the last read found: the index just after the event, names written, depth. */
  end = 0;
  names = 0;
  /** How many members the event itself has. */
  members = 0;
  deepest = 0;

  // Per open container, by depth inside the event (1: the event): its node, the item whose
  // value it is (-1 for the event), and the previous
  // member name of an object that is still canonical (start -1: none yet).
  readonly #fNode = new Int32Array(MAX_FRAMES + 1);
  readonly #fItem = new Int32Array(MAX_FRAMES + 1);
  readonly #fPrevStart = new Int32Array(MAX_FRAMES + 1);
  readonly #fPrevEnd = new Int32Array(MAX_FRAMES + 1);
  // The next backslash at or after the scan position (text.length when none): strings are
  // looked into only when one lies inside them. Kept across events, declined ones included.
  #nextBackslash = -1;
  // What the last #stringEnd call found: whether the string holds a backslash, and whether
  // all its escapes are ones JSON.stringify writes.
  #lastEscaped = false;
  #lastCanonical = true;
  // Where the colon after the member name read last should be.
  #colonAt = 0;
  // The first control character at or after #controlFrom (text.length when none).
  #controlFrom = 0;
  #nextControl = -1;
  readonly #controls: ControlFinder;
  // How many tabs, line feeds and carriage returns the event read last holds as whitespace.
  #spacingControls = 0;
  // The text's bytes when it is ASCII: read instead of its code units (see #unit), and as
  // words to step over indentation four spaces at a time.
  readonly #bytes: DataView | undefined;
  readonly #ascii: Uint8Array | undefined;
  readonly #lastWord: number;

  /** `ascii`, when given, holds the text's characters as bytes (it is all ASCII). */
  constructor(text: string, ascii?: Uint8Array) {
    this.text = text;
    this.#controls = new ControlFinder(text, ascii);
    const bytes =
      ascii !== undefined && ascii.length === text.length
        ? new DataView(ascii.buffer, ascii.byteOffset, ascii.length)
        : undefined;
    this.#bytes = bytes;
    this.#ascii = bytes === undefined ? undefined : ascii;
    this.#lastWord = bytes === undefined ? -1 : bytes.byteLength - 4;
  }

  /**
   * unitAt(this.text, this.#ascii, i), written out: on the reader's hottest path the string is
   * loaded only when there are no bytes (through unitAt, pretty-printed records verified 1.05×
   * slower in two interleaved runs).
   */
  #unit(i: number): number {
    const bytes = this.#ascii;
    return bytes !== undefined ? (bytes[i] as number) : this.text.charCodeAt(i);
  }

  /** Forgets the backslash position (for a read that does not continue the last one). */
  restart(): void {
    this.#nextBackslash = -1;
  }

  /** Reads the event object at `at` into the tables; sets end, names and deepest. */
  read(at: number): void {
    const text = this.text;
    const n = text.length;
    const fNode = this.#fNode;
    this.nodes = 0;
    this.items = 0;
    if (this.tokens.length > 0) this.tokens.length = 0;
    this.hashItem = -1;
    this.#spacingControls = 0;
    let depth = 0;
    let deepest = 0;
    let names = 0;
    let members = 0;
    let node = -1;
    let inArray = false;
    let item = -1;
    let i = at;
    // Whether a value is expected next (else a comma or a closing bracket).
    let wantValue = true;
    while (i < n) {
      const c = this.#unit(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i = this.#skipWhitespace(i);
        if (node >= 0) this.nVerbatim[node] = 0;
        continue;
      }
      if (!wantValue) {
        if (c === 0x2c /* , */) {
          i++;
          wantValue = true;
          if (inArray) continue;
          const name = this.#unit(i) === 0x22 ? i : this.#skipWhitespace(i);
          if (name !== i) this.nVerbatim[node] = 0;
          item = this.#memberName(name, node, depth);
          i = this.#afterColon(node);
          names++;
          if (depth === 1) members++;
          continue;
        }
        if (c !== (inArray ? 0x5d /* ] */ : 0x7d) /* } */) throw DECLINED;
        i++;
        // Close the container; its parent item's value span ends here.
        this.nEnd[node] = i;
        this.nAfter[node] = this.items;
        if (--depth === 0) {
          this.#checkControls(at, i);
          this.end = i;
          this.names = names;
          this.members = members;
          this.deepest = deepest;
          return;
        }
        const parent = fNode[depth] as number;
        if (this.nVerbatim[node] !== 1) this.nVerbatim[parent] = 0;
        item = this.#fItem[depth + 1] as number;
        this.ve[item] = i;
        node = parent;
        inArray = this.nArray[parent] === 1;
        continue;
      }
      // A value: in an array, a new element.
      if (inArray) item = this.#newItem(node, -1, -1, 0);
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (++depth >= MAX_FRAMES) throw DECLINED;
        if (depth > deepest) deepest = depth;
        const isArray = c === 0x5b;
        const child = this.#newNode(i, isArray);
        if (item >= 0) {
          this.vs[item] = i;
          this.vNode[item] = child;
        }
        fNode[depth] = child;
        this.#fItem[depth] = item;
        this.#fPrevStart[depth] = -1;
        node = child;
        inArray = isArray;
        let next = i + 1;
        const d = this.#unit(next);
        if (d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09) {
          next = this.#skipWhitespace(next);
          this.nVerbatim[child] = 0;
        }
        i = next;
        if (this.#unit(i) === (isArray ? 0x5d : 0x7d)) {
          wantValue = false; // an empty container: the bracket closes it next
          continue;
        }
        if (isArray) continue; // its first element
        item = this.#memberName(i, child, depth);
        i = this.#afterColon(child);
        names++;
        if (depth === 1) members++;
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
        // Digits, sign, point, exponent: the longest run of them is the token, which must be in
        // the grammar of RFC 8259 §6 (a `01` or `1.` is not JSON, never two tokens); canonical
        // when written as Number::toString writes it (docs/spec.md §2, rule 2), as
        // canonicalNumberEnd decides.
        let plain = true;
        i++;
        for (;;) {
          const d = this.#unit(i);
          if (d >= 0x30 && d <= 0x39) i++;
          else if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) {
            plain = false;
            i++;
          } else break;
        }
        const negative = c === 0x2d ? 1 : 0;
        const digits = i - start - negative;
        if (
          plain
            ? digits === 0 || (digits > 1 && this.#unit(start + negative) === 0x30)
            : !isJsonNumber(text, start, i)
        )
          throw DECLINED;
        // A plain integer of up to 15 digits is exact and prints as written, unless it is -0
        // or has a leading zero; everything else is decided by printing it.
        if (
          (!plain ||
            digits > PLAIN_INTEGER_DIGITS ||
            (this.#unit(start + negative) === 0x30 && (negative === 1 || digits > 1))) &&
          !isShortDecimal(text, start + negative, i)
        ) {
          const token = text.slice(start, i);
          const value = Number(token);
          const printed = String(value);
          if (printed !== token) {
            // An out-of-range number is the strict reader's to report.
            if (!Number.isFinite(value)) throw DECLINED;
            this.#reprint(item, node, printed);
          }
        }
      } else if (c === 0x74 /* t */) {
        if (
          this.#unit(i + 1) !== 0x72 /* r */ ||
          this.#unit(i + 2) !== 0x75 /* u */ ||
          this.#unit(i + 3) !== 0x65 /* e */
        )
          throw DECLINED;
        i += 4;
      } else if (c === 0x6e /* n */) {
        if (
          this.#unit(i + 1) !== 0x75 /* u */ ||
          this.#unit(i + 2) !== 0x6c /* l */ ||
          this.#unit(i + 3) !== 0x6c /* l */
        )
          throw DECLINED;
        i += 4;
      } else if (c === 0x66 /* f */) {
        if (
          this.#unit(i + 1) !== 0x61 /* a */ ||
          this.#unit(i + 2) !== 0x6c /* l */ ||
          this.#unit(i + 3) !== 0x73 /* s */ ||
          this.#unit(i + 4) !== 0x65 /* e */
        )
          throw DECLINED;
        i += 5;
      } else {
        throw DECLINED;
      }
      this.vs[item] = start;
      this.ve[item] = i;
      wantValue = false;
    }
    throw DECLINED;
  }

  /**
   * Declines the event text[at, end) if a string in it holds a raw control character (RFC
   * 8259 §7). One search finds the next control character after the last one found; only an
   * event holding one (as whitespace between tokens, or in a string) is looked into further:
   * counted, and when it holds more than the whitespace the reader counted, its strings are
   * looked into one by one, each member name and string value, which are all its strings.
   */
  #checkControls(at: number, end: number): void {
    let next = this.#nextControl;
    if (next < at || this.#controlFrom > at) {
      next = this.#controls.next(at);
      this.#controlFrom = at;
      this.#nextControl = next;
    }
    if (next >= end) return;
    // Every control character outside the event's strings is whitespace the reader stepped
    // over, and counted: when the event holds no more than those (pretty-printed text), none
    // is inside a string. text[at, next) holds none.
    const inEvent = this.#controls.count(next, end);
    if (inEvent === this.#spacingControls) return;
    const text = this.text;
    const controls = this.#controls;
    const { ns, ne, vs, ve } = this;
    for (let m = 0; m < this.items; m++) {
      const s = ns[m] as number;
      const v = vs[m] as number;
      const isString = text.charCodeAt(v) === 0x22;
      // A name and its string value at once, from the name to the value's closing quote:
      // between them lies a colon and, only in spaced text, whitespace that may hold one.
      if (s >= 0 && isString && !controls.has(s, (ve[m] as number) - 1)) continue;
      if (s >= 0 && controls.has(s, ne[m] as number)) throw DECLINED;
      if (isString && controls.has(v + 1, (ve[m] as number) - 1)) throw DECLINED;
    }
  }

  /** The item after item m in its container (nAfter of the container when m is the last). */
  nextItem(m: number): number {
    const child = this.vNode[m] as number;
    return child >= 0 ? (this.nAfter[child] as number) : m + 1;
  }

  #reprint(item: number, node: number, token: string): void {
    this.vNode[item] = -2 - this.tokens.length;
    this.tokens.push(token);
    this.nVerbatim[node] = 0;
  }

  /** Reads the member name at `at` into a new item of object `node`; returns the item. */
  #memberName(at: number, node: number, depth: number): number {
    const text = this.text;
    if (this.#unit(at) !== 0x22) throw DECLINED;
    const end = this.#stringEnd(at + 1);
    const escaped = this.#lastEscaped;
    const nVerbatim = this.nVerbatim;
    const s = at + 1;
    if (escaped) {
      nVerbatim[node] = 0;
    } else if (
      depth === 1 &&
      end - s === HASH_KEY.length &&
      text.charCodeAt(s) === 0x5f /* _ */ &&
      text.startsWith(HASH_KEY, s)
    ) {
      // _hash is left out of what is hashed: first, the rest is copied as it stands; anywhere
      // else the event is rewritten without it (and a second one is found as a duplicate).
      if (this.items !== this.nHead[node]) nVerbatim[node] = 0;
      this.hashItem = this.items;
    } else if (nVerbatim[node] === 1) {
      const previous = this.#fPrevStart[depth] as number;
      const previousEnd = this.#fPrevEnd[depth] as number;
      if (previous >= 0 && compareNameSpans(text, this.#ascii, previous, previousEnd, s, end) >= 0)
        nVerbatim[node] = 0;
      this.#fPrevStart[depth] = s;
      this.#fPrevEnd[depth] = end;
    }
    this.#colonAt = end + 1;
    return this.#newItem(node, s, end, escaped ? 1 : 0);
  }

  /** Steps over the colon after the name just read; returns where the value starts. */
  #afterColon(node: number): number {
    let i = this.#colonAt;
    if (this.#unit(i) !== 0x3a /* : */) {
      i = this.#skipWhitespace(i);
      if (this.#unit(i) !== 0x3a) throw DECLINED;
      this.nVerbatim[node] = 0;
    }
    i++;
    const c = this.#unit(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      this.nVerbatim[node] = 0;
      return this.#skipWhitespace(i);
    }
    return i;
  }

  /**
   * Index of the first character at or after `at` that is not JSON whitespace (RFC 8259 §2).
   * Pretty-printed text indents with runs of spaces: read as bytes, four of them at a time.
   */
  #skipWhitespace(at: number): number {
    const words = this.#bytes;
    let i = at;
    if (words !== undefined) {
      // From the bytes (a code unit read from a string costs more than a byte from an array).
      const bytes = this.#ascii as Uint8Array;
      const lastWord = this.#lastWord;
      let controls = 0;
      for (;;) {
        while (i <= lastWord && words.getInt32(i, true) === FOUR_SPACES) i += 4;
        const c = bytes[i];
        if (c === 0x20) {
          i++;
        } else if (c === 0x0a || c === 0x0d || c === 0x09) {
          i++;
          controls++;
        } else {
          this.#spacingControls += controls;
          return i;
        }
      }
    }
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20) {
        i++;
      } else if (c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        this.#spacingControls++;
      } else {
        return i;
      }
    }
  }

  /** Index of the quote closing the string whose content starts at `at`. */
  #stringEnd(at: number): number {
    const text = this.text;
    const n = text.length;
    let j = text.indexOf('"', at);
    if (j < 0) throw DECLINED;
    let nextBackslash = this.#nextBackslash;
    if (nextBackslash < at) {
      nextBackslash = text.indexOf('\\', at);
      if (nextBackslash < 0) nextBackslash = n;
    }
    if (nextBackslash > j) {
      this.#nextBackslash = nextBackslash;
      this.#lastEscaped = false;
      this.#lastCanonical = true;
      return j;
    }
    this.#lastEscaped = true;
    let canonical = true;
    while (nextBackslash < j) {
      const e = text.charCodeAt(nextBackslash + 1);
      let next = nextBackslash + 2;
      if (e === 0x75 /* u */) {
        // Any other \u escape is reprinted, read by JSON.parse, which refuses a malformed one.
        if (!isStringifyUnicodeEscape(text, next)) canonical = false;
        next += 4;
      } else if (e === 0x2f /* / */) {
        canonical = false;
      } else if (!isShortEscape(e)) {
        throw DECLINED; // not an escape RFC 8259 §7 allows
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

  #newNode(start: number, isArray: boolean): number {
    if (this.nodes === this.nStart.length) this.#growNodes();
    const node = this.nodes++;
    this.nStart[node] = start;
    this.nArray[node] = isArray ? 1 : 0;
    this.nVerbatim[node] = 1;
    this.nHead[node] = this.items;
    return node;
  }

  #newItem(node: number, ns: number, ne: number, escaped: number): number {
    if (this.items === this.ns.length) this.#growItems();
    const m = this.items++;
    this.ns[m] = ns;
    this.ne[m] = ne;
    this.nEscaped[m] = escaped;
    this.vNode[m] = -1;
    return m;
  }

  #growNodes(): void {
    const size = this.nStart.length * 2;
    this.nStart = grown(this.nStart, new Int32Array(size));
    this.nEnd = grown(this.nEnd, new Int32Array(size));
    this.nArray = grown(this.nArray, new Uint8Array(size));
    this.nVerbatim = grown(this.nVerbatim, new Uint8Array(size));
    this.nHead = grown(this.nHead, new Int32Array(size));
    this.nAfter = grown(this.nAfter, new Int32Array(size));
  }

  #growItems(): void {
    const size = this.ns.length * 2;
    this.ns = grown(this.ns, new Int32Array(size));
    this.ne = grown(this.ne, new Int32Array(size));
    this.nEscaped = grown(this.nEscaped, new Uint8Array(size));
    this.vs = grown(this.vs, new Int32Array(size));
    this.ve = grown(this.ve, new Int32Array(size));
    this.vNode = grown(this.vNode, new Int32Array(size));
  }
}

/** Whether `c` follows a backslash in one of the two-character escapes (RFC 8259 §7). */
function isShortEscape(c: number): boolean {
  return (
    c === 0x22 /* " */ ||
    c === 0x5c /* \ */ ||
    c === 0x6e /* n */ ||
    c === 0x74 /* t */ ||
    c === 0x72 /* r */ ||
    c === 0x62 /* b */ ||
    c === 0x66 /* f */
  );
}
