// The events array of a record's JSON text, element by element, with a proof for each event
// whose text is already its canonical form (docs/spec.md §2) apart from a leading `_hash`
// member. runback's writers store events that way (§7), so a verifier can hash those stretches
// of its input as they are instead of serializing the parsed events again (§3, §4.3).
//
// The proof is lexical and conservative: an event counts as canonical only if its text
//   - starts with a `"_hash"` member whose value is a string;
//   - has no whitespace outside strings;
//   - lists every object's member names in strictly ascending UTF-16 order, none escaped;
//   - writes every number as Number::toString writes it (`1`, never `1.0`, `1e0` or `-0`);
//   - escapes in strings exactly what JSON.stringify escapes, as it does: `\"`, `\\`, `\b`,
//     `\f`, `\n`, `\r`, `\t`, and `\u00xx` (lowercase) for the other control characters.
// Anything else (`\/`, `\u0061`, a surrogate escape) leaves the event to the general path,
// which serializes the parsed value; so a wrong "no" costs time, never a verdict. Lone raw
// surrogates are ruled out for the whole text before scanning (see isWellFormedText).
//
// It runs before the text is parsed and reads it as valid JSON; its findings are used only
// once parseJsonStrict has accepted the same text. On anything unexpected it declines the
// event or gives up (null) rather than guess, and it ends on any text.
import { DEFAULT_MAX_DEPTH } from '../json/types.js';
import { canonicalNumberEnd, isStringifyUnicodeEscape, sortsAfter } from './canonical-tokens.js';
import { grown } from './grown.js';
import { skipValue, skipWhitespace } from './lexer.js';

/** Give up when none of this many first events is canonical: the record was not written so. */
const GIVE_UP_AFTER = 64;

const HASH_KEY = '_hash';

/** Where each event lies in the text and, for canonical ones, where its top-level members start. */
export interface ScannedEvents {
  readonly count: number;
  /** Index of each event's first character (its `{` when it is an object). */
  readonly starts: Int32Array;
  /** Index just after each event's closing brace. */
  readonly ends: Int32Array;
  /** For canonical events: how many member names they write, at every depth. */
  readonly names: Int32Array;
  /** For canonical events: how deep they nest (1 for an object holding no containers). */
  readonly depths: Int32Array;
  /** 1 where the event is proven canonical. */
  readonly canonical: Uint8Array;
  /** For event k, its members' name starts are memberStarts[firstMember[k] .. firstMember[k+1]). */
  readonly firstMember: Int32Array;
  /** Index of the first character of each top-level member name (after its quote). */
  readonly memberStarts: Int32Array;
}

/** Scans the elements of an events array whose first element starts at or after `at`. */
export class EventScanner {
  readonly #text: string;
  #count = 0;
  #starts: Int32Array;
  #ends: Int32Array;
  #names: Int32Array;
  #depths: Int32Array;
  #canonical: Uint8Array;
  #firstMember: Int32Array;
  #memberStarts: Int32Array;
  #memberCount = 0;
  // The next backslash at or after the scan position (text.length when none): strings are
  // checked for escapes only when one lies inside them.
  #nextBackslash = -1;
  // Per open container, by depth inside the event: the previous member name's start and end
  // for objects (start 0: none yet), start -1 for arrays.
  readonly #keyStart = new Int32Array(DEFAULT_MAX_DEPTH + 2);
  readonly #keyEnd = new Int32Array(DEFAULT_MAX_DEPTH + 2);

  constructor(text: string) {
    this.#text = text;
    // Sized from the text for events of about 500 characters and 14 members, as runback's
    // are, so that a large record grows its tables once or not at all.
    const events = Math.max(64, Math.ceil(text.length / 512));
    this.#starts = new Int32Array(events);
    this.#ends = new Int32Array(events);
    this.#names = new Int32Array(events);
    this.#depths = new Int32Array(events);
    this.#canonical = new Uint8Array(events);
    this.#firstMember = new Int32Array(events + 1);
    this.#memberStarts = new Int32Array(events * 16);
  }

  /** Scans from just after the array's `[`; null when the text is not as expected. */
  scanArray(at: number): ScannedEvents | null {
    const text = this.#text;
    let i = skipWhitespace(text, at);
    if (text.charCodeAt(i) === 0x5d /* ] */) return this.#result();
    let canonicalCount = 0;
    for (;;) {
      if (this.#count === this.#ends.length) this.#growEvents();
      const k = this.#count++;
      this.#starts[k] = i;
      this.#firstMember[k] = this.#memberCount;
      const canonical = text.charCodeAt(i) === 0x7b /* { */ && this.#scanEvent(i, k);
      if (canonical) canonicalCount++;
      else if (k + 1 === GIVE_UP_AFTER && canonicalCount === 0) return null;
      const end = canonical ? this.#ends[k] : skipValue(text, i);
      if (end === undefined || end < 0) return null;
      this.#ends[k] = end;
      this.#canonical[k] = canonical ? 1 : 0;
      if (!canonical) this.#memberCount = this.#firstMember[k];
      i = skipWhitespace(text, end);
      const c = text.charCodeAt(i);
      if (c === 0x5d) return this.#result();
      if (c !== 0x2c /* , */) return null;
      i = skipWhitespace(text, i + 1);
    }
  }

  #result(): ScannedEvents {
    this.#firstMember[this.#count] = this.#memberCount;
    return {
      count: this.#count,
      starts: this.#starts,
      ends: this.#ends,
      names: this.#names,
      depths: this.#depths,
      canonical: this.#canonical,
      firstMember: this.#firstMember,
      memberStarts: this.#memberStarts,
    };
  }

  /**
   * Walks the event object starting at `at` (its `{`) and records its end in #ends[k] and its
   * top-level member starts. Returns whether the event is proven canonical; when it is not,
   * the caller finds the event's end itself.
   */
  #scanEvent(at: number, k: number): boolean {
    const text = this.#text;
    const n = text.length;
    const keyStart = this.#keyStart;
    const keyEnd = this.#keyEnd;
    const first = this.#memberCount;
    let members = this.#memberStarts;
    let count = first;
    let nextBackslash = this.#nextBackslash;
    if (nextBackslash < at) {
      nextBackslash = text.indexOf('\\', at);
      if (nextBackslash < 0) nextBackslash = n;
      // Kept even if this event is declined, so the next one does not search again.
      this.#nextBackslash = nextBackslash;
    }
    let depth = 0;
    let deepest = 0;
    let names = 0;
    let i = at;
    while (i < n) {
      const c = text.charCodeAt(i++);
      if (c === 0x22 /* " */) {
        // A string: find its closing quote, checking any escapes on the way.
        let j = text.indexOf('"', i);
        if (j < 0) return false;
        const escaped = nextBackslash < j;
        while (nextBackslash < j) {
          const e = text.charCodeAt(nextBackslash + 1);
          let next = nextBackslash + 2;
          if (e === 0x75 /* u */) {
            if (!isStringifyUnicodeEscape(text, next)) return false;
            next += 4;
          } else if (e === 0x2f /* / */) {
            return false;
          }
          if (nextBackslash + 1 === j) {
            j = text.indexOf('"', j + 1);
            if (j < 0) return false;
          }
          nextBackslash = text.indexOf('\\', next);
          if (nextBackslash < 0) nextBackslash = n;
        }
        if (text.charCodeAt(j + 1) !== 0x3a /* : */) {
          i = j + 1; // a string value
          continue;
        }
        // A member name: unescaped, and after the previous name of its object.
        if (escaped) return false;
        names++;
        if (depth === 1 && count === first) {
          // The event's first member must be _hash with a string value; it is left out of
          // what is hashed, so the next name is not compared with it.
          if (j - i !== HASH_KEY.length || !text.startsWith(HASH_KEY, i)) return false;
          if (text.charCodeAt(j + 2) !== 0x22) return false;
        } else {
          // A second _hash is compared with no earlier name (the first is left out), so it is
          // declined here: the strict reader then reports the duplicate member.
          if (depth === 1 && j - i === HASH_KEY.length && text.startsWith(HASH_KEY, i))
            return false;
          const previous = keyStart[depth] as number;
          if (previous > 0 && !sortsAfter(text, previous, keyEnd[depth] as number, i, j))
            return false;
          keyStart[depth] = i;
          keyEnd[depth] = j;
        }
        if (depth === 1) {
          if (count === members.length) {
            this.#memberCount = count;
            members = this.#growMembers();
          }
          members[count++] = i;
        }
        i = j + 2;
      } else if (c === 0x2c /* , */) {
        continue;
      } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (++depth >= keyStart.length) return false;
        if (depth > deepest) deepest = depth;
        keyStart[depth] = c === 0x7b ? 0 : -1;
      } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
        if (--depth === 0) {
          this.#ends[k] = i;
          this.#names[k] = names;
          this.#depths[k] = deepest;
          this.#memberCount = count;
          this.#nextBackslash = nextBackslash;
          return true;
        }
      } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
        i = canonicalNumberEnd(text, i - 1);
        if (i < 0) return false;
      } else if (c === 0x74 /* t */ || c === 0x6e /* n */) {
        i += 3; // true, null
      } else if (c === 0x66 /* f */) {
        i += 4; // false
      } else {
        return false; // whitespace, or a colon not straight after a name
      }
    }
    return false;
  }

  #growEvents(): void {
    const size = this.#ends.length * 2;
    this.#starts = grown(this.#starts, new Int32Array(size));
    this.#ends = grown(this.#ends, new Int32Array(size));
    this.#names = grown(this.#names, new Int32Array(size));
    this.#depths = grown(this.#depths, new Int32Array(size));
    this.#canonical = grown(this.#canonical, new Uint8Array(size));
    this.#firstMember = grown(this.#firstMember, new Int32Array(size + 1));
  }

  #growMembers(): Int32Array {
    this.#memberStarts = grown(this.#memberStarts, new Int32Array(this.#memberStarts.length * 2));
    return this.#memberStarts;
  }
}
