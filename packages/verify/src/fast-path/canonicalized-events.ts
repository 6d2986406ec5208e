// Canonical texts of a record's events computed from the JSON text they were read from (see
// event-canonicalizer.ts), whatever the member order and whitespace. The chain (docs/spec.md
// §3) and the cassette (§4.3) hash these instead of serializing the parsed events; for any
// event the pass declined they answer "unknown" and the steps serialize the parsed event.
import type { KnownMemberTexts } from '@runback/replay-digest';
import type { ProvenSpans } from '../json/index.js';
import { EventCanonicalizer, type CanonicalizerResult } from './event-canonicalizer.js';
import { eventsArrayStart } from './canonical-events.js';
import { isWellFormedText } from './lexer.js';
import { wasmScanArray } from './wasm-canonicalizer.js';

/** Events read again together by eventText (a small text each, so each read is short). */
const TEXT_GROUP = 16;

/** The members a cassette-member table (useCassetteMembers) holds, in its order. */
export const CASSETTE_SLOTS: readonly string[] = ['request', 'response', 'input', 'output'];

/**
 * A member's place in CASSETTE_SLOTS, or -1: a switch on the (interned) name, where indexOf
 * was a builtin call for every member the cassette asks for.
 */
function slotOf(member: string): number {
  switch (member) {
    case 'request':
      return 0;
    case 'response':
      return 1;
    case 'input':
      return 2;
    case 'output':
      return 3;
    default:
      return -1;
  }
}

/** Chain hashes and canonical texts of the events of one record text, by event position. */
export class CanonicalizedEvents implements KnownMemberTexts {
  readonly #text: string;
  readonly #scan: CanonicalizerResult;
  #cassetteMembers: Int32Array | undefined = undefined;

  /**
   * Never used to verify (ViewReader.keptForLayouts takes its scan): keeps this class's and
   * the scan's object layouts alive between verifications, so that the code V8 optimized for
   * them is not thrown away by each garbage collection (see EventCanonicalizer.keptForLayouts).
   */
  static readonly keptForLayouts: CanonicalizedEvents = new CanonicalizedEvents(
    '[]',
    new EventCanonicalizer('[]').scanArray(1) as CanonicalizerResult,
  );

  constructor(text: string, scan: CanonicalizerResult) {
    this.#text = text;
    this.#scan = scan;
  }

  /** How many events the text's events array holds. */
  get count(): number {
    return this.#scan.count;
  }

  /** What the pass found, for building the events' views (event-views.ts). */
  get scan(): CanonicalizerResult {
    return this.#scan;
  }

  /** The events as stretches the strict reader's pre-scan steps over where proven. */
  provenSpans(): ProvenSpans {
    const { count, proven, starts, ends, names, depths } = this.#scan;
    return { count, proven, starts, ends, names, depths };
  }

  /** h_index onto `previous`, when the pass chained the event onto that hash; else undefined. */
  eventHash(index: number, previous: string): string | undefined {
    const scan = this.#scan;
    if (index >= scan.chained) return undefined;
    const expected = index === 0 ? '' : scan.hashes[index - 1];
    return previous === expected ? scan.hashes[index] : undefined;
  }

  /**
   * canonical(event without `_hash`) of the event at `index`, when proven; else undefined.
   * Written again from the text (the pass keeps only hashes): for tests and diagnostics.
   */
  eventText(index: number): string | undefined {
    const scan = this.#scan;
    if (scan.proven[index] !== 1) return undefined;
    // Read again from a canonicalizer over a few events' text only: one over the whole text
    // would size its tables by the text and look for the next backslash to its end, on every
    // call (the chain asks for each event after one the pass declined).
    const group = Math.floor(index / TEXT_GROUP);
    if (this.#group !== group || this.#groupReader === undefined) {
      const first = group * TEXT_GROUP;
      const last = Math.min(first + TEXT_GROUP, scan.count) - 1;
      this.#groupStart = scan.starts[first] as number;
      this.#groupReader = new EventCanonicalizer(
        this.#text.slice(this.#groupStart, scan.ends[last]),
      );
      this.#group = group;
    }
    return this.#groupReader.eventText((scan.starts[index] as number) - this.#groupStart);
  }

  #group = -1;
  #groupStart = 0;
  #groupReader: EventCanonicalizer | undefined = undefined;

  /**
   * Where each event's request, response, input and output members are, found while its view
   * was read (event-views.ts): 4 entries an event, in that order, the member's index in the
   * scan's member tables, -1 when it has none, -2 when not looked for.
   */
  useCassetteMembers(table: Int32Array): void {
    this.#cassetteMembers = table;
  }

  /** canonical(event[member]) of the event at `index`, when proven and present; else undefined. */
  memberText(index: number, member: string): string | undefined {
    const scan = this.#scan;
    if (scan.proven[index] !== 1) return undefined;
    const table = this.#cassetteMembers;
    const slot = table === undefined ? -1 : slotOf(member);
    if (slot >= 0) {
      const m = (table as Int32Array)[index * 4 + slot] as number;
      if (m === -1) return undefined;
      if (m >= 0) return this.#valueText(m);
    }
    const text = this.#text;
    const last = scan.firstMember[index + 1] as number;
    for (let m = scan.firstMember[index] as number; m < last; m++) {
      // Escaped names (start -1) are not matched: the cassette then serializes the member.
      const start = scan.memberNameStart[m] as number;
      if (start < 0 || (scan.memberNameEnd[m] as number) - start !== member.length) continue;
      if (!text.startsWith(member, start)) continue;
      return this.#valueText(m);
    }
    return undefined;
  }

  /** The canonical text of member m's value, when the pass knows it. */
  #valueText(m: number): string | undefined {
    const scan = this.#scan;
    const known = scan.memberText[m] as number;
    if (known === -2) return undefined;
    if (known < 0) return this.#text.slice(scan.memberValueStart[m], scan.memberValueEnd[m]);
    // Decoded once, with all the others, when the pass ended (member-texts.ts): decoding each
    // again here cost more than the text it made.
    return scan.texts[known];
  }
}

/**
 * Finds the top-level `events` array of a record's JSON text and scans it (with `wasm` and the
 * bytes the text was decoded from, in WebAssembly when the module answers). Returns null when
 * there is nothing to gain or the text is not as expected: not an object, no `events` array
 * written under that plain name, lone surrogates. Runs before the text is parsed, so callers
 * trust the result only once the strict reader accepted the same text (parseJsonStrictSpans,
 * or readRecordAroundViews around the views whose tokens it proved), and use its texts only
 * when `count` is the parsed events array's length. Never throws: should anything fail (say,
 * memory for its tables), verification just takes the general path.
 */
export function canonicalizeEvents(
  text: string,
  bytes?: Uint8Array,
  wasm = true,
): CanonicalizedEvents | null {
  try {
    if (!isWellFormedText(text)) return null;
    const at = eventsArrayStart(text);
    if (at < 0) return null;
    // Text read from bytes is canonicalized by the pass in WebAssembly when it can be; what it
    // leaves, and text given as a string, by the pass in JavaScript (the same result,
    // wasm-canonicalizer.ts).
    const scan =
      (wasm && bytes !== undefined ? wasmScanArray(text, bytes, at) : null) ??
      new EventCanonicalizer(text, bytes).scanArray(at);
    return scan === null || scan.count === 0 ? null : new CanonicalizedEvents(text, scan);
  } catch {
    return null;
  }
}
