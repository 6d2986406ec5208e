// Canonical texts of a record's events cut from the JSON text they were read from, where the
// text is provably canonical already (see event-scanner.ts). The chain (docs/spec.md §3) and
// the cassette (§4.3) hash these instead of serializing the parsed events again; for every
// other event they answer "unknown" and the steps serialize as before.
import type { KnownMemberTexts } from '@runback/replay-digest';
import type { ProvenSpans } from '../json/index.js';
import { EventScanner, type ScannedEvents } from './event-scanner.js';
import { isWellFormedText, skipValue, skipWhitespace, stringEnd } from './lexer.js';

/** Canonical texts of the events of one record text, by event position. */
export class CanonicalEvents implements KnownMemberTexts {
  readonly #text: string;
  readonly #scan: ScannedEvents;

  constructor(text: string, scan: ScannedEvents) {
    this.#text = text;
    this.#scan = scan;
  }

  /** How many events the text's events array holds. */
  get count(): number {
    return this.#scan.count;
  }

  /** The events as stretches the strict reader's pre-scan steps over where proven canonical. */
  provenSpans(): ProvenSpans {
    const { count, canonical, starts, ends, names, depths } = this.#scan;
    return { count, proven: canonical, starts, ends, names, depths };
  }

  /** canonical(event without `_hash`) of the event at `index`, when proven; else undefined. */
  eventText(index: number): string | undefined {
    const scan = this.#scan;
    if (scan.canonical[index] !== 1) return undefined;
    const first = scan.firstMember[index] as number;
    // The first member is _hash; the text from the second member's opening quote on is the rest.
    if ((scan.firstMember[index + 1] as number) - first < 2) return '{}';
    return '{' + this.#text.slice((scan.memberStarts[first + 1] as number) - 1, scan.ends[index]);
  }

  /** canonical(event[member]) of the event at `index`, when proven and present; else undefined. */
  memberText(index: number, member: string): string | undefined {
    const scan = this.#scan;
    if (scan.canonical[index] !== 1) return undefined;
    const text = this.#text;
    const last = (scan.firstMember[index + 1] as number) - 1;
    for (let m = scan.firstMember[index] as number; m <= last; m++) {
      const start = scan.memberStarts[m] as number;
      // The name is text[start, start + length) when a quote and a colon follow it.
      if (text.charCodeAt(start + member.length) !== 0x22 || !text.startsWith(member, start))
        continue;
      if (text.charCodeAt(start + member.length + 1) !== 0x3a) continue;
      // The value runs to the comma before the next name's quote, or to the closing brace.
      const end =
        m < last ? (scan.memberStarts[m + 1] as number) - 2 : (scan.ends[index] as number) - 1;
      return text.slice(start + member.length + 2, end);
    }
    return undefined;
  }
}

/**
 * Finds the top-level `events` array of a record's JSON text and scans it. Returns null when
 * there is nothing to gain or the text is not as expected: not an object, no `events` array
 * written under that plain name, lone surrogates. Runs before the text is parsed, so callers
 * trust the result only once parseJsonStrict accepted the same text, and use its texts only
 * when `count` is the parsed events array's length. Never throws: should anything fail (say,
 * memory for its tables), verification just takes the general path.
 */
export function scanCanonicalEvents(text: string): CanonicalEvents | null {
  try {
    if (!isWellFormedText(text)) return null;
    const at = eventsArrayStart(text);
    if (at < 0) return null;
    const scan = new EventScanner(text).scanArray(at);
    return scan === null || scan.count === 0 ? null : new CanonicalEvents(text, scan);
  } catch {
    return null;
  }
}

/** Index just after the `[` of the top-level member `"events"`, or -1. */
export function eventsArrayStart(text: string): number {
  let i = skipWhitespace(text, 0);
  if (text.charCodeAt(i) !== 0x7b /* { */) return -1;
  i = skipWhitespace(text, i + 1);
  while (text.charCodeAt(i) === 0x22 /* " */) {
    const nameEnd = stringEnd(text, i + 1);
    if (nameEnd < 0) return -1;
    // Member names are unique (parseJsonStrict), so this is the member JSON.parse kept.
    const isEvents = nameEnd - i - 1 === 6 && text.startsWith('events', i + 1);
    i = skipWhitespace(text, nameEnd + 1);
    if (text.charCodeAt(i) !== 0x3a /* : */) return -1;
    i = skipWhitespace(text, i + 1);
    if (isEvents) return text.charCodeAt(i) === 0x5b /* [ */ ? i + 1 : -1;
    const end = skipValue(text, i);
    if (end < 0) return -1;
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) !== 0x2c /* , */) return -1;
    i = skipWhitespace(text, i + 1);
  }
  return -1;
}
