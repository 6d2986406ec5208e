// The events array of a record's JSON text, element by element, canonicalized straight from
// the text (docs/spec.md §2) in one linear pass per event, whatever the member order and
// whitespace, and hashed into the event chain (§3) as it goes.
//
// Each event is read once into a table of its containers and their items (event-reader.ts),
// noting which containers are canonical as written. Its canonical form (without `_hash`) is
// then written as UTF-8 into one reusable buffer (event-writer.ts): a canonical container is
// one copy of its input span; any other is written item by item with its members sorted by
// name and only the tokens not in canonical form reprinted. Every step is linear in the
// event's size at any depth, and nothing of an event outlives it except its hash and the
// canonical bytes of the members the cassette reads (§4.3), so no value is serialized twice.
//
// An event is offered ("proven") only when the pass also showed that it is JSON (its structure
// and every token, RFC 8259), that no object in it repeats a member name (compared after
// unescaping) and no number in it overflows: the strict reader's pre-scan then steps over it
// (docs/spec.md §6), and verifyJson may give the steps a view of it without JSON.parse reading
// it (event-views.ts). What the pass finds is used only once the strict reader has accepted the
// text around the proven events. On anything unexpected (a syntax error, a duplicate name,
// nesting past the reader's limit) it declines the event, which the general path then
// serializes from the parsed value; it ends on any text.
import { sha256Hex } from '@runback/canonical';
import { DECLINED, Declined } from './declined.js';
import { EventReader } from './event-reader.js';
import { EventWriter, HEAD, isCassetteMember } from './event-writer.js';
import { grown } from './grown.js';
import { skipValue, skipWhitespace } from './lexer.js';
import { MemberTexts } from './member-texts.js';

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
  /**
   * 1 where chained event k's top-level _hash is written as the string of hashes[k]'s very
   * digits (unescaped), as the pass found when it chained the event; else 0.
   */
  readonly hashAsStored: Uint8Array;
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
  /** texts[k]'s UTF-8: textBytes[textStarts[k], textEnds[k]) (no decoding needed to hash it). */
  readonly textBytes: Uint8Array;
  readonly textStarts: Int32Array;
  readonly textEnds: Int32Array;
  /** The text's bytes when it is ASCII (the bytes are its code units, index for index). */
  readonly ascii: Uint8Array | undefined;
}

const decoder = new TextDecoder();
/** How many member names the cassette reads (see isCassetteMember). */
const CASSETTE_NAMES = 4;

/**
 * Canonicalizes the elements of an events array. `ascii`, when given, is the UTF-8 input the
 * text was decoded from and holds only ASCII (so indexes coincide): spans are copied from it.
 */
export class EventCanonicalizer {
  readonly #text: string;
  readonly #reader: EventReader;
  readonly #writer: EventWriter;
  readonly #ascii: Uint8Array | undefined;
  // Where the text holds h_{k-1}'s digits (the last event's _hash value), -1: it does not.
  #headAt = -1;
  #count = 0;
  #starts: Int32Array;
  #ends: Int32Array;
  #names: Int32Array;
  #depths: Int32Array;
  #proven: Uint8Array;
  #hashAsStored: Uint8Array;
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
  readonly #texts = new MemberTexts();
  // The event's members whose texts are kept (member row, item): at most one per cassette
  // name, since a proven event repeats no name.
  readonly #pendingJ = new Int32Array(CASSETTE_NAMES);
  readonly #pendingM = new Int32Array(CASSETTE_NAMES);

  // One canonicalizer (with its reader, writer, member order and texts) that lives as long as
  // the class and is never used. V8 frees an object layout (hidden class) as soon as no object
  // has it, and then throws away all code optimized for it ("weak objects"); since every
  // verification makes its own instances, a caller that collects garbage between two calls (a
  // server, `pnpm bench`) had this code thrown away and re-optimized on every call, and from
  // about the seventh call on it ran 3-5x slower (bench/nesting.js). Holding one instance
  // keeps the layouts alive, and the code with them.
  static readonly keptForLayouts: EventCanonicalizer = new EventCanonicalizer('[]');

  constructor(text: string, ascii?: Uint8Array) {
    this.#text = text;
    // A plain view (a Buffer's subarray is slower to make), when indexes coincide.
    this.#ascii =
      ascii !== undefined && ascii.length === text.length
        ? new Uint8Array(ascii.buffer, ascii.byteOffset, ascii.length)
        : undefined;
    this.#reader = new EventReader(text, this.#ascii);
    // The output keeps the canonical bytes of the cassette's members: about a quarter of
    // the text in records of model and tool calls.
    this.#writer = new EventWriter(this.#reader, this.#ascii, text.length >> 2);
    // Sized for events of 250 characters or more, and for members of 32 characters or more,
    // so that a large record grows its tables once or not at all (growing copies them all).
    const events = Math.max(64, Math.ceil(text.length / 256));
    this.#starts = new Int32Array(events);
    this.#ends = new Int32Array(events);
    this.#names = new Int32Array(events);
    this.#depths = new Int32Array(events);
    this.#proven = new Uint8Array(events);
    this.#hashAsStored = new Uint8Array(events);
    this.#firstMember = new Int32Array(events + 1);
    const members = Math.max(1024, Math.ceil(text.length / 32));
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
      let end = this.readNext(i);
      if (end < 0) {
        // Declined: the general path serializes it from the parsed value; the chain from
        // here on is the chain step's.
        end = skipValue(text, i);
        if (end < 0) return null;
        this.#ends[this.#count - 1] = end;
      }
      i = skipWhitespace(text, end);
      const c = text.charCodeAt(i);
      if (c === 0x5d) return this.#result();
      if (c !== 0x2c /* , */) return null;
      i = skipWhitespace(text, i + 1);
    }
  }

  /**
   * Canonicalizes the events of a stream's batch: event k starts at starts[k] and ends just
   * before ends[k] (where the stream's splitter found it), and the chain goes on from `head`
   * (h of the event before the batch; "" for the first). An event the reader finds ending
   * elsewhere is declined. The result replaces the one of the batch before: its tables, texts
   * and output are reused, so it holds only until the next batch begins.
   */
  scanEvents(
    starts: Int32Array,
    ends: Int32Array,
    count: number,
    head: string,
  ): CanonicalizerResult {
    this.beginEvents(head);
    // The events may lie before where the reader last read (see BatchReader).
    this.#reader.restart();
    for (let k = 0; k < count; k++) this.readNext(starts[k] as number, ends[k]);
    return this.endEvents();
  }

  /**
   * Begins a batch of events read one by one with readNext (scanEvents reads a batch whose
   * events are all known), chained from `head`; forgets the batch before.
   */
  beginEvents(head: string): void {
    this.#count = 0;
    this.#memberCount = 0;
    this.#chained = 0;
    this.#hashes.length = 0;
    this.#head = head;
    this.#headAt = -1;
    this.#texts.clear();
    this.#writer.base = 0;
  }

  /**
   * Reads the next event, at `at` (of the array scanArray walks, or of a batch): returns the
   * index just after it when proven, else -1 (declined; the events after it are then not
   * chained, and its end is the caller's to find). `mustEnd` >= 0: where it must end.
   */
  readNext(at: number, mustEnd = -1): number {
    if (this.#count === this.#ends.length) this.#growEvents();
    const k = this.#count++;
    this.#starts[k] = at;
    this.#ends[k] = mustEnd;
    this.#firstMember[k] = this.#memberCount;
    this.#proven[k] = 0;
    this.#hashAsStored[k] = 0;
    if (this.#text.charCodeAt(at) !== 0x7b /* { */) return -1;
    try {
      const end = this.#readEvent(at, k, mustEnd);
      this.#ends[k] = end;
      this.#proven[k] = 1;
      return end;
    } catch (err) {
      if (!(err instanceof Declined)) throw err;
      this.#memberCount = this.#firstMember[k];
      return -1;
    }
  }

  /** The batch begun by beginEvents, as read so far (held until the next batch begins). */
  endEvents(): CanonicalizerResult {
    return this.#result();
  }

  /**
   * canonical(event without _hash) of the event whose `{` is at `at`, as a string, or
   * undefined when it is declined (the chain and cassette use the hashes and member texts;
   * this is for callers that want the text itself).
   */
  eventText(at: number): string | undefined {
    this.#reader.restart();
    try {
      this.#reader.read(at);
      const end = this.#writer.writeEvent();
      return decoder.decode(this.#writer.out.subarray(this.#writer.base + HEAD, end));
    } catch (err) {
      if (err instanceof Declined) return undefined;
      throw err;
    }
  }

  #result(): CanonicalizerResult {
    this.#firstMember[this.#count] = this.#memberCount;
    const texts = this.#texts;
    return {
      count: this.#count,
      starts: this.#starts,
      ends: this.#ends,
      names: this.#names,
      depths: this.#depths,
      proven: this.#proven,
      hashes: this.#hashes,
      hashAsStored: this.#hashAsStored,
      chained: this.#chained,
      firstMember: this.#firstMember,
      memberNameStart: this.#mNameStart,
      memberNameEnd: this.#mNameEnd,
      memberValueStart: this.#mValueStart,
      memberValueEnd: this.#mValueEnd,
      memberText: this.#mText,
      texts: texts.strings(this.#writer.out),
      textBytes: this.#writer.out,
      textStarts: texts.starts,
      textEnds: texts.ends,
      ascii: this.#ascii,
    };
  }

  /**
   * Reads, writes and hashes event k at `at`; returns the index just after it. `mustEnd` >= 0:
   * where the event must end (else it is declined).
   */
  #readEvent(at: number, k: number, mustEnd = -1): number {
    const reader = this.#reader;
    const writer = this.#writer;
    reader.read(at);
    if (mustEnd >= 0 && reader.end !== mustEnd) throw DECLINED;
    this.#names[k] = reader.names;
    this.#depths[k] = reader.deepest;
    const end = writer.writeEvent();
    if (this.#chained === k) {
      // h_k = sha256_hex(h_{k-1} + text): the previous hash sits just before the text.
      const head = this.#head;
      let from = writer.base + HEAD;
      if (head !== '') {
        from = writer.base;
        writer.writeHead(head, this.#headAt);
      }
      const hash = sha256Hex(writer.out.subarray(from, end));
      this.#head = hash;
      this.#hashes[k] = hash;
      this.#chained = k + 1;
      // The event's _hash, when it holds these digits, gives the next event its head bytes
      // (a slice compares faster than startsWith, or than comparing code units in a loop).
      const h = reader.hashItem;
      const vs = h < 0 ? -1 : (reader.vs[h] as number) + 1;
      this.#headAt =
        vs > 0 && reader.ve[h] === vs + HEAD + 1 && this.#text.slice(vs, vs + HEAD) === hash
          ? vs
          : -1;
      this.#hashAsStored[k] = this.#headAt >= 0 ? 1 : 0;
    }
    this.#recordMembers();
    return reader.end;
  }

  /** Stores the event's top-level members: value spans, or texts for the cassette's ones. */
  #recordMembers(): void {
    const text = this.#text;
    const r = this.#reader;
    const w = this.#writer;
    const rewritten = w.rewritten;
    let pending = 0;
    while (this.#memberCount + r.members > this.#mNameStart.length) this.#growMembers();
    const nameStart = this.#mNameStart;
    const nameEnd = this.#mNameEnd;
    const valueStart = this.#mValueStart;
    const valueEnd = this.#mValueEnd;
    const known = this.#mText;
    const { ns, ne, vs, ve, vNode, nEscaped, nVerbatim } = r;
    const after = r.nAfter[0] as number;
    let j = this.#memberCount;
    for (let m = r.nHead[0] as number; m < after; j++) {
      const escaped = nEscaped[m] === 1;
      const s = ns[m] as number;
      const e = ne[m] as number;
      nameStart[j] = escaped ? -1 : s;
      nameEnd[j] = escaped ? -1 : e;
      valueStart[j] = vs[m] as number;
      valueEnd[j] = ve[m] as number;
      const child = vNode[m] as number;
      const next = child >= 0 ? (r.nAfter[child] as number) : m + 1;
      if (!rewritten || child === -1 || (child >= 0 && nVerbatim[child] === 1)) {
        known[j] = -1; // as written
      } else if (!escaped && (w.outStart[m] as number) >= 0 && isCassetteMember(text, s, e)) {
        // Kept below, in the order they were written.
        let q = pending++;
        for (
          ;
          q > 0 &&
          (w.outStart[this.#pendingM[q - 1] as number] as number) > (w.outStart[m] as number);
          q--
        ) {
          this.#pendingJ[q] = this.#pendingJ[q - 1] as number;
          this.#pendingM[q] = this.#pendingM[q - 1] as number;
        }
        this.#pendingJ[q] = j;
        this.#pendingM[q] = m;
      } else {
        known[j] = -2;
      }
      m = next;
    }
    this.#memberCount = j;
    for (let q = 0; q < pending; q++) {
      const m = this.#pendingM[q] as number;
      const at = w.keep(w.outStart[m] as number, w.outEnd[m] as number);
      known[this.#pendingJ[q] as number] = this.#texts.add(at, w.base);
    }
  }

  // Tables --------------------------------------------------------------------------------

  #growEvents(): void {
    const size = this.#ends.length * 2;
    this.#starts = grown(this.#starts, new Int32Array(size));
    this.#ends = grown(this.#ends, new Int32Array(size));
    this.#names = grown(this.#names, new Int32Array(size));
    this.#depths = grown(this.#depths, new Int32Array(size));
    this.#proven = grown(this.#proven, new Uint8Array(size));
    this.#hashAsStored = grown(this.#hashAsStored, new Uint8Array(size));
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
