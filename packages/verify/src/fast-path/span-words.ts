// Comparing stretches of JSON text without slicing them. A view of an event (event-views.ts)
// matches each member name against the names the steps read, and compares values with the
// last one of their member; when the text is ASCII its bytes are its code units, index for
// index, and four of them are compared at once through a DataView, else one at a time.

/** Names matched by their text: a name's code units and its slot. */
interface NameEntry {
  readonly codes: Uint16Array;
  /**
   * The name followed by its closing quote, as little-endian 32-bit words at `offsets` into
   * it (the last one overlapping the one before when the length is not a multiple of 4).
   */
  readonly offsets: Int32Array;
  readonly words: Int32Array;
  readonly slot: number;
}

/** A word of text[at, at + 4) read as the DataView reads it (little-endian). */
function wordOf(text: string, at: number): number {
  return (
    text.charCodeAt(at) |
    (text.charCodeAt(at + 1) << 8) |
    (text.charCodeAt(at + 2) << 16) |
    (text.charCodeAt(at + 3) << 24)
  );
}

/** Buckets of the table that finds a name by its length and first word (a power of two). */
const BUCKETS = 64;

/** The bucket of a name of `length` code units whose first four bytes read as `word`. */
function bucketOf(length: number, word: number): number {
  return Math.imul(word ^ length, 0x9e3779b1) >>> 26; // the top 6 bits: 0 to BUCKETS - 1
}

/** Member names matched to slots (their place in the list), by length and first word. */
export class NameSlots {
  // One bucket holds one name or few, where a length can hold five (input, error, model,
  // phase, _hash), each a word compared.
  readonly #byWord: (NameEntry[] | undefined)[] = new Array<NameEntry[] | undefined>(BUCKETS);

  /** `names`: ASCII names of at least 3 characters, each slot its index. */
  constructor(names: readonly string[]) {
    names.forEach((name, slot) => {
      if (name.length < 3 || !/^[\x20-\x7e]*$/.test(name)) throw new Error(`bad name ${name}`);
      const quoted = name + '"';
      const at: number[] = [];
      for (let q = 0; q + 4 <= quoted.length; q += 4) at.push(q);
      if (quoted.length % 4 !== 0) at.push(quoted.length - 4);
      const entry: NameEntry = {
        codes: Uint16Array.from(name, (c) => c.charCodeAt(0)),
        offsets: Int32Array.from(at),
        words: Int32Array.from(at, (q) => wordOf(quoted, q)),
        slot,
      };
      (this.#byWord[bucketOf(name.length, entry.words[0] as number)] ??= []).push(entry);
    });
  }

  /**
   * The slot of the name written at text[s, e) (unescaped, and followed by its closing
   * quote), or -1. `bytes`, when given, views the text's bytes (ASCII text only).
   */
  slotOf(text: string, bytes: DataView | undefined, s: number, e: number): number {
    const length = e - s;
    // Every name is 3 code units or more, so its first word lies within it and its quote.
    if (length < 3) return -1;
    // Read from code units past ASCII the word may be any ASCII name's, but then its code
    // units, compared one by one, are not; a name that is one reads as its entry's word.
    const word = bytes !== undefined ? bytes.getInt32(s, true) : wordOf(text, s);
    const candidates = this.#byWord[bucketOf(length, word)];
    if (candidates === undefined) return -1;
    for (let k = 0; k < candidates.length; k++) {
      const { codes, offsets, words, slot } = candidates[k] as NameEntry;
      if (codes.length !== length || words[0] !== word) continue;
      if (bytes !== undefined) {
        let q = 1;
        while (q < words.length && bytes.getInt32(s + (offsets[q] as number), true) === words[q])
          q++;
        if (q === words.length) return slot;
      } else {
        let i = 0;
        while (i < length && text.charCodeAt(s + i) === codes[i]) i++;
        if (i === length) return slot;
      }
    }
    return -1;
  }
}

/**
 * Whether text[a, a + length) and text[b, b + length) are the same code units. `bytes`, when
 * given, views the text's bytes (ASCII text only).
 */
export function sameSpans(
  text: string,
  bytes: DataView | undefined,
  a: number,
  b: number,
  length: number,
): boolean {
  if (bytes === undefined || length < 4) {
    let i = 0;
    while (i < length && text.charCodeAt(a + i) === text.charCodeAt(b + i)) i++;
    return i === length;
  }
  // Whole words, then the last four bytes (overlapping the last word) for the rest.
  const last = length - 4;
  for (let i = 0; i < last; i += 4)
    if (bytes.getInt32(a + i, true) !== bytes.getInt32(b + i, true)) return false;
  return bytes.getInt32(a + last, true) === bytes.getInt32(b + last, true);
}
